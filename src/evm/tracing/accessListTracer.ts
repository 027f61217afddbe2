/**
 * The tracer behind eth_createAccessList, as go-ethereum's
 * `logger.AccessListTracer` (eth/tracers/logger/access_list_tracer.go): the storage
 * slots each contract reads or writes (SLOAD, SSTORE: the executing contract's, the
 * caller's under DELEGATECALL), and the addresses the call's code touches (BALANCE,
 * EXTCODE*, SELFDESTRUCT: the address on top of the stack; the CALL family: the
 * callee, second on the stack), less the excluded ones (sender, recipient,
 * precompiles) unless a slot of theirs was touched. Not a named tracer of the
 * registry: go-ethereum does not register its own either.
 */
import type { ExecutionOutcome } from '../execution.ts'
import { gethErrorText, listen, type EvmEvents, type StepEvent, type Tracer } from './tracer.ts'

/** What the tracer answers: entries in the order first touched (address, slots as 32-byte hex), the call's gas used after refunds, and go-ethereum's error text of a failed call. */
export interface AccessListTrace {
  accessList: { address: `0x${string}`; storageKeys: `0x${string}`[] }[]
  gasUsed: bigint
  error: string | undefined
}

const SLOT_OPS = new Set(['SLOAD', 'SSTORE'])
const ADDRESS_OPS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT'])
const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

const hexOf = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`
const word = (value: bigint, bytes: number): `0x${string}` =>
  `0x${value
    .toString(16)
    .padStart(bytes * 2, '0')
    .slice(-bytes * 2)}`

/** An access-list tracer that leaves out `excluded` (lowercase 0x addresses) where only the address was touched. */
export function accessListTracer(excluded: ReadonlySet<string>): Tracer<AccessListTrace> {
  // Insertion-ordered: address -> its slots.
  const list = new Map<`0x${string}`, Set<`0x${string}`>>()
  const slotsOf = (address: `0x${string}`): Set<`0x${string}`> => {
    let slots = list.get(address)
    if (slots === undefined) {
      slots = new Set()
      list.set(address, slots)
    }
    return slots
  }
  const step = (event: StepEvent): void => {
    const op = event.opcode.name
    const stack = event.stack
    if (SLOT_OPS.has(op) && stack.length >= 1) slotsOf(hexOf(event.address.bytes)).add(word(stack[stack.length - 1]!, 32))
    else if (ADDRESS_OPS.has(op) && stack.length >= 1) {
      const address = word(stack[stack.length - 1]!, 20)
      if (!excluded.has(address)) slotsOf(address)
    } else if (CALL_OPS.has(op) && stack.length >= 5) {
      const address = word(stack[stack.length - 2]!, 20)
      if (!excluded.has(address)) slotsOf(address)
    }
  }
  return {
    attach: (events: EvmEvents) => listen(events, { step, beforeMessage: () => {}, afterMessage: () => {} }),
    result: (outcome: ExecutionOutcome) => ({
      accessList: [...list].map(([address, slots]) => ({ address, storageKeys: [...slots] })),
      gasUsed: outcome.gasUsed,
      error: outcome.error === undefined ? undefined : gethErrorText(outcome.error.kind),
    }),
  }
}
