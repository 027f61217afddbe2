/**
 * MSTORE, MLOAD, KECCAK256, CALLDATALOAD, LOG0–LOG4, SLOAD and SSTORE without
 * @ethereumjs/util's conversion helpers.
 *
 * @ethereumjs/evm 10.1.3 turns the stack word of every MSTORE, SLOAD and SSTORE (and
 * every LOG topic) into bytes with `setLengthLeft(bigIntToBytes(word), 32)`: a
 * regex-checked hex parse, then padding through two array spreads, about 2 µs per
 * opcode and the largest share of @ethereumjs/util in a token transfer's profile
 * (issue 8); and the bytes MLOAD, KECCAK256 and CALLDATALOAD push back into a word with
 * `bytesToBigInt`, a hex string built a byte at a time in JavaScript (about 9 KB of
 * garbage in a token transfer: an MLOAD of the free-memory pointer, the mapping slots'
 * hashes, the call's arguments). These logic functions do the same conversions with
 * util/hex.ts (a stack word's bytes from a double below 2^53, else one hex string
 * parsed by `Buffer`; a word from a double when it has at most 6 significant bytes,
 * else `Buffer`'s hex): the same bytes and the same words (for SSTORE's value, its
 * minimal big-endian bytes, empty for zero), and otherwise what ethereumjs' do. Only
 * the logic functions of one EVM's opcode table are replaced; gas functions stay
 * ethereumjs' (or memoryGas.ts'). Not installed where EIP-8037 (state gas in SSTORE's
 * logic) is active.
 */
import type { EVM } from '@ethereumjs/evm'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bigIntToBytes, bigIntToMinimalBytes, bytesToBigInt } from '../../util/hex.ts'

/** The parts of the run state the handlers use. */
interface RunState {
  opCode: number
  stack: { pop(): bigint; popN(n: number): bigint[]; push(value: bigint): void }
  memory: { write(offset: number, size: number, value: Uint8Array): void; read(offset: number, size: number, avoidCopy?: boolean): Uint8Array }
  interpreter: {
    storageLoad(key: Uint8Array): Promise<Uint8Array>
    storageStore(key: Uint8Array, value: Uint8Array): Promise<void>
    getCallData(): Uint8Array
    getCallDataSize(): bigint
    log(data: Uint8Array, topicsCount: number, topics: Uint8Array[]): void
  }
}

/** The part of the EVM's Common the handlers use: its crypto overrides. */
interface CommonLike {
  customCrypto: { keccak256?: (data: Uint8Array) => Uint8Array }
}

type Handler = (runState: RunState, common: CommonLike) => unknown

const KECCAK256 = 0x20
const CALLDATALOAD = 0x35
const MLOAD = 0x51
const MSTORE = 0x52
const SLOAD = 0x54
const SSTORE = 0x55
const LOG0 = 0xa0
const EMPTY = new Uint8Array(0)

/** `value` (a stack word, below 2^256) as 32 big-endian bytes: what ethereumjs' `setLengthLeft(bigIntToBytes(value), 32)` gives. */
export function word(value: bigint): Uint8Array {
  return bigIntToBytes(value, 32)
}

/** LOG0–LOG4: ethereumjs' one function for the five opcodes, its topics through {@link word}. */
const log: Handler = (runState) => {
  const [memOffset, memLength] = runState.stack.popN(2) as [bigint, bigint]
  const topicsCount = runState.opCode - LOG0
  const topics = runState.stack.popN(topicsCount).map(word)
  // A copy: the log keeps its data after the frame's memory changes.
  const data = memLength === 0n ? EMPTY : runState.memory.read(Number(memOffset), Number(memLength))
  runState.interpreter.log(data, topicsCount, topics)
}

const handlers: Record<number, Handler> = {
  [KECCAK256]: (runState, common) => {
    const [offset, length] = runState.stack.popN(2) as [bigint, bigint]
    // A view of memory, not a copy: the hash reads it at once and keeps nothing.
    const data = length === 0n ? EMPTY : runState.memory.read(Number(offset), Number(length), true)
    runState.stack.push(bytesToBigInt((common.customCrypto.keccak256 ?? keccak_256)(data)))
  },
  [CALLDATALOAD]: (runState) => {
    const pos = runState.stack.pop()
    if (pos > runState.interpreter.getCallDataSize()) {
      runState.stack.push(0n)
      return
    }
    const i = Number(pos)
    const loaded = runState.interpreter.getCallData().subarray(i, i + 32)
    // Past the end of the call data reads zeros: the word is the bytes there, shifted left.
    const value = bytesToBigInt(loaded)
    runState.stack.push(loaded.length < 32 ? value << BigInt(8 * (32 - loaded.length)) : value)
  },
  [MLOAD]: (runState) => {
    const pos = runState.stack.pop()
    runState.stack.push(bytesToBigInt(runState.memory.read(Number(pos), 32, true)))
  },
  [MSTORE]: (runState) => {
    const [offset, value] = runState.stack.popN(2) as [bigint, bigint]
    runState.memory.write(Number(offset), 32, word(value))
  },
  [SLOAD]: async (runState) => {
    const key = runState.stack.pop()
    const value = await runState.interpreter.storageLoad(word(key))
    runState.stack.push(value.length === 0 ? 0n : bytesToBigInt(value))
  },
  [SSTORE]: async (runState) => {
    const [key, value] = runState.stack.popN(2) as [bigint, bigint]
    await runState.interpreter.storageStore(word(key), bigIntToMinimalBytes(value))
  },
}

/** The opcodes whose logic functions are replaced, by their names in ethereumjs' table. */
const NAMES: Record<number, string> = {
  [KECCAK256]: 'KECCAK256',
  [CALLDATALOAD]: 'CALLDATALOAD',
  [MLOAD]: 'MLOAD',
  [MSTORE]: 'MSTORE',
  [SLOAD]: 'SLOAD',
  [SSTORE]: 'SSTORE',
  [LOG0]: 'LOG',
  [LOG0 + 1]: 'LOG',
  [LOG0 + 2]: 'LOG',
  [LOG0 + 3]: 'LOG',
  [LOG0 + 4]: 'LOG',
}

/**
 * Replaces the logic functions of KECCAK256, CALLDATALOAD, MLOAD, MSTORE, SLOAD, SSTORE
 * and LOG0–LOG4 in `evm`'s opcode table. Returns false, changing nothing, when EIP-8037
 * is active or the table does not have the shape of @ethereumjs/evm 10.1.3's. A
 * hardfork change rebuilds the table with ethereumjs' own functions (correct, only slower).
 */
export function installWordOpcodes(evm: EVM): boolean {
  const table = (evm as unknown as { _opcodeMap?: Array<{ opHandler?: Handler; opcodeInfo?: { name?: string } } | undefined> })._opcodeMap
  if (evm.common.isActivatedEIP(8037) || table === undefined) return false
  const codes = Object.keys(NAMES).map(Number)
  for (const code of codes) {
    const entry = table[code]
    if (entry === undefined || typeof entry.opHandler !== 'function' || entry.opcodeInfo?.name !== NAMES[code]) return false
  }
  for (const code of codes) table[code]!.opHandler = code >= LOG0 ? log : handlers[code]!
  return true
}
