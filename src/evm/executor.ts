/**
 * EVM execution against the ledger (architecture: evm/). The facade the chain holds:
 * cheap to create, it loads the EVM ({@link EvmEngine}, @ethereumjs/evm and friends)
 * on the first execution, so that a devnet answers its first requests without
 * paying for the EVM's imports. One engine serves every execution; the chain
 * serialises them.
 */
import type { EvmEngine } from './engine.ts'
import type { CallRequest, EvmExecutorOptions, EvmWorld, ExecutionContext, ExecutionOutcome } from './execution.ts'
import type { LegacyTransaction } from './legacyTransaction.ts'
import type { CoverageSource } from './coverage.ts'
import type { GasUsageSource } from './gasUsage.ts'
import { ExecutionAbortedError } from './pacer.ts'
import { evmPatchesWanted } from './patches/switch.ts'
import { ISTANBUL_GAS_RULES, requiredGasAbove, transactionGasRules, type TransactionGasRules } from './transactionGas.ts'

export type { CodeCoverage, CoverageSource } from './coverage.ts'
export { CoverageRecorder } from './coverage.ts'
export type { CodeGasUsage, GasUsageSource } from './gasUsage.ts'
export { GasUsageRecorder } from './gasUsage.ts'
export type { BlockEnvironment, CallRequest, EvmExecutorOptions, EvmWorld, ExecutionContext, ExecutionError, ExecutionOutcome, HeaderOverrides } from './execution.ts'
export { CHAIN_BLOCK_ENVIRONMENT } from './execution.ts'

/** The chain's EVM hardfork (reference §6.3). */
const CHAIN_HARDFORK = 'istanbul'

/** Runs transactions and calls on the one EVM, loaded on first use. Not re-entrant: callers serialise. */
export class EvmExecutor {
  /** EIP-155 chain id. */
  readonly chainId: bigint
  readonly #options: EvmExecutorOptions
  /** Aborted by {@link abort}: every simulation and replay stops at its next pacing check. */
  readonly #stop = new AbortController()
  #engine: EvmEngine | undefined
  #loading: Promise<EvmEngine> | undefined

  /** The hardfork's name as @ethereumjs/common spells it (the chain's: `istanbul`). */
  readonly hardfork: string
  /** EIP-1559 is active: BASEFEE exists (London and later). */
  readonly hasBaseFee: boolean
  /** The hardfork is post-merge (Paris and later): opcode 0x44 is PREVRANDAO, not DIFFICULTY. */
  readonly hasPrevRandao: boolean
  /** EIP-4844 is active (Cancun and later): BLOBBASEFEE exists. */
  readonly hasBlobBaseFee: boolean
  /** The hardfork's rules for the gas a transaction owes before it runs (transactionGas.ts). */
  readonly #gasRules: TransactionGasRules

  private constructor(options: EvmExecutorOptions, features: { hasBaseFee: boolean; hasPrevRandao: boolean; hasBlobBaseFee: boolean; gasRules: TransactionGasRules }) {
    this.chainId = BigInt(options.chainId)
    // The patches' switch is read once, so that the replay engines built later match the main one.
    this.#options = { ...options, evmPatches: evmPatchesWanted(options.evmPatches) }
    this.hardfork = options.hardfork
    this.hasBaseFee = features.hasBaseFee
    this.hasPrevRandao = features.hasPrevRandao
    this.hasBlobBaseFee = features.hasBlobBaseFee
    this.#gasRules = features.gasRules
  }

