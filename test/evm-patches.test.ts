/**
 * dualnet's run-time patches of @ethereumjs/evm, the synchronous interpreter loop
 * (src/evm/interpreterLoop.ts), the frame results without spreads
 * (src/evm/frameResult.ts), the logic functions of KECCAK256, CALLDATALOAD, MLOAD, MSTORE,
 * SLOAD, SSTORE and LOG0–LOG4 (src/evm/wordOpcodes.ts), the memory opcodes' synchronous gas functions
 * (src/evm/patches/memoryGas.ts), the activated-EIP table (src/evm/activatedEips.ts) and the
 * journal's warm keys (src/evm/warmJournal.ts), against ethereumjs' own `Interpreter.run` and
 * `EVM.runInterpreter`: the same executions, run once with the originals and once
 * with the patches, must agree exactly (return data, gas used, refund, logs, error,
 * storage). Programs: the Token fixture (deploy, transfers, a revert) and generated
 * bytecode (random opcodes, so every opcode kind, invalid jumps, stack errors,
 * out-of-gas, truncated PUSH data, calls and creations).
 */
import { Common, Mainnet } from '@ethereumjs/common'
import { createEVM, EVM, type ExecResult } from '@ethereumjs/evm'
import { Account, Address, bigIntToBytes, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { Interface, type InterfaceAbi } from 'ethers'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { Token } from '../fixtures/index.ts'
import { loadEvmModules } from '../src/evm/ethereumjsModules.ts'
import { installActivatedEips } from '../src/evm/patches/activatedEips.ts'
import { installFrameResultPatch } from '../src/evm/patches/frameResult.ts'
import { installInterpreterLoop } from '../src/evm/patches/interpreterLoop.ts'
import { installMemoryGas } from '../src/evm/patches/memoryGas.ts'
import { installWarmJournal } from '../src/evm/patches/warmJournal.ts'
import { installWordOpcodes, word } from '../src/evm/patches/wordOpcodes.ts'

type Run = (...args: unknown[]) => Promise<unknown>
const ORIGINAL = Symbol.for('dualnet.interpreterLoop.original')
const ORIGINAL_FRAME = Symbol.for('dualnet.frameResult.original')
const ORIGINAL_CALL = Symbol.for('dualnet.frameResult.originalExecuteCall')
const CALLEE = new Address(hexToBytes('0x00000000000000000000000000000000000000e1'))
/** The callee: SSTORE(0, CALLVALUE), then returns CALLER as a word. */
const CALLEE_CODE = hexToBytes('0x346000553360005260206000f3')
const CALLER = new Address(hexToBytes('0x00000000000000000000000000000000000000c0'))
const TARGET = new Address(hexToBytes('0x00000000000000000000000000000000000000e0'))
const token = new Interface(Token.abi as InterfaceAbi)

let proto: { run: Run & { [ORIGINAL]?: Run } }
let fast: Run & { [ORIGINAL]?: Run }
const evmProto = EVM.prototype as unknown as { runInterpreter: Run & { [ORIGINAL_FRAME]?: Run }; _executeCall: Run & { [ORIGINAL_CALL]?: Run } }
let frame: Run & { [ORIGINAL_FRAME]?: Run }
let executeCall: Run & { [ORIGINAL_CALL]?: Run }

/** Runs `work` with the original ethereumjs methods in place, then puts the patched ones back. */
async function withOriginalLoop<T>(work: () => Promise<T>): Promise<T> {
  patched = false
  proto.run = fast[ORIGINAL]!
  evmProto.runInterpreter = frame[ORIGINAL_FRAME]!
  evmProto._executeCall = executeCall[ORIGINAL_CALL]!
  try {
    return await work()
  } finally {
    patched = true
    proto.run = fast
    evmProto.runInterpreter = frame
    evmProto._executeCall = executeCall
  }
}

/** Exact observable outcome of one call. */
function describeResult(result: ExecResult) {
  return {
    error: result.exceptionError?.error,
    returnValue: bytesToHex(result.returnValue),
    gasUsed: result.executionGasUsed,
    gasRefund: result.gasRefund,
    logs: (result.logs ?? []).map(([address, topics, data]) => [bytesToHex(address), topics.map((t) => bytesToHex(t)), bytesToHex(data)]),
  }
}

/** Whether the EVMs made now get the per-EVM patch too (the word opcodes); false inside {@link withOriginalLoop}. */
let patched = true

async function newEvm(hardfork = 'istanbul'): Promise<EVM> {
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork }) })
  if (patched) {
    expect(installWordOpcodes(evm)).toBe(true)
    expect(installMemoryGas(evm, (await loadEvmModules())!.opcodeHelpers)).toBe(true)
    expect(installActivatedEips(evm.common as never)).toBe(true)
    expect(installWarmJournal(evm.journal as never)).toBe(true)
  }
  return evm
}

