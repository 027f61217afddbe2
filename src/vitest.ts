/**
 * `dualnet/vitest`: one devnet per test file, reverted between tests.
 *
 * ```ts
 * import { useDevnet } from 'dualnet/vitest'
 * const net = useDevnet()            // created before the file's tests, closed after
 * it('deploys', async () => { await net.devnet.rpc('eth_blockNumber') })
 * ```
 * Each test starts from the state the devnet had before the first test (plus what a
 * `beforeAll` of the file did after `useDevnet()`), by a snapshot restored after
 * every test in O(changes).
 *
 * It also registers `expect(receipt).toMatchGasSnapshot(name?)`: gas snapshots in a
 * file, with a check mode for CI (docs/gas-snapshots.md).
 *
 * With `dualnet/vitest/reports` as the run's global setup, the `coverage` and
 * `gasReport` reports of every devnet of the run (each file's, in any worker) are
 * merged and written once at the end (docs/coverage.md).
 *
 * @module dualnet/vitest
 */
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest'
import { sendReportPartsTo } from './coverage/partSink.ts'
import { createDevnet, type Devnet } from './devnet.ts'
import type { DevnetOptions } from './options/types.ts'
import type {} from './vitest/reports.ts'

// The parts directory of dualnet/vitest/reports, when the run has it as global setup:
// this file's devnets then leave their reports to the run's merge.
sendReportPartsTo(inject('dualnetReportParts'))

export { configureGasSnapshots, type GasSnapshotOptions } from './gas/matcher.ts'

/** Access to the file's devnet; `devnet` throws outside the file's tests. */
export interface DevnetHandle {
  readonly devnet: Devnet
}

/** Registers vitest hooks that give this test file its own devnet. */
export function useDevnet(options: DevnetOptions = {}): DevnetHandle {
  let devnet: Devnet | undefined
  let baseline: string | undefined
  beforeAll(async () => {
    devnet = await createDevnet(options)
  })
  beforeEach(async () => {
    // Taken before the first test, so that file-level beforeAll setup is kept.
    baseline ??= await devnet!.snapshot()
  })
  afterEach(async () => {
    if (baseline !== undefined) await devnet!.revert(baseline, { keep: true })
  })
  afterAll(async () => {
    await devnet?.close()
    devnet = undefined
  })
  return {
    get devnet(): Devnet {
      if (devnet === undefined) throw new Error("the devnet exists only while this file's tests run (useDevnet registers beforeAll/afterAll)")
      return devnet
    },
  }
}
