/**
 * The controls under Anvil's names answer in Anvil's shapes: the same calls on dualnet
 * and on Anvil `--hardfork istanbul` (test/anvil-support.ts; Foundry's release of test/foundry-support.ts),
 * compared by shape (null, boolean, number, hex string, object keys, array items).
 * Named differences: none of these calls' shapes differ (Anvil's setters answer null where Hardhat's answer true). Reads Anvil 1.7.1 serves (eth_getAccountInfo,
 * eth_getStorageValues) are compared by value, eth_config by value but its named fields. The values differ where the
 * chain's rules make them (chain id, gas limit 6,000,000, gas price, client version).
 * In `npm run test:tools` (it runs Anvil).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { startAnvil, type Anvil } from './anvil-support.ts'

const STRANGER = '0x00000000000000000000000000000000000000aa'

let anvil: Anvil | undefined
let devnet: Devnet

/** Anvil's answer to `method`: its result, or `{ error: code }`. */
function anvilCall(method: string, params: unknown[] = []): Promise<unknown> {
  return anvil!.rpc(method, params).then(
    (result) => result,
    (err: { code: number }) => ({ error: err.code }),
  )
}

/** dualnet's answer to `method`, in the same form. */
function dualnetCall(method: string, params: unknown[] = []): Promise<unknown> {
  return devnet.rpc(method as never, params as never).then(
    (result) => result,
    (err: { code: number }) => ({ error: err.code }),
  )
}

/** The JSON shape of `value`: its types and object keys, not its values. */
function shape(value: unknown): unknown {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])]
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? 'hex' : 'string'
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, shape((value as Record<string, unknown>)[key])]),
    )
  return typeof value
}

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'istanbul'])
  devnet = await createDevnet({ console: false })
}, 120_000)
afterAll(async () => {
  anvil?.close()
  await devnet?.close()
})

/** Calls in order (each may depend on the ones before), the same on both. */
const calls: [string, unknown[]][] = [
  ['anvil_nodeInfo', []],
  ['anvil_metadata', []],
  ['hardhat_metadata', []],
  ['anvil_setAutomine', [false]],
  ['anvil_getAutomine', []],
  ['anvil_setAutomine', [true]],
  ['anvil_getIntervalMining', []],
  ['anvil_setIntervalMining', [0]],
  ['anvil_snapshot', []],
  ['evm_mine_detailed', []],
  // Anvil 1.7.1 takes MineOptions only with both keys present.
  ['anvil_mine_detailed', [{ timestamp: null, blocks: 2 }]],
  // Anvil numbers its snapshots from 0x0, dualnet from 0x1: an id neither holds answers false on both.
  ['anvil_revert', ['0x99']],
  ['anvil_increaseTime', [10]],
  ['anvil_setTime', [3_000_000_000]],
  ['evm_setTime', [3_000_000_100]],
  ['anvil_setNextBlockTimestamp', [3_000_001_000]],
  ['anvil_getGenesisTime', []],
  ['anvil_addBalance', [STRANGER, '0x10']],
  ['anvil_autoImpersonateAccount', [true]],
  ['anvil_autoImpersonateAccount', [false]],
  ['anvil_setMinGasPrice', ['0x0']],
  ['anvil_setLoggingEnabled', [true]],
  // The setters Hardhat also names: Anvil's answer null where Hardhat's answer true.
  ['anvil_setBalance', [STRANGER, '0x20']],
  ['anvil_setCode', [STRANGER, '0x00']],
  ['anvil_setNonce', [STRANGER, '0x5']],
  ['anvil_setStorageAt', [STRANGER, '0x0', `0x${'00'.repeat(31)}01`]],
  ['anvil_impersonateAccount', [STRANGER]],
  ['anvil_stopImpersonatingAccount', [STRANGER]],
  ['anvil_setCoinbase', [STRANGER]],
  ['anvil_setBlockGasLimit', ['0x5b8d80']],
  ['anvil_mine', [1]],
]

describe('controls in the shapes Anvil answers', () => {
  it.each(calls)('%s', async (method, params) => {
    const [theirs, ours] = [await anvilCall(method, params), await dualnetCall(method, params)]
    expect(shape(ours), `${method}: Anvil answered ${JSON.stringify(theirs)}`).toEqual(shape(theirs))
  })
})

/** Keys lower-cased, recursively: Anvil checksums the addresses it uses as keys; dualnet answers them lower case. */
function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), lowerKeys(v)]))
}

describe('reads Anvil serves, by value (after the controls above ran on both)', () => {
  it('eth_getAccountInfo and eth_getStorageValues answer the same account and slots', async () => {
    for (const [method, params] of [
      ['eth_getAccountInfo', [STRANGER, 'latest']],
      ['eth_getStorageValues', [{ [STRANGER]: [`0x${'00'.repeat(32)}`, `0x${'00'.repeat(31)}01`] }, 'latest']],
    ] as const) {
      const [theirs, ours] = [await anvilCall(method, [...params]), await dualnetCall(method, [...params])]
      expect(lowerKeys(ours), `${method}: Anvil answered ${JSON.stringify(theirs)}`).toEqual(lowerKeys(theirs))
    }
  })

  it('eth_config (EIP-7910) in the same shape; named differences: the chain id, the fork hash (Anvil answers zeros), the blob schedule (null here before Cancun)', async () => {
    const [theirs, ours] = (await Promise.all([anvilCall('eth_config'), dualnetCall('eth_config')])) as { current: Record<string, unknown> }[]
    const { chainId: _a, forkId: _b, blobSchedule: theirBlobs, ...theirRest } = theirs!.current
    const { chainId: _c, forkId: _d, blobSchedule: ourBlobs, ...ourRest } = ours!.current
    expect(ourRest).toEqual(theirRest)
    expect(ourBlobs).toBeNull()
    expect(theirBlobs).toMatchObject({ target: expect.any(Number) })
    expect({ next: (ours as never as { next: unknown }).next, last: (ours as never as { last: unknown }).last }).toEqual({ next: null, last: null })
  })
})