/** Runs `code` at TARGET with `data` (on `hardfork`) and reads the first storage slots afterwards. */
async function runProgram(code: Uint8Array, data: Uint8Array, gasLimit: bigint, hardfork?: string) {
  const evm = await newEvm(hardfork)
  await evm.stateManager.putAccount(TARGET, new Account(0n, 100n))
  await evm.stateManager.putCode(TARGET, code)
  await evm.stateManager.putCode(CALLEE, CALLEE_CODE)
  const result = await evm.runCall({ to: TARGET, caller: CALLER, data, gasLimit })
  const storage: string[] = []
  for (const address of [TARGET, CALLEE]) {
    for (let slot = 0; slot < 4; slot++) {
      storage.push(bytesToHex(await evm.stateManager.getStorage(address, hexToBytes(`0x${slot.toString(16).padStart(64, '0')}`))))
    }
  }
  const balances = [(await evm.stateManager.getAccount(TARGET))?.balance, (await evm.stateManager.getAccount(CALLEE))?.balance]
  return { ...describeResult(result.execResult), storage, balances }
}

/** Deploys the Token and runs transfers, a failing transfer and reads; the outcome of each step. */
async function tokenSession() {
  const evm = await newEvm()
  const outcomes: unknown[] = []
  const created = await evm.runCall({
    caller: CALLER,
    data: hexToBytes(`${Token.bytecode}${token.encodeDeploy(['T', 'T', 10n ** 24n]).slice(2)}` as `0x${string}`),
    gasLimit: 5_000_000n,
  })
  outcomes.push(describeResult(created.execResult))
  const at = created.createdAddress!
  const calls = [
    token.encodeFunctionData('transfer', ['0x00000000000000000000000000000000000000d0', 5n]),
    token.encodeFunctionData('transfer', ['0x00000000000000000000000000000000000000d0', 10n ** 30n]),
    token.encodeFunctionData('balanceOf', ['0x00000000000000000000000000000000000000d0']),
    token.encodeFunctionData('approve', ['0x00000000000000000000000000000000000000d1', 7n]),
    token.encodeFunctionData('totalSupply', []),
  ]
  for (const data of calls) {
    const result = await evm.runCall({ to: at, caller: CALLER, data: hexToBytes(data as `0x${string}`), gasLimit: 200_000n })
    outcomes.push(describeResult(result.execResult))
  }
  return outcomes
}

beforeAll(async () => {
  expect(await installInterpreterLoop()).toBe(true)
  expect(await installFrameResultPatch()).toBe(true)
  frame = evmProto.runInterpreter
  expect(frame[ORIGINAL_FRAME]).toBeTypeOf('function')
  executeCall = evmProto._executeCall
  expect(executeCall[ORIGINAL_CALL]).toBeTypeOf('function')
  const Interpreter = (await loadEvmModules())?.Interpreter
  proto = Interpreter!.prototype as typeof proto
  fast = proto.run
  expect(fast[ORIGINAL]).toBeTypeOf('function')
})