  /**
   * The executor for `options`. Loads nothing for the chain's own hardfork; another
   * hardfork name is checked against @ethereumjs/common now (throws `Error` for an
   * unknown one), so that a typo fails at creation, not at the first transaction, and
   * its features (BASEFEE, PREVRANDAO) are read from it.
   */
  static async create(options: EvmExecutorOptions): Promise<EvmExecutor> {
    if (options.hardfork === CHAIN_HARDFORK) return new EvmExecutor(options, { hasBaseFee: false, hasPrevRandao: false, hasBlobBaseFee: false, gasRules: ISTANBUL_GAS_RULES })
    const { Common, Hardfork, Mainnet } = await import('@ethereumjs/common')
    if (!Object.values(Hardfork).includes(options.hardfork as never)) {
      throw new Error(`unknown hardfork "${options.hardfork}"; expected one of ${Object.values(Hardfork).join(', ')}`)
    }
    const common = new Common({ chain: Mainnet, hardfork: options.hardfork })
    return new EvmExecutor(options, {
      hasBaseFee: common.isActivatedEIP(1559),
      hasPrevRandao: common.isActivatedEIP(4399),
      hasBlobBaseFee: common.isActivatedEIP(4844),
      gasRules: transactionGasRules(common),
    })
  }

  /**
   * The least gas limit a transaction to `to` (undefined: a creation) with `data` can
   * run with under the hardfork, when `gasLimit` is below it, else `undefined`: its
   * intrinsic gas, or EIP-7623's calldata floor on Prague where that is higher
   * (transactionGas.ts `requiredGasAbove`). Loads nothing.
   */
  requiredGasAbove(gasLimit: bigint, to: Uint8Array | undefined, data: Uint8Array): bigint | undefined {
    return requiredGasAbove(gasLimit, to, data, this.#gasRules)
  }

  /**
   * Executes a signed transaction and commits its effects into the world state at
   * `ctx.readHeight` (the block being built). Throws only when the transaction cannot
   * run at all (the pool's checks should have caught that); execution failures are an
   * outcome with status 0.
   */
  async executeTransaction(tx: LegacyTransaction, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    return (this.#engine ?? (await this.#load())).executeTransaction(tx, ctx)
  }

  /**
   * Simulates `call` against the state as of `ctx.readHeight` and discards every
   * effect. Throws (with the EVM's text) when the call cannot run at all, e.g. the
   * sender cannot pay `value`.
   */
  async simulate(call: CallRequest, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    return (this.#engine ?? (await this.#load())).simulate(call, ctx)
  }

  /**
   * The coverage the devnet's executions recorded (coverage.ts), when the executor was
   * made with a `coverageRecorder`; undefined otherwise.
   */
  get coverage(): CoverageSource | undefined {
    return this.#options.coverageRecorder
  }

  /** The gas usage of mined transactions (gasUsage.ts), when the executor was made with a `gasUsageRecorder`; undefined otherwise. */
  get gasUsage(): GasUsageSource | undefined {
    return this.#options.gasUsageRecorder
  }

  /** The signal {@link abort} fires; replays (debug_trace*) run under it too. */
  get signal(): AbortSignal {
    return this.#stop.signal
  }

  /**
   * Stops every running and later simulation and replay within one pacing check
   * (a few ms): they throw {@link ExecutionAbortedError}. Mined transactions are not
   * stopped (they are bounded by their gas and finish). For `devnet.close()`.
   */
  abort(): void {
    if (!this.#stop.signal.aborted) this.#stop.abort(new ExecutionAbortedError('the devnet is closing'))
  }

  /**
   * A second engine, over `world` (an overlay for a replay), with the same chain id,
   * hardfork and BLOCKHASH source and no console capture: tracers attach their step
   * listeners to its EVM, so the devnet's own EVM never carries one.
   */
  async replayEngine(world: EvmWorld): Promise<EvmEngine> {
    const { EvmEngine } = await import('./engine.ts')
    return EvmEngine.create({ ...this.#options, world, console: false, signal: this.#stop.signal, coverageRecorder: undefined, gasUsageRecorder: undefined })
  }

  #load(): Promise<EvmEngine> {
    this.#loading ??= import('./engine.ts').then(async ({ EvmEngine }) => {
      this.#engine = await EvmEngine.create({ ...this.#options, signal: this.#stop.signal })
      return this.#engine
    })
    return this.#loading
  }
}
