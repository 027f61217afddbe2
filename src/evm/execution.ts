/**
 * The vocabulary of EVM execution shared by the executor, the engine and the chain:
 * what an execution is given and what it gives back.
 */
import type { WorldState } from '../state/worldState.ts'

/**
 * The world-state operations the EVM's state manager uses: the devnet's
 * {@link WorldState}, or an overlay on it (the replays of debug_traceTransaction).
 */
export type EvmWorld = Pick<WorldState, 'getAccount' | 'setAccount' | 'getStorage' | 'setStorage' | 'clearStorage' | 'getCodeByHash' | 'putCode'>
import type { RawLog } from './transferLogs.ts'

/** Block fields the EVM sees (reference §6.3: COINBASE 0, DIFFICULTY 0, GASLIMIT 2^64-1). */
export interface ExecutionContext {
  /** Height the state is read at (the block being built, or the block a call targets). */
  readHeight: number
  /** NUMBER opcode. */
  number: number
  /** TIMESTAMP opcode, Unix seconds. */
  timestamp: number
}

/** How an execution failed, in the terms clients expect. */
export interface ExecutionError {
  /** `revert` for REVERT, else the EVM's error text (`out of gas`, `invalid opcode`, …). */
  kind: string
  /** Human-readable message (names the opcode for opcodes of later hardforks). */
  message: string
}

/** Outcome of one execution. Amounts in wei, gas in gas units. */
export interface ExecutionOutcome {
  /** 1 success, 0 failure. */
  status: 0 | 1
  /** Gas used after refunds (receipt gasUsed). */
  gasUsed: bigint
  /** Logs in order, synthetic Transfer logs included. */
  logs: RawLog[]
  /** Address created by a successful creation. */
  contractAddress: Uint8Array | undefined
  /** Return data, or revert data on failure. */
  returnValue: Uint8Array
  /** Set on failure. */
  error: ExecutionError | undefined
  /** Fee charged, gasUsed × gasPrice, in wei. */
  fee: bigint
  /**
   * Call data of the console.log calls made, in order (selector included), reverted
   * frames included; only with the `console` option and when there was at least one.
   */
  consoleCalls?: Uint8Array[] | undefined
}

/** A call to simulate (eth_call, eth_estimateGas): amounts in wei. */
export interface CallRequest {
  from: Uint8Array
  to: Uint8Array | undefined
  data: Uint8Array
  value: bigint
  gasLimit: bigint
  gasPrice: bigint
}

/** Options of {@link EvmExecutor.create}. */
export interface EvmExecutorOptions {
  chainId: number
  /** Hardfork name as @ethereumjs/common spells it; the chain's is `istanbul`. */
  hardfork: string
  world: EvmWorld
  /** Raw native hash of the block at `height`, for BLOCKHASH (reference §6.3). */
  blockHash(height: number): Uint8Array | undefined
  /** Capture console.log calls into {@link ExecutionOutcome.consoleCalls}; default false (no listener, no cost). */
  console?: boolean
  /** Simulations on the engine stop when it aborts (pacer.ts; the executor's, fired by `devnet.close()`). */
  signal?: AbortSignal
}
