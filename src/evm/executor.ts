/**
 * EVM execution against the ledger (architecture: evm/). The facade the chain holds:
 * cheap to create, it loads the EVM ({@link EvmEngine}, @ethereumjs/evm and friends)
 * on the first execution, so that a devnet answers its first requests without
 * paying for the EVM's imports. One engine serves every execution; the chain
 * serialises them.
 */
import type { WorldState } from '../chain/state/worldState.ts'
import type { RawLog } from './transferLogs.ts'
import type { EvmEngine } from './engine.ts'
import type { LegacyTransaction } from './legacyTransaction.ts'

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
  world: WorldState
  /** Raw native hash of the block at `height`, for BLOCKHASH (reference §6.3). */
  blockHash(height: number): Uint8Array | undefined
}

/** The chain's EVM hardfork (reference §6.3). */
const CHAIN_HARDFORK = 'istanbul'

/** Runs transactions and calls on the one EVM, loaded on first use. Not re-entrant: callers serialise. */
export class EvmExecutor {
  /** EIP-155 chain id. */
  readonly chainId: bigint
  readonly #options: EvmExecutorOptions
  #engine: EvmEngine | undefined
  #loading: Promise<EvmEngine> | undefined

  private constructor(options: EvmExecutorOptions) {
    this.chainId = BigInt(options.chainId)
    this.#options = options
  }

  /**
   * The executor for `options`. Loads nothing for the chain's own hardfork; another
   * hardfork name is checked against @ethereumjs/common now (throws `Error` for an
   * unknown one), so that a typo fails at creation, not at the first transaction.
   */
  static async create(options: EvmExecutorOptions): Promise<EvmExecutor> {
    if (options.hardfork !== CHAIN_HARDFORK) {
      const { Hardfork } = await import('@ethereumjs/common')
      if (!Object.values(Hardfork).includes(options.hardfork as never)) {
        throw new Error(`unknown hardfork "${options.hardfork}"; expected one of ${Object.values(Hardfork).join(', ')}`)
      }
    }
    return new EvmExecutor(options)
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

  #load(): Promise<EvmEngine> {
    this.#loading ??= import('./engine.ts').then(async ({ EvmEngine }) => {
      this.#engine = await EvmEngine.create(this.#options)
      return this.#engine
    })
    return this.#loading
  }
}
