/**
 * What the coverage tests share: the Branches fixture's build-info, and an executor
 * recording coverage (or not) with the Branches runtime code at {@link TARGET} (its
 * immutable owner left zero), calls simulated from {@link CALLER}.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { Interface } from 'ethers'
import { CoverageRecorder, EvmExecutor } from '../src/evm/executor.ts'
import { WorldState } from '../src/state/worldState.ts'
import { keccak256 } from '../src/util/hash.ts'
import { fromHex, toHex, toHexRaw } from '../src/util/hex.ts'

export const BUILD_INFO = 'fixtures/coverage/build-info'
export const SOURCE_NAME = 'fixtures/coverage/Branches.sol'
const buildInfo = JSON.parse(readFileSync(new URL('../fixtures/coverage/build-info/branches.json', import.meta.url), 'utf8'))
/** solc's output for the Branches contract (abi, evm.bytecode, evm.deployedBytecode). */
export const compiled = buildInfo.output.contracts[SOURCE_NAME].Branches
/** The source's text. */
export const content: string = buildInfo.input.sources[SOURCE_NAME].content
export const abi = new Interface(compiled.abi)
export const CALLER = fromHex('0x00000000000000000000000000000000000000c0')
export const TARGET = fromHex('0x00000000000000000000000000000000000000aa')
/** Init code deploying Branches(7). */
export const initCode = `0x${compiled.evm.bytecode.object}${abi.encodeDeploy([7]).slice(2)}`

/** An executor with `recorder` (none: coverage off); `call(data, to)` simulates a call to TARGET, or a creation with `to` null. */
export async function branchesExecutor(recorder: CoverageRecorder | undefined, evmPatches = true) {
  const world = new WorldState()
  const code = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
  const codeHash = toHexRaw(keccak256(code))
  world.putCode(codeHash, code)
  world.setAccount(toHexRaw(TARGET), { nonce: 1n, gas: 0n, main: 0n, codeHash }, 0)
  world.setAccount(toHexRaw(CALLER), { nonce: 0n, gas: 10n ** 20n, main: 0n, codeHash: undefined }, 0)
  const executor = await EvmExecutor.create({ chainId: 1, hardfork: 'istanbul', world, blockHash: () => undefined, coverageRecorder: recorder, evmPatches })
  const call = (data: string, to: Uint8Array | null = TARGET) =>
    executor.simulate({ from: CALLER, to: to ?? undefined, data: fromHex(data), value: 0n, gasLimit: 1_000_000n, gasPrice: 0n }, { readHeight: 0, number: 1, timestamp: 1_700_000_000 })
  return { executor, call, codeHash: toHex(keccak256(code)) }
}

export { CoverageRecorder }

const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/** A new temporary directory named `prefix…`, removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  tempDirs.push(dir)
  return dir
}
