/**
 * The synthetic gas-token Transfer logs the real node adds to EVM executions
 * (reference §6.4; vm/evm/evm.go `MakeOngTransferLog`): every successful value
 * movement of a CALL or CREATE frame, in execution order (before the callee's own
 * logs, dropped with a reverted frame), every SELFDESTRUCT payout (vm/evm/instructions.go
 * `opSuicide`: from the contract to the beneficiary, where the opcode runs, dropped
 * with a reverted frame), and the fee, always last, also for failed transactions.
 * Zero amounts log nothing.
 */
import type { Common } from '@ethereumjs/common'
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

/** What is read of @ethereumjs/evm's public exports: the opcode table of a hardfork, and the gas parameters the EVM gives its Common. */
export interface OpcodeSource {
  getOpcodesForHF(common: Common): {
    opcodes: Map<number, { name: string; fee: number }>
    handlers: Map<number, SelfdestructLogic>
    dynamicGasHandlers: Map<number, unknown>
  }
  paramsEVM: unknown
}

/** The run state a SELFDESTRUCT logic function gets, as far as the payout reads it (public fields and methods of ethereumjs' `RunState` and `Interpreter`). */
interface SelfdestructRunState {
  stack: { peek(num?: number): bigint[] }
  interpreter: { getAddress(): { bytes: Uint8Array }; getSelfBalance(): bigint }
}

type SelfdestructLogic = (runState: SelfdestructRunState, common: Common) => Promise<void> | void

const SELFDESTRUCT = 0xff
const ADDRESS_MASK = (1n << 160n) - 1n

/** The gas-token Transfer logs of one EVM: the option its constructor takes, and the listeners to attach once it exists. */
export interface TransferLogs {
  /** For the EVM's `customOpcodes` option: SELFDESTRUCT, noting its payout. */
  customOpcodes: Array<{ opcode: number; opcodeName: string; baseFee: number; gasFunction: unknown; logicFunction: SelfdestructLogic }>
  /** Places the logs of `evm` (built with {@link customOpcodes}): value transfers first in their frame, payouts last. */
  attach(evm: EVM): void
}

/**
 * The Transfer logs of value movements (reference §6.4) on one EVM, through the
 * extension points @ethereumjs/evm supports: its `beforeMessage`/`afterMessage` events
 * and its `customOpcodes` option.
 *
 * A successful frame that moved value gets the Transfer log first, before its own
 * logs; DELEGATECALL and CALLCODE move no value there. SELFDESTRUCT is ethereumjs' own
 * (logic, gas function and base fee, taken from `getOpcodesForHF` for `common`, after
 * giving `common` the EVM's parameters as the EVM's constructor does), with
 * one step before it: when the contract holds a balance it notes the payout's log
 * (contract → beneficiary) for its frame, and the frame's `afterMessage` appends it.
 * SELFDESTRUCT ends its frame, so the end of the frame's logs is where the real node's
 * `opSuicide` emits it (reference §6.4): after the contract's own logs and its
 * callees'. A failed frame's logs are dropped by ethereumjs, the payout's with them.
 * Costs one comparison per frame and nothing on other opcodes. The base fee is fixed at
 * `common`'s hardfork (the devnet's EVM keeps one for its life).
 *
 * Throws when `getOpcodesForHF` has no SELFDESTRUCT of the shape this was written for
 * (a logic function, a gas function, the name): without it the payout logs would be
 * missing with nothing said.
 */
export function transferLogs(common: Common, source: OpcodeSource): TransferLogs {
  // The table reads the opcodes' gas from `common`, which the EVM's constructor gives these same parameters.
  common.updateParams(source.paramsEVM as never)
  const { opcodes, handlers, dynamicGasHandlers } = source.getOpcodesForHF(common)
  const info = opcodes.get(SELFDESTRUCT)
  const logic = handlers.get(SELFDESTRUCT)
  const gasFunction = dynamicGasHandlers.get(SELFDESTRUCT)
  if (info?.name !== 'SELFDESTRUCT' || typeof logic !== 'function' || typeof gasFunction !== 'function') {
    throw new Error("dualnet: @ethereumjs/evm's opcode table has no SELFDESTRUCT of the shape the payout log was written for (getOpcodesForHF: name, logic and gas function)")
  }
  /** The messages of the open frames, outermost first. */
  const frames: Message[] = []
  /** The payout log noted by each open frame's SELFDESTRUCT, at the frame's index in `frames`. */
  const payouts: Array<RawLog | undefined> = []
  const logicFunction: SelfdestructLogic = (runState, runCommon) => {
    const balance = runState.interpreter.getSelfBalance()
    const frame = frames.length - 1
    if (balance > 0n && frame >= 0) {
      const beneficiary = bigIntToBytes(runState.stack.peek(1)[0]! & ADDRESS_MASK, 20)
      payouts[frame] = gasTransferLog(runState.interpreter.getAddress().bytes, beneficiary, balance)
    }
    return logic(runState, runCommon)
  }
  return {
    customOpcodes: [{ opcode: SELFDESTRUCT, opcodeName: 'SELFDESTRUCT', baseFee: info.fee, gasFunction, logicFunction }],
    attach(evm) {
      evm.events.on('beforeMessage', (message: Message) => {
        frames.push(message)
      })
      evm.events.on('afterMessage', (result: EVMResult) => {
        const message = frames.pop()
        const payout = payouts[frames.length]
        if (payout !== undefined) payouts[frames.length] = undefined
        if (message === undefined || result.execResult.exceptionError !== undefined) return
        if (payout !== undefined) result.execResult.logs = [...(result.execResult.logs ?? []), payout]
        if (message.value === 0n || message.delegatecall) return
        const to = message.to ?? result.createdAddress
        if (to === undefined) return
        // CALLCODE runs in the caller's own context: the caller is also the recipient.
        if (message.depth > 0 && message.to !== undefined && message.codeAddress !== undefined && !message.codeAddress.equals(message.to) && message.caller.equals(message.to)) return
        const log = gasTransferLog(message.caller.bytes, to.bytes, message.value)
        result.execResult.logs = [log, ...(result.execResult.logs ?? [])]
      })
    },
  }
}

function pad32(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(address, 32 - address.length)
  return out
}
