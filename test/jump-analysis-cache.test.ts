/**
 * The per-code jump-destination analysis cache (src/evm/jumpAnalysisCache.ts):
 * installed into the @ethereumjs/evm the EVM really uses, one analysis per code array,
 * never shared across different code, EVMs or hardforks, and results unchanged.
 */
import { Common, Mainnet } from '@ethereumjs/common'
import { createEVM, type EVM, type ExecResult } from '@ethereumjs/evm'
import { Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { Interface, type InterfaceAbi } from 'ethers'
import { describe, expect, it } from 'vitest'
import { Token } from '../fixtures/index.ts'
import { installJumpAnalysisCache } from '../src/evm/patches/jumpAnalysisCache.ts'

interface Analysis {
  jumps: Uint8Array
  pushes: Record<number, bigint>
  opcodesCached: unknown[]
}
type Analyse = (code: Uint8Array) => Analysis
interface InterpreterInstance {
  _getValidJumpDestinations: Analyse
}
type InterpreterClass = (new (
  ...args: unknown[]
) => InterpreterInstance) & {
  prototype: { _getValidJumpDestinations: Analyse & { [key: symbol]: Analyse | undefined } }
}

const ORIGINAL = Symbol.for('dualnet.jumpAnalysisCache.original')
const GAS = 1_000_000n
const CALLER = new Address(hexToBytes('0x00000000000000000000000000000000000000c0'))
const OTHER = new Address(hexToBytes('0x00000000000000000000000000000000000000d0'))

/** The Interpreter class of the @ethereumjs/evm this file imports, as the cache finds it. */
async function interpreterClass(): Promise<InterpreterClass> {
  const url = new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href
  return ((await import(url)) as { Interpreter: InterpreterClass }).Interpreter
}

/** The unwrapped analysis, for expected values. */
async function originalAnalyse(): Promise<Analyse> {
  const original = (await interpreterClass()).prototype._getValidJumpDestinations[ORIGINAL]
  if (original === undefined) throw new Error('cache not installed')
  return original
}

/** An interpreter of `evm`, as `EVM.runInterpreter` builds one, to call the analysis directly. */
async function interpreterOf(evm: EVM): Promise<InterpreterInstance> {
  const Interpreter = await interpreterClass()
  const e = evm as unknown as Record<string, unknown>
  return new Interpreter(evm, e.stateManager, e.blockchain, { gasRefund: 0n }, GAS, e.journal, e.performanceLogger, undefined)
}

async function newEvm(hardfork: string): Promise<EVM> {
  return createEVM({ common: new Common({ chain: Mainnet, hardfork }) })
}

function code(hex: string): Uint8Array {
  return hexToBytes(`0x${hex.replace(/\s+/g, '')}`)
}

function word(value: number): string {
  return bytesToHex(setLengthLeft(hexToBytes(`0x${value.toString(16).padStart(2, '0')}`), 32))
}

/** Outcome of a frame in exact terms: error text (without its ` at <code hash>/<address>:<pc>` tail) or return data. */
function outcome(result: ExecResult): string {
  const error = result.exceptionError?.error
  return error !== undefined ? `error: ${error.split(' at ')[0]}` : bytesToHex(result.returnValue)
}

async function call(evm: EVM, to: Address): Promise<ExecResult> {
  return (await evm.runCall({ to, caller: CALLER, gasLimit: GAS })).execResult
}

// Fifteen bytes each; every one jumps to offset 4.
// A: JUMPDEST at 4, returns 42.
const A = '60 04 56 00 5b 60 2a 60 00 52 60 20 60 00 f3'
// B: JUMPDEST moved to 3, offset 4 is STOP: the jump is invalid (a leaked A analysis would STOP with success).
const B = '60 04 56 5b 00 60 2a 60 00 52 60 20 60 00 f3'
// C: as A with another PUSH argument: returns 43 (a leaked A analysis would return 42).
const C = '60 04 56 00 5b 60 2b 60 00 52 60 20 60 00 f3'
// D: the 0x5b at 4 is PUSH1 data, not a JUMPDEST: the jump is invalid.
const D = '60 04 56 60 5b 60 2a 60 00 52 60 20 60 00 f3'
const EXPECTED: Record<string, string> = {
  [A]: word(42),
  [B]: 'error: invalid JUMP',
  [C]: word(43),
  [D]: 'error: invalid JUMP',
}

// JUMP to 3, then PUSH0 (Shanghai): MSTORE(0, 42), RETURN(0, 32). Istanbul has no PUSH0.
const PUSH0_CODE = '60 03 56 5b 60 2a 5f 52 60 20 5f f3'

describe('jump-destination analysis cache', () => {
  it('installs into the EVM createEVM builds and returns the identical analysis for the same code array', async () => {
    expect(await installJumpAnalysisCache()).toBe(true)
    expect(await installJumpAnalysisCache()).toBe(true) // idempotent
    const evm = await newEvm('istanbul')
    expect(await installJumpAnalysisCache(evm)).toBe(true)
    expect(await installJumpAnalysisCache({})).toBe(false)
    const wrapper = (await interpreterClass()).prototype._getValidJumpDestinations
    expect(typeof wrapper[ORIGINAL]).toBe('function')

    const bytes = code(A)
    const first = (await interpreterOf(evm))._getValidJumpDestinations(bytes)
    const second = (await interpreterOf(evm))._getValidJumpDestinations(bytes)
    expect(second).toBe(first)
    expect(first).toEqual((await originalAnalyse()).call(await interpreterOf(evm), bytes))

    // Real calls: the frames of two calls to one contract share the analysis.
    const to = new Address(hexToBytes('0x00000000000000000000000000000000000000a1'))
    await evm.stateManager.putCode(to, bytes)
    const one = await call(evm, to)
    const two = await call(evm, to)
    expect(outcome(one)).toBe(word(42))
    expect(outcome(two)).toBe(word(42))
    expect(one.runState?.validJumps).toBeDefined()
    expect(two.runState?.validJumps).toBe(one.runState?.validJumps)
    expect(two.runState?.cachedPushes).toBe(one.runState?.cachedPushes)
  })

  it('never hands the analysis of one code to another code of the same length', async () => {
    expect(await installJumpAnalysisCache()).toBe(true)
    const evm = await newEvm('istanbul')
    const original = await originalAnalyse()
    const interpreter = await interpreterOf(evm)
    const codes = [A, B, C, D]
    for (const hex of codes) expect(code(hex).length).toBe(15)

    // Direct: each code gets its own, correct analysis, and they differ.
    const analyses = codes.map((hex) => {
      const bytes = code(hex)
      const analysis = interpreter._getValidJumpDestinations(bytes)
      expect(analysis).toEqual(original.call(interpreter, bytes))
      return analysis
    })
    expect([...analyses[0]!.jumps.entries()].filter(([, v]) => v === 1).map(([i]) => i)).toEqual([4])
    expect([...analyses[1]!.jumps.entries()].filter(([, v]) => v === 1).map(([i]) => i)).toEqual([3])
    expect([...analyses[3]!.jumps.entries()].filter(([, v]) => v === 1).map(([i]) => i)).toEqual([])
    expect(analyses[0]!.pushes[6]).toBe(0x2an)
    expect(analyses[2]!.pushes[6]).toBe(0x2bn)
    for (let i = 0; i < analyses.length; i++) {
      for (let j = i + 1; j < analyses.length; j++) expect(analyses[i]).not.toEqual(analyses[j])
    }

    // Real executions, interleaved and repeated, each contract at its own address.
    const addresses = codes.map((_, i) => new Address(hexToBytes(`0x00000000000000000000000000000000000000b${i}`)))
    for (const [i, hex] of codes.entries()) await evm.stateManager.putCode(addresses[i]!, code(hex))
    for (let round = 0; round < 3; round++) {
      for (const [i, hex] of codes.entries()) expect(outcome(await call(evm, addresses[i]!))).toBe(EXPECTED[hex])
      for (const hex of [...codes].reverse()) {
        expect(outcome(await evm.runCode({ code: code(hex), gasLimit: GAS }))).toBe(EXPECTED[hex])
      }
    }

    // One address whose code is replaced by another of the same length, back and forth.
    const slot = new Address(hexToBytes('0x00000000000000000000000000000000000000bf'))
    for (const hex of [A, B, A, C, D, C, A]) {
      await evm.stateManager.putCode(slot, code(hex))
      expect(outcome(await call(evm, slot))).toBe(EXPECTED[hex])
    }
  })

  it('keeps the analyses of two EVMs with different hardforks apart, and follows a hardfork change', async () => {
    expect(await installJumpAnalysisCache()).toBe(true)
    const istanbul = await newEvm('istanbul')
    const shanghai = await newEvm('shanghai')
    const bytes = code(PUSH0_CODE) // one array for both EVMs
    const ofIstanbul = (await interpreterOf(istanbul))._getValidJumpDestinations(bytes)
    const ofShanghai = (await interpreterOf(shanghai))._getValidJumpDestinations(bytes)
    expect(ofShanghai).not.toBe(ofIstanbul)
    expect(ofShanghai.opcodesCached[6]).not.toBe(ofIstanbul.opcodesCached[6]) // PUSH0 vs INVALID
    const original = await originalAnalyse()
    expect(ofIstanbul).toEqual(original.call(await interpreterOf(istanbul), bytes))
    expect(ofShanghai).toEqual(original.call(await interpreterOf(shanghai), bytes))
    // Two EVMs of one hardfork do not share entries either.
    const istanbul2 = await newEvm('istanbul')
    expect((await interpreterOf(istanbul2))._getValidJumpDestinations(bytes)).not.toBe(ofIstanbul)

    // PUSH0 runs after the jump, from the cached opcode entries: a shared entry would
    // make Istanbul accept it or Shanghai reject it.
    for (let round = 0; round < 3; round++) {
      expect(outcome(await istanbul.runCode({ code: bytes, gasLimit: GAS }))).toBe('error: invalid opcode')
      expect(outcome(await shanghai.runCode({ code: bytes, gasLimit: GAS }))).toBe(word(42))
    }
    // A hardfork change rebuilds the EVM's opcode table; the cached analyses follow it.
    istanbul.common.setHardfork('shanghai')
    expect(outcome(await istanbul.runCode({ code: bytes, gasLimit: GAS }))).toBe(word(42))
    istanbul.common.setHardfork('istanbul')
    expect(outcome(await istanbul.runCode({ code: bytes, gasLimit: GAS }))).toBe('error: invalid opcode')
  })

  it('gives the same results, gas, logs and step trace as the uncached analysis', async () => {
    expect(await installJumpAnalysisCache()).toBe(true)
    const Interpreter = await interpreterClass()
    const wrapper = Interpreter.prototype._getValidJumpDestinations
    const uncached = await originalAnalyse()
    const token = new Interface(Token.abi as InterfaceAbi)
    const deploy = hexToBytes(`${Token.bytecode}${token.encodeDeploy(['Token', 'TKN', 10n ** 24n]).slice(2)}` as `0x${string}`)
    const calls = [
      token.encodeFunctionData('balanceOf', [CALLER.toString()]),
      token.encodeFunctionData('transfer', [OTHER.toString(), 1000n]),
      token.encodeFunctionData('transfer', [OTHER.toString(), 10n ** 30n]), // reverts: InsufficientBalance
      token.encodeFunctionData('balanceOf', [OTHER.toString()]),
      token.encodeFunctionData('name'),
      token.encodeFunctionData('symbol'),
      token.encodeFunctionData('totalSupply'),
      token.encodeFunctionData('approve', [OTHER.toString(), 5n]),
      token.encodeFunctionData('allowance', [CALLER.toString(), OTHER.toString()]),
    ]

    async function run(): Promise<unknown[]> {
      const evm = await newEvm('istanbul')
      const trace: string[] = []
      evm.events.on('step', (step) => {
        trace.push(`${step.depth}:${step.pc}:${step.opcode.name}:${step.gasLeft}:${step.stack.join(',')}`)
      })
      const results: unknown[] = []
      const created = await evm.runCall({ caller: CALLER, data: deploy, gasLimit: 10_000_000n })
      const address = created.createdAddress
      if (address === undefined) throw new Error('deployment failed')
      for (const data of [...calls, ...calls]) {
        const { execResult } = await evm.runCall({ to: address, caller: CALLER, data: hexToBytes(data as `0x${string}`), gasLimit: GAS })
        results.push({
          outcome: outcome(execResult),
          gas: execResult.executionGasUsed,
          refund: execResult.gasRefund,
          logs: execResult.logs?.map((log) => log.map((part) => (Array.isArray(part) ? part.map(bytesToHex) : bytesToHex(part)))),
        })
      }
      return [created.execResult.executionGasUsed, address.toString(), results, trace]
    }

    let without: unknown[]
    Interpreter.prototype._getValidJumpDestinations = uncached as typeof wrapper
    try {
      without = await run()
    } finally {
      Interpreter.prototype._getValidJumpDestinations = wrapper
    }
    const withCache = await run()
    expect(withCache).toEqual(without)
    const results = withCache[2] as { outcome: string }[]
    expect(results[0]!.outcome).toBe(bytesToHex(setLengthLeft(hexToBytes('0xd3c21bcecceda1000000'), 32)))
    expect(results[2]!.outcome).toMatch(/^error: revert$/)
    expect((withCache[3] as string[]).length).toBeGreaterThan(1000)
  })
})
