/**
 * MSTORE, SLOAD and SSTORE without @ethereumjs/util's conversion helpers.
 *
 * @ethereumjs/evm 10.1.3 turns the stack word of every MSTORE, SLOAD and SSTORE into
 * bytes with `setLengthLeft(bigIntToBytes(word), 32)`: a regex-checked hex parse, then
 * padding through two array spreads, about 2 µs per opcode and the largest share of
 * @ethereumjs/util in a token transfer's profile (issue 8). These logic functions do
 * the same conversions with one hex string parsed by `Buffer` (the same bytes: the
 * word big-endian in 32 bytes; for SSTORE's value, its minimal big-endian bytes, empty
 * for zero) and otherwise what ethereumjs' do. Only the logic functions of one EVM's
 * opcode table are replaced; gas functions stay ethereumjs'. Not installed where
 * EIP-8037 (state gas in SSTORE's logic) is active.
 */
import type { EVM } from '@ethereumjs/evm'
import { bigIntToBytes, bigIntToMinimalBytes, bytesToBigInt } from '../../util/hex.ts'

/** The parts of the run state the three handlers use. */
interface RunState {
  stack: { pop(): bigint; popN(n: number): bigint[]; push(value: bigint): void }
  memory: { write(offset: number, size: number, value: Uint8Array): void }
  interpreter: {
    storageLoad(key: Uint8Array): Promise<Uint8Array>
    storageStore(key: Uint8Array, value: Uint8Array): Promise<void>
  }
}

type Handler = (runState: RunState) => unknown

const MSTORE = 0x52
const SLOAD = 0x54
const SSTORE = 0x55

/** `value` (a stack word, below 2^256) as 32 big-endian bytes: what ethereumjs' `setLengthLeft(bigIntToBytes(value), 32)` gives. */
export function word(value: bigint): Uint8Array {
  return bigIntToBytes(value, 32)
}

const handlers: Record<number, Handler> = {
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

/**
 * Replaces the logic functions of MSTORE, SLOAD and SSTORE in `evm`'s opcode table.
 * Returns false, changing nothing, when EIP-8037 is active or the table does not
 * have the shape of @ethereumjs/evm 10.1.3's. A hardfork change rebuilds the table
 * with ethereumjs' own functions (correct, only slower).
 */
export function installWordOpcodes(evm: EVM): boolean {
  const table = (evm as unknown as { _opcodeMap?: Array<{ opHandler?: Handler; opcodeInfo?: { name?: string } } | undefined> })._opcodeMap
  if (evm.common.isActivatedEIP(8037) || table === undefined) return false
  const names: Record<number, string> = { [MSTORE]: 'MSTORE', [SLOAD]: 'SLOAD', [SSTORE]: 'SSTORE' }
  for (const code of [MSTORE, SLOAD, SSTORE]) {
    const entry = table[code]
    if (entry === undefined || typeof entry.opHandler !== 'function' || entry.opcodeInfo?.name !== names[code]) return false
  }
  for (const code of [MSTORE, SLOAD, SSTORE]) table[code]!.opHandler = handlers[code]!
  return true
}
