/**
 * The vocabulary of EVM execution shared by the executor, the engine and the chain:
 * what an execution is given and what it gives back.
 */
import { EVM_BLOCK_GAS_LIMIT, ZERO_ADDRESS } from '../core/constants.ts'
import type { WorldState } from '../state/worldState.ts'

/**
 * The world-state operations the EVM's state manager uses: the devnet's
 * {@link WorldState}, or an overlay on it (the replays of debug_traceTransaction).
 */
export type EvmWorld = Pick<WorldState, 'getAccount' | 'setAccount' | 'getStorage' | 'setStorage' | 'clearStorage' | 'getCodeByHash' | 'putCode'>
import type { RawLog } from './transferLogs.ts'
import type { CoverageRecorder } from './coverage.ts'
import type { GasUsageRecorder } from './gasUsage.ts'

/**
 * The block fields the devnet's controls can change (hardhat_setCoinbase,
 * evm_setBlockGasLimit, hardhat_setNextBlockBaseFeePerGas, hardhat_setPrevRandao);
 * {@link CHAIN_BLOCK_ENVIRONMENT} holds the chain's own values.
 */
export interface BlockEnvironment {
  /** COINBASE opcode, 20 bytes (warm from the start under EIP-3651). */
  readonly coinbase: Uint8Array
  /** GASLIMIT opcode. */
  readonly gasLimit: bigint
  /** BASEFEE opcode in wei, where EIP-1559 is active (the opcode does not exist before London). */
  readonly baseFeePerGas: bigint
  /** PREVRANDAO (0x44) from the merge (Paris) on, 32 bytes; before it 0x44 is DIFFICULTY, always 0. */
  readonly prevRandao: Uint8Array
}

/**
 * The real node's EVM block environment (reference §6.3, evm.go): COINBASE 0,
 * GASLIMIT 2^64-1, DIFFICULTY 0; it has no base fee (go-ethereum reads a nil one as
 * 0 on a hardfork with BASEFEE) and no PREVRANDAO (zero, as DIFFICULTY).
 */
export const CHAIN_BLOCK_ENVIRONMENT: BlockEnvironment = Object.freeze({
  coinbase: ZERO_ADDRESS,
  gasLimit: EVM_BLOCK_GAS_LIMIT,
  baseFeePerGas: 0n,
  prevRandao: new Uint8Array(32),
})

/** Block fields the EVM sees (reference §6.3: COINBASE 0, DIFFICULTY 0, GASLIMIT 2^64-1). */
export interface ExecutionContext {
  /** Height the state is read at (the block being built, or the block a call targets). */
  readHeight: number
  /** NUMBER opcode. */
  number: number
  /** TIMESTAMP opcode, Unix seconds. */
  timestamp: number
  /** COINBASE, GASLIMIT, BASEFEE, PREVRANDAO; absent: {@link CHAIN_BLOCK_ENVIRONMENT}. */
  env?: BlockEnvironment | undefined
  /**
   * The header fields a simulation's block overrides set beyond {@link env} (eth_call's
   * `BlockOverrides`, chain/overrides.ts `withBlockOverrides`); absent for every other
   * execution, which sees {@link number}, {@link timestamp} and the chain's DIFFICULTY
   * (0) and BLOBBASEFEE (1 wei).
   */
  header?: HeaderOverrides | undefined
}

/**
 * Header fields of one simulation given as its block overrides (go-ethereum's
 * `override.BlockOverrides`), as the EVM reads them: each replaces the opcode's value
 * when present. Bigints, since the wire takes a uint256 NUMBER and a uint64 TIMESTAMP.
 */
export interface HeaderOverrides {
  /** NUMBER. */
  readonly number?: bigint | undefined
  /** TIMESTAMP, Unix seconds. */
  readonly timestamp?: bigint | undefined
  /** DIFFICULTY (0x44 before the merge). */
  readonly difficulty?: bigint | undefined
  /** BLOBBASEFEE in wei (EIP-7516; hardforks with EIP-4844 only). */
  readonly blobBaseFee?: bigint | undefined
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
  /**
   * The refund taken off `gasUsed` (capped as the hardfork caps it; 0 when there was
   * none); set by simulations only. eth_estimateGas's search starts from
   * gasUsed + refund, what the run spent before its refund.
   */
  refund?: bigint
  /**
   * The least gas limit with which the same run succeeds, when a simulation can tell
   * without running it again: it succeeded and nothing it ran depends on the gas left
   * (no GAS, no CALL or CREATE family). Then it is what the run spent before its refund
   * (gasUsed + refund), or more where an SSTORE would otherwise be left EIP-2200's 2,300
   * sentry or less. eth_estimateGas answers it without a search. Simulations only;
   * undefined otherwise.
   */
  leastGasLimit?: bigint
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
  /**
   * Pre-execution (REST `preExec=1`): end the logs with the fee's gas-token Transfer
   * log (sender to governance, gasUsed × gasPrice, none when 0) that the mined
   * transaction would end with, as the node's pre-execution reports it; nothing is
   * charged. Default false (eth_call, eth_estimateGas).
   */
  feeLog?: boolean
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
  /**
   * The run-time speed patches of @ethereumjs/evm (evm/patches/index.ts): default on,
   * unless the environment's `DUALNET_EVM_PATCHES` is `0`, `false` or `off` when the
   * executor is made. Off: ethereumjs as it ships, the same results, slower.
   */
  evmPatches?: boolean
  /**
   * Records the coverage of every execution on the engine (transactions, calls,
   * estimates, constructors) into this recorder (coverage.ts); absent: none, at no
   * cost. The executor makes it from its `coverage` flag; replay engines never get one
   * (a replay would count a mined transaction twice).
   */
  coverageRecorder?: CoverageRecorder | undefined
  /**
   * Records the gas of mined transactions for the gas report (gasUsage.ts); absent:
   * none, and no listener. Replay engines never get one.
   */
  gasUsageRecorder?: GasUsageRecorder | undefined
}
