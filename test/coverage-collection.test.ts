/**
 * Coverage collection in the EVM (issue 38, evm/coverage.ts): per code the
 * instructions run and each JUMPI's jumps, for runtime code and init code apart; the
 * same with the patched loop and with ethereumjs' own (patches off); nothing recorded
 * on an executor without a recorder.
 */
import { describe, expect, it } from 'vitest'
import type { CodeCoverage } from '../src/evm/executor.ts'
import { keccak256 } from '../src/util/hash.ts'
import { fromHex, toHex } from '../src/util/hex.ts'
import { instructionIndexes, parseSourceMap } from '../src/coverage/sourceMap.ts'
import { abi, branchesExecutor as setUp, compiled, content, CoverageRecorder, initCode } from './coverage-support.ts'

/** The pc of the first JUMPI whose source-map range is exactly `text` in the source. */
function jumpiOf(text: string): number {
  const code = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
  const map = parseSourceMap(compiled.evm.deployedBytecode.sourceMap)
  const indexes = instructionIndexes(code)
  const start = content.indexOf(text)
  for (let pc = 0; pc < code.length; pc++) {
    const e = map[indexes[pc]!]
    if (e !== undefined && code[pc] === 0x57 && e.start === start && e.length === text.length) return pc
  }
  throw new Error(`no JUMPI for ${text}`)
}

function runtime(taken: CodeCoverage[], codeHash: string): CodeCoverage {
  const entry = taken.find((c) => !c.creation && c.codeHash === codeHash)
  if (entry === undefined) throw new Error('no runtime entry')
  return entry
}

describe.each([true, false])('coverage collection (EVM patches %s)', (evmPatches) => {
  it('counts the instructions and the JUMPI outcomes of calls, apart for init code', async () => {
    const recorder = new CoverageRecorder()
    const { executor, call, codeHash } = await setUp(recorder, evmPatches)
    expect(executor.coverage).toBe(recorder)
    expect((await call(abi.encodeFunctionData('add', [5]))).status).toBe(1)
    expect((await call(abi.encodeFunctionData('add', [500]))).status).toBe(1)
    expect((await call(abi.encodeFunctionData('add', [0]))).status).toBe(0)
    const taken = recorder.take()
    expect(taken).toHaveLength(1)
    const entry = runtime(taken, codeHash)
    expect(entry.counts[0]).toBe(3)
    // require(amount > 0): jumps (passes) twice, falls through to the revert once.
    const req = jumpiOf('require(amount > 0, "Branches: zero amount")')
    expect([entry.counts[req], entry.jumps[req]]).toEqual([3, 2])
    // if (amount > 100): the JUMPI skips the then-block when the condition is false (5), falls into it for 500.
    const cond = content.slice(content.indexOf('if (amount > 100)'), content.indexOf('total += amount;') + 'total += amount;\n        }'.length)
    const branch = jumpiOf(cond)
    expect([entry.counts[branch], entry.jumps[branch]]).toEqual([2, 1])
    // Push data is never counted.
    const indexes = instructionIndexes(entry.code)
    for (let pc = 0; pc < entry.code.length; pc++) if (indexes[pc] === -1) expect(entry.counts[pc]).toBe(0)
    // Taken means reset.
    expect(recorder.take()).toEqual([])
  })

  it('records init code apart from runtime code, keyed by its hash', async () => {
    const recorder = new CoverageRecorder()
    const { call } = await setUp(recorder, evmPatches)
    expect((await call(initCode, null)).error).toBeUndefined()
    const taken = recorder.take(false)
    expect(taken.map((c) => c.creation)).toEqual([true])
    expect(taken[0]!.codeHash).toBe(toHex(keccak256(fromHex(initCode))))
    expect(taken[0]!.counts[0]).toBe(1)
    // take(false) keeps what was recorded.
    expect(recorder.take()).toHaveLength(1)
  })
})

describe('coverage off', () => {
  it('has no source and records nothing', async () => {
    const { executor, call } = await setUp(undefined)
    expect(executor.coverage).toBeUndefined()
    expect((await call(abi.encodeFunctionData('pick', [true]))).status).toBe(1)
  })
})
