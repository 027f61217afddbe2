/**
 * One execution record per transaction: what the REST smart-code events and the
 * JSON-RPC receipts and logs are both rendered from (reference §1.4.6, §6.4).
 */
import type { RawLog } from '../evm/transferLogs.ts'
import type { NativeNotify } from '../native/tokenContract.ts'

export type { NativeNotify }

/** Execution record of one included transaction. */
export interface ExecutionRecord {
  /** 1 success, 0 failure (REST State, receipt status). */
  readonly state: 0 | 1
  /** Gas used: EVM gas after refunds for EIP-155 transactions (GasStepUsed, receipt gasUsed). */
  readonly gasUsed: bigint
  /** Fee in gas-token v1 units (1e-9): GasConsumed (reference §1.4.6). */
  readonly gasConsumed: bigint
  /** Gas used by this and the earlier EVM transactions of the block (standard cumulativeGasUsed). */
  readonly cumulativeGasUsed: bigint
  /** EVM logs in order, synthetic Transfer logs included. */
  readonly logs: readonly RawLog[]
  /** Block-wide index of the first log (logIndex is block-wide, the Ethereum standard). */
  readonly firstLogIndex: number
  /** Contract created by the transaction, 20 bytes. */
  readonly contractAddress: Uint8Array | undefined
  /** Revert data or return data of the top-level frame. */
  readonly returnValue: Uint8Array
  /** Notifications of native contracts, in order (native transactions; reference §1.4.6). */
  readonly notify: readonly NativeNotify[]
}
