/**
 * The synthetic gas-token Transfer logs the real node adds to EVM executions
 * (reference §6.4; vm/evm/evm.go `MakeOngTransferLog`): every successful value
 * movement of a CALL or CREATE frame, in execution order (before the callee's own
 * logs, dropped with a reverted frame), and the fee, always last, also for failed
 * transactions. Zero amounts log nothing.
 */
import type { EVM, Message, EVMResult } from '@ethereumjs/evm'
import { GAS_TOKEN_ADDRESS } from '../core/constants.ts'
import { keccak256 } from '../util/hash.ts'
import { bigIntToBytes } from '../util/hex.ts'

/** An EVM log as ethereumjs holds it: [address, topics, data]. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array]

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = keccak256(new TextEncoder().encode('Transfer(address,address,uint256)'))

/** The Transfer log of `amount` wei from `from` to `to`, emitted by the gas-token address 0x…02. */
export function gasTransferLog(from: Uint8Array, to: Uint8Array, amount: bigint): RawLog {
  return [GAS_TOKEN_ADDRESS, [TRANSFER_TOPIC, pad32(from), pad32(to)], bigIntToBytes(amount, 32)]
}

/**
 * Makes `evm` prepend a Transfer log to every successful frame that moved value,
 * so that the log lands before the frame's own logs and vanishes with a reverted
 * frame, as on the real node. DELEGATECALL and CALLCODE move no value there.
 */
export function emitValueTransferLogs(evm: EVM): void {
  const frames: Message[] = []
  evm.events.on('beforeMessage', (message: Message) => {
    frames.push(message)
  })
  evm.events.on('afterMessage', (result: EVMResult) => {
    const message = frames.pop()
    if (message === undefined || message.value === 0n || message.delegatecall) return
    if (result.execResult.exceptionError !== undefined) return
    const to = message.to ?? result.createdAddress
    if (to === undefined) return
    // CALLCODE runs in the caller's own context: the caller is also the recipient.
    if (message.depth > 0 && message.to !== undefined && message.codeAddress !== undefined &&
        !message.codeAddress.equals(message.to) && message.caller.equals(message.to)) return
    const log = gasTransferLog(message.caller.bytes, to.bytes, message.value)
    result.execResult.logs = [log, ...(result.execResult.logs ?? [])]
  })
}

function pad32(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(address, 32 - address.length)
  return out
}
