/**
 * Synchronous gas functions for the opcodes whose dynamic gas depends on the stack and
 * memory only: EXP, KECCAK256, CALLDATACOPY, CODECOPY, RETURNDATACOPY, MLOAD, MSTORE,
 * MSTORE8, MCOPY, LOG0 to LOG4, RETURN and REVERT.
 *
 * @ethereumjs/evm 10.1.3 writes every dynamic gas function `async`, so each of these
 * opcodes costs the interpreter a promise and a microtask turn even though none of them
 * awaits anything; MSTORE and MLOAD alone run dozens of times in any Solidity call. The
 * functions here are ethereumjs' own bodies (opcodes/gas.js) without `async`, calling
 * the same helpers from the same module instance (`subMemUsage`, `divCeil`, `trap` of
 * opcodes/util.js, and its `EVMError` messages), so they charge the same gas and throw
 * the same errors. The patched loop (interpreterLoop.ts) awaits a gas function's result
 * only when it is a promise; ethereumjs' own loop awaits the returned bigint, which is
 * the same value.
 *
 * Only the gas functions of one EVM's opcode table are replaced, and not where EIP-6800
 * or EIP-7864 is active (CODECOPY then charges code chunks, as none of the devnet's
 * hardforks does). A hardfork change rebuilds the table with ethereumjs' functions
 * (correct, only slower).
 */
import type { EVM } from '@ethereumjs/evm'

/** The parts of the run state the gas functions read and write. */
interface RunState {
  stack: { peek(n?: number): bigint[] }
  opCode: number
  memoryWordCount: bigint
  highestMemCost: bigint
  interpreter: { isStatic(): boolean; getReturnDataSize(): bigint }
  env: { eof?: unknown }
}

/** The parts of a Common the gas functions read. */
interface CommonLike {
  param(name: string): bigint
  isActivatedEIP(eip: number): boolean
}

type GasFunction = (runState: RunState, gas: bigint, common: CommonLike) => bigint

/** The helpers of @ethereumjs/evm's opcodes/util.js (the `opcodes` file's exports) and its error messages. */
export interface GasHelpers {
  subMemUsage(runState: RunState, offset: bigint, length: bigint, common: CommonLike): bigint
  divCeil(a: bigint, b: bigint): bigint
  trap(message: string): never
  errorMessages: { OUT_OF_GAS: string; OUT_OF_RANGE: string; STATIC_STATE_CHANGE: string }
}

const EXP = 0x0a
const KECCAK256 = 0x20
const CALLDATACOPY = 0x37
const CODECOPY = 0x39
const RETURNDATACOPY = 0x3e
const MLOAD = 0x51
const MSTORE = 0x52
const MSTORE8 = 0x53
const MCOPY = 0x5e
const LOG0 = 0xa0
const LOG4 = 0xa4
const RETURN = 0xf3
const REVERT = 0xfd

/** Opcode names, to check that the table is the one these functions were written for. */
const NAMES: Record<number, string> = {
  [EXP]: 'EXP',
  [KECCAK256]: 'KECCAK256',
  [CALLDATACOPY]: 'CALLDATACOPY',
  [CODECOPY]: 'CODECOPY',
  [RETURNDATACOPY]: 'RETURNDATACOPY',
  [MLOAD]: 'MLOAD',
  [MSTORE]: 'MSTORE',
  [MSTORE8]: 'MSTORE8',
  [MCOPY]: 'MCOPY',
  [RETURN]: 'RETURN',
  [REVERT]: 'REVERT',
}
for (let op = LOG0; op <= LOG4; op++) NAMES[op] = 'LOG'

