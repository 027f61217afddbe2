/**
 * The synthetic gas-token Transfer logs the real node adds to EVM executions
 * (reference §6.4; vm/evm/evm.go `MakeOngTransferLog`): every successful value
 * movement of a CALL or CREATE frame, in execution order (before the callee's own
 * logs, dropped with a reverted frame), every SELFDESTRUCT payout (vm/evm/instructions.go
 * `opSuicide`: from the contract to the beneficiary, where the opcode runs, dropped
 * with a reverted frame), and the fee, always last, also for failed transactions.
 * Zero amounts log nothing.
 */
import type { EVM, Message, EVMResult } from '@ethereumjs/evm'
import { GAS_TOKEN_ADDRESS, GOVERNANCE_ADDRESS } from '../core/constants.ts'
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
 * Appends the fee's Transfer log (`from` to governance, `fee` wei) to `logs`: last, as
 * the node's ApplyMessage emits it after the execution's own logs (reference §6.4),
 * also for a failed transaction; nothing for a zero fee. Mined transactions and
 * pre-executions (CallRequest.feeLog) both end with it.
 */
export function appendFeeLog(logs: RawLog[], from: Uint8Array, fee: bigint): void {
  if (fee > 0n) logs.push(gasTransferLog(from, GOVERNANCE_ADDRESS, fee))
}

/**
 * Makes `evm` prepend a Transfer log to every successful frame that moved value,
 * so that the log lands before the frame's own logs and vanishes with a reverted
 * frame, as on the real node. DELEGATECALL and CALLCODE move no value there. Also
 * makes its SELFDESTRUCT log the payout ({@link logSelfdestructPayouts}).
 */
export function emitValueTransferLogs(evm: EVM): void {
  logSelfdestructPayouts(evm)
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
    if (message.depth > 0 && message.to !== undefined && message.codeAddress !== undefined && !message.codeAddress.equals(message.to) && message.caller.equals(message.to)) return
    const log = gasTransferLog(message.caller.bytes, to.bytes, message.value)
    result.execResult.logs = [log, ...(result.execResult.logs ?? [])]
  })
}

/** The parts of ethereumjs' run state the SELFDESTRUCT wrapper reads. */
interface SelfdestructRunState {
  stack: { peek(num?: number): bigint[] }
  interpreter: {
    _env: { address: { bytes: Uint8Array }; contract: { balance: bigint } }
    _result: { logs: RawLog[] }
  }
}

type OpcodeEntry = { opHandler?: (runState: SelfdestructRunState, common: unknown) => Promise<void>; opcodeInfo?: { name?: string } }

const SELFDESTRUCT = 0xff
const ADDRESS_MASK = (1n << 160n) - 1n

/**
 * Wraps the SELFDESTRUCT logic function of `evm`'s opcode table so that, when the
 * contract holds a balance, the Transfer log of its payout (contract → beneficiary)
 * joins the frame's logs where the opcode runs, as the real node's `opSuicide` does
 * (reference §6.4): in order with the contract's own logs, and dropped with them when
 * the frame or a parent reverts (ethereumjs clears a failed frame's logs). Only this
 * EVM's table changes; the gas function stays ethereumjs'. One comparison per
 * SELFDESTRUCT, nothing on other opcodes. Leaves a table without a SELFDESTRUCT
 * entry of ethereumjs' shape unchanged.
 */
function logSelfdestructPayouts(evm: EVM): void {
  const entry = (evm as unknown as { _opcodeMap?: Array<OpcodeEntry | undefined> })._opcodeMap?.[SELFDESTRUCT]
  const original = entry?.opHandler
  if (entry === undefined || typeof original !== 'function' || entry.opcodeInfo?.name !== 'SELFDESTRUCT') return
  entry.opHandler = async (runState, common) => {
    const { _env: env, _result: result } = runState.interpreter
    const balance = env.contract.balance
    if (balance > 0n) {
      const beneficiary = bigIntToBytes(runState.stack.peek(1)[0]! & ADDRESS_MASK, 20)
      result.logs.push(gasTransferLog(env.address.bytes, beneficiary, balance))
    }
    return original(runState, common)
  }
}

function pad32(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(address, 32 - address.length)
  return out
}