describe('EVM patches', () => {
  it('are installed once: a second install keeps the same methods', async () => {
    expect(await installInterpreterLoop()).toBe(true)
    expect(await installFrameResultPatch()).toBe(true)
    expect(proto.run).toBe(fast)
    expect(evmProto.runInterpreter).toBe(frame)
  })

  it('runs the Token fixture exactly as the original loop', async () => {
    const expected = await withOriginalLoop(tokenSession)
    const actual = await tokenSession()
    expect(actual).toEqual(expected)
    // The session did real work: a successful deploy, a transfer with its log, a revert.
    expect((expected[0] as { error: unknown }).error).toBeUndefined()
    expect((expected[1] as { logs: unknown[] }).logs).toHaveLength(1)
    expect((expected[2] as { error: unknown }).error).toBe('revert')
  })

  it('runs generated bytecode exactly as the original loop', async () => {
    // Bias towards real opcodes: PUSHes, DUP/SWAP, arithmetic, memory, storage, jumps, halts.
    const opcode = fc.oneof(
      fc.integer({ min: 0x00, max: 0xff }),
      fc.constantFrom(
        0x56,
        0x57,
        0x5b,
        0x5b,
        0x60,
        0x60,
        0x61,
        0x80,
        0x81,
        0x90,
        0x01,
        0x02,
        0x35,
        0x51,
        0x52,
        0x54,
        0x55,
        0xf3,
        0xfd,
        0x00,
        0xfe,
        0x20,
        0xa0,
        0xa1,
        0xa4,
        0xf0,
        0xf1,
        0xf4,
        0xfa,
        0x30,
        0x5a,
      ),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(opcode, { minLength: 1, maxLength: 48 }), fc.uint8Array({ maxLength: 36 }), fc.constantFrom(100n, 3_000n, 60_000n), async (bytes, data, gas) => {
        const program = Uint8Array.from(bytes)
        const expected = await withOriginalLoop(() => runProgram(program, data, gas))
        expect(await runProgram(program, data, gas)).toEqual(expected)
      }),
      { numRuns: 400 },
    )
  })

  it('charges dynamic gas exactly as the original loop: memory expansion as the last memory operation, MSIZE, SHA3, copies, EXP, LOG, SSTORE', async () => {
    const programs = [
      '602a60405200', // MSTORE at 0x40, then STOP: the expansion is charged by MSTORE alone
      '602a6101005300', // MSTORE8 at 0x100
      '61020051500000', // MLOAD at 0x200, POP, STOP
      '60206101002000', // SHA3 over 32 bytes at 0x100 (expands memory)
      '602a604052596000526020600060003700', // MSTORE, MSIZE stored, CALLDATACOPY of 32 bytes
      '6020600060003900', // CODECOPY
      '60ff600a0a00', // EXP with a one-byte exponent (10 ** 255)
      '61ffff6002 0a00', // EXP with a two-byte exponent
      '7fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef60206000a100', // LOG1 over 32 bytes
      '602a60005560006000550000', // SSTORE set, then clear (refund), STOP
      '602a600052596000f3', // MSTORE, MSIZE, RETURN
      '602a6000526020601cfd', // MSTORE, REVERT with 32 bytes from 0x1c
      '60016002600360046005606061010aa400', // LOG4 over 0x60 bytes at 0x10a
      '6020600060003e00', // RETURNDATACOPY of 32 bytes with no return data: out of gas
      '600060006000600060e15afa50600060006000 3e 6020600060003e00', // STATICCALL, RETURNDATACOPY of 0 then 32 bytes (the callee returned 32)
      '7f' + 'ff'.repeat(32) + '60020a00', // EXP with a 32-byte exponent
    ]
    for (const hex of programs) {
      const program = hexToBytes(`0x${hex.replace(/\s+/g, '')}`)
      for (const gas of [30n, 200n, 30_000n]) {
        const expected = await withOriginalLoop(() => runProgram(program, new Uint8Array(32).fill(7), gas))
        expect(await runProgram(program, new Uint8Array(32).fill(7), gas), `${hex} with ${gas} gas`).toEqual(expected)
      }
    }
    // MCOPY (Cancun): overlapping copy that expands memory by its source and its destination.
    // MSTORE, then MCOPY 0x40 bytes from 0x20 to 0x100, MSIZE, RETURN.
    const mcopy = hexToBytes('0x602a600052604060206101005e596000f3')
    for (const gas of [30n, 200n, 30_000n]) {
      const expected = await withOriginalLoop(() => runProgram(mcopy, new Uint8Array(0), gas, 'cancun'))
      expect(await runProgram(mcopy, new Uint8Array(0), gas, 'cancun'), `MCOPY with ${gas} gas`).toEqual(expected)
    }
  })

  it('pushes the words of CALLDATALOAD, MLOAD and KECCAK256, and logs the topics, as the original', async () => {
    const RETURN_WORD = '600052 60206000f3' // MSTORE the top word at 0, RETURN 32 bytes
    const programs = [
      // CALLDATALOAD inside, across and past the end of the call data, and at 2^256 - 1.
      ...['00', '04', '1f', '20', '24', 'ff'].map((offset) => `60${offset} 35 ${RETURN_WORD}`),
      `7f${'ff'.repeat(32)} 35 ${RETURN_WORD}`,
      // MLOAD of a small value (the free-memory pointer), of a full word, unaligned.
      `6080 604052 6040 51 ${RETURN_WORD}`,
      `7f${'ab'.repeat(31)}01 600052 6001 51 ${RETURN_WORD}`,
      // KECCAK256 of nothing at an offset past memory (no expansion), of 64 bytes, of 3 unaligned.
      `6000 7f${'ff'.repeat(32)} 20 ${RETURN_WORD}`,
      `7f${'cd'.repeat(32)} 600052 6040 6000 20 ${RETURN_WORD}`,
      `6003 6005 20 ${RETURN_WORD}`,
      // LOG0 with no data, LOG2 with a zero and a full topic, LOG4 with small topics over unaligned data.
      '6000 6000 a0 00',
      `7f${'ee'.repeat(32)} 6000 6020 6000 a2 00`,
      '6001 6002 6003 6004 6005 6007 a4 00',
    ]
    for (const hex of programs) {
      const program = hexToBytes(`0x${hex.replace(/\s+/g, '')}`)
      for (const data of [new Uint8Array(0), Uint8Array.of(1, 2, 3, 4, 5), new Uint8Array(32).fill(0x80), Uint8Array.from({ length: 36 }, (_, i) => i)]) {
        const expected = await withOriginalLoop(() => runProgram(program, data, 100_000n))
        expect(await runProgram(program, data, 100_000n), `${hex} with ${data.length} bytes of call data`).toEqual(expected)
      }
    }
    // The words themselves, not only agreement: a small MLOAD and a CALLDATALOAD across the end.
    const small = await runProgram(hexToBytes(`0x${`6080 604052 6040 51 ${RETURN_WORD}`.replace(/\s+/g, '')}`), new Uint8Array(0), 100_000n)
    expect(small.returnValue).toBe(`0x${'80'.padStart(64, '0')}`)
    const across = await runProgram(hexToBytes(`0x${`6004 35 ${RETURN_WORD}`.replace(/\s+/g, '')}`), Uint8Array.of(1, 2, 3, 4, 5), 100_000n)
    expect(across.returnValue).toBe(`0x05${'00'.repeat(31)}`)
  })

  it('charges a LOG in a static call as the original: the static-state-change error', async () => {
    // The callee at CALLEE logs; TARGET STATICCALLs it and stores the success flag.
    const logger = hexToBytes('0x60006000a000')
    const caller = hexToBytes(`0x6000600060006000${'73' + bytesToHex(CALLEE.bytes).slice(2)}61fffffa60015500`)
    const run = async () => {
      const evm = await newEvm()
      await evm.stateManager.putAccount(TARGET, new Account(0n, 0n))
      await evm.stateManager.putCode(TARGET, caller)
      await evm.stateManager.putCode(CALLEE, logger)
      const result = await evm.runCall({ to: TARGET, caller: CALLER, gasLimit: 200_000n })
      return { ...describeResult(result.execResult), flag: bytesToHex(await evm.stateManager.getStorage(TARGET, hexToBytes(`0x${'1'.padStart(64, '0')}`))) }
    }
    const expected = await withOriginalLoop(run)
    expect(await run()).toEqual(expected)
    // The STATICCALL failed (flag 0: nothing stored) and the caller went on.
    expect(expected.error).toBeUndefined()
    expect(expected.flag).toBe('0x')
  })

  it("turns stack words into the 32 bytes ethereumjs' setLengthLeft(bigIntToBytes(w), 32) gives, on both sides of 2^53", () => {
    const edges = [0n, 1n, 255n, 256n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n, 2n ** 160n - 1n, 2n ** 256n - 1n]
    for (const w of edges) expect(bytesToHex(word(w)), String(w)).toBe(bytesToHex(setLengthLeft(bigIntToBytes(w), 32)))
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }), (large, small) => {
        for (const w of [large, small]) expect(bytesToHex(word(w))).toBe(bytesToHex(setLengthLeft(bigIntToBytes(w), 32)))
      }),
      { numRuns: 500 },
    )
  })

  it('runs nested calls (CALL with and without value, beyond the balance, DELEGATECALL, STATICCALL, precompiles) exactly as the originals', async () => {
    // outSize 32, outOffset 0, inSize 0, inOffset 0, [value], address, gas, CALL*, SSTORE(1, success), RETURN 32 bytes.
    const programs = [
      '6020600060006000600560e161fffff1600155' + '60206000f3',
      '6020600060006000600060e1612710f1600155' + '60206000f3',
      '602060006000600061010060e1612710f1600155' + '60206000f3',
      '602060006000600060e1612710f4600155' + '60206000f3',
      '602060006000600060e1612710fa600155' + '60206000f3',
      '6020600060006000600160e16101f4f1600155' + '60206000f3',
      '6020600060006000600060026101f4f1600155' + '60206000f3',
      '6020600060006000600060096101f4f1600155' + '60206000f3',
    ]
    // Prague too: EIP-7702 is active there, and the patched `_executeCall` still runs (frameResult.ts);
    // EIP-2929's warm and cold accesses (warmJournal.ts) price the SSTOREs and calls.
    for (const hardfork of ['istanbul', 'prague']) {
      for (const hex of programs) {
        const program = hexToBytes(`0x${hex}`)
        const expected = await withOriginalLoop(() => runProgram(program, new Uint8Array(0), 100_000n, hardfork))
        expect(await runProgram(program, new Uint8Array(0), 100_000n, hardfork)).toEqual(expected)
      }
    }
    // The value call did reach the callee: its storage holds the value, its balance grew.
    const valueCall = await runProgram(hexToBytes('0x6020600060006000600560e161fffff160015560206000f3'), new Uint8Array(0), 100_000n)
    expect(valueCall.balances).toEqual([95n, 5n])
    expect(valueCall.storage[4]).toBe('0x05')
  })

  it("answers isActivatedEIP from its table exactly as Common's list does, across a hardfork change; a copy gets ethereumjs' own method", () => {
    const common = new Common({ chain: Mainnet, hardfork: 'istanbul' })
    const own = common.isActivatedEIP
    const expected = (): boolean[] => Array.from({ length: 9000 }, (_, eip) => own.call(common, eip))
    expect(installActivatedEips(common as never)).toBe(true)
    expect(common.isActivatedEIP).not.toBe(own)
    const answers = (): boolean[] => Array.from({ length: 9000 }, (_, eip) => common.isActivatedEIP(eip))
    expect(answers()).toEqual(expected())
    expect([common.isActivatedEIP(7702), common.isActivatedEIP(2929), common.isActivatedEIP(-1), common.isActivatedEIP(2929.5)]).toEqual([false, false, false, false])
    common.setHardfork('prague')
    expect(answers()).toEqual(expected())
    expect([common.isActivatedEIP(2929), common.isActivatedEIP(7702)]).toEqual([true, true])
    expect(common.copy().isActivatedEIP).toBe(own)
  })

  it('leaves tracing to the original loop: step events fire for every opcode', async () => {
    const evm = await newEvm()
    const steps: number[] = []
    evm.events.on('step', (step: { pc: number }) => steps.push(step.pc))
    await evm.stateManager.putCode(TARGET, hexToBytes('0x6001600201600055'))
    await evm.runCall({ to: TARGET, caller: CALLER, gasLimit: 100_000n })
    expect(steps).toEqual([0, 2, 4, 5, 7])
  })
})