/** ethereumjs' gas functions of these opcodes, synchronous, over `helpers`. */
function gasFunctions(helpers: GasHelpers): Record<number, GasFunction> {
  const { subMemUsage, divCeil, trap, errorMessages } = helpers
  /** Memory expansion of [offset, offset + length), plus copyGas per word copied. */
  const copy = (runState: RunState, gas: bigint, common: CommonLike, memOffset: bigint, length: bigint): bigint => {
    gas += subMemUsage(runState, memOffset, length, common)
    if (length !== 0n) gas += common.param('copyGas') * divCeil(length, 32n)
    return gas
  }
  /** Memory expansion of a word (MLOAD, MSTORE) or a byte (MSTORE8) at the top of the stack. */
  const access =
    (size: bigint): GasFunction =>
    (runState, gas, common) =>
      gas + subMemUsage(runState, runState.stack.peek()[0]!, size, common)
  /** Memory expansion of [offset, offset + length) at the top of the stack (RETURN, REVERT). */
  const range: GasFunction = (runState, gas, common) => {
    const [offset, length] = runState.stack.peek(2) as [bigint, bigint]
    return gas + subMemUsage(runState, offset, length, common)
  }
  const log: GasFunction = (runState, gas, common) => {
    if (runState.interpreter.isStatic()) trap(errorMessages.STATIC_STATE_CHANGE)
    const [memOffset, memLength] = runState.stack.peek(2) as [bigint, bigint]
    const topicsCount = runState.opCode - LOG0
    if (topicsCount < 0 || topicsCount > 4) trap(errorMessages.OUT_OF_RANGE)
    gas += subMemUsage(runState, memOffset, memLength, common)
    return gas + common.param('logTopicGas') * BigInt(topicsCount) + memLength * common.param('logDataGas')
  }
  const functions: Record<number, GasFunction> = {
    [EXP]: (runState, gas, common) => {
      const exponent = runState.stack.peek(2)[1]!
      if (exponent === 0n) return gas
      let byteLength = exponent.toString(2).length / 8
      if (byteLength > Math.trunc(byteLength)) byteLength = Math.trunc(byteLength) + 1
      if (byteLength < 1 || byteLength > 32) trap(errorMessages.OUT_OF_RANGE)
      return gas + BigInt(byteLength) * common.param('expByteGas')
    },
    [KECCAK256]: (runState, gas, common) => {
      const [offset, length] = runState.stack.peek(2) as [bigint, bigint]
      gas += subMemUsage(runState, offset, length, common)
      return gas + common.param('keccak256WordGas') * divCeil(length, 32n)
    },
    [CALLDATACOPY]: (runState, gas, common) => {
      const [memOffset, , dataLength] = runState.stack.peek(3) as [bigint, bigint, bigint]
      return copy(runState, gas, common, memOffset, dataLength)
    },
    [CODECOPY]: (runState, gas, common) => {
      const [memOffset, , dataLength] = runState.stack.peek(3) as [bigint, bigint, bigint]
      return copy(runState, gas, common, memOffset, dataLength)
    },
    [RETURNDATACOPY]: (runState, gas, common) => {
      const [memOffset, returnDataOffset, dataLength] = runState.stack.peek(3) as [bigint, bigint, bigint]
      // Out of bounds is out of gas, except in EOF code (EIP-7069).
      if (returnDataOffset + dataLength > runState.interpreter.getReturnDataSize() && runState.env.eof === undefined) trap(errorMessages.OUT_OF_GAS)
      return copy(runState, gas, common, memOffset, dataLength)
    },
    [MLOAD]: access(32n),
    [MSTORE]: access(32n),
    [MSTORE8]: access(1n),
    [MCOPY]: (runState, gas, common) => {
      const [dst, src, length] = runState.stack.peek(3) as [bigint, bigint, bigint]
      gas += 3n * ((length + 31n) / 32n)
      gas += subMemUsage(runState, src, length, common)
      return gas + subMemUsage(runState, dst, length, common)
    },
    [RETURN]: range,
    [REVERT]: range,
  }
  for (let op = LOG0; op <= LOG4; op++) functions[op] = log
  return functions
}

/** The entries of an opcode table, as far as this patch reads and writes them. */
type OpcodeTable = Array<{ gasHandler?: unknown; opcodeInfo?: { name?: string; dynamicGas?: boolean } } | undefined>

/**
 * Replaces the gas functions of the opcodes above in `evm`'s opcode table with
 * synchronous ones over `helpers`. Returns true when they are installed, or when EIP-6800
 * or EIP-7864 is active (nothing to do: ethereumjs' own stay); false, changing nothing,
 * when the table does not have the shape of @ethereumjs/evm 10.1.3's.
 */
export function installMemoryGas(evm: EVM, helpers: GasHelpers): boolean {
  if (evm.common.isActivatedEIP(6800) || evm.common.isActivatedEIP(7864)) return true
  const table = (evm as unknown as { _opcodeMap?: OpcodeTable })._opcodeMap
  if (table === undefined) return false
  const functions = gasFunctions(helpers)
  // MCOPY only from Cancun on: before, its byte is the INVALID entry, left as it is.
  const present = Object.keys(functions)
    .map(Number)
    .filter((code) => code !== MCOPY || table[code]?.opcodeInfo?.name === NAMES[code])
  const matches = (code: number) => table[code]?.opcodeInfo?.name === NAMES[code] && table[code]!.opcodeInfo!.dynamicGas === true && typeof table[code]!.gasHandler === 'function'
  if (!present.every(matches)) return false
  for (const code of present) table[code]!.gasHandler = functions[code]
  return true
}
