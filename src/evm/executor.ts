/**
 * EVM execution with @ethereumjs/vm against the ledger (architecture: evm/).
 * One VM and one state manager serve every execution; the chain serialises them.
 */
import { createBlock, type Block as EthjsBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common'
import type { LegacyTx } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { createVM, runTx, type VM } from '@ethereumjs/vm'
import type { EVM } from '@ethereumjs/evm'
import { EVM_BLOCK_GAS_LIMIT, GOVERNANCE_ADDRESS, ZERO_ADDRESS } from '../chain/constants.ts'
import type { WorldState } from '../chain/state/worldState.ts'
import { toHexRaw } from '../util/hex.ts'
import { nativeCrypto } from './nativeSecp256k1.ts'
import { LedgerStateManager } from './stateManager.ts'
import { emitValueTransferLogs, gasTransferLog, type RawLog } from './transferLogs.ts'
import { unsupportedOpcodeMessage } from './unsupportedOpcodes.ts'

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

const ZERO = new Address(ZERO_ADDRESS)

/** Runs transactions and calls on the one VM. Not re-entrant: callers serialise. */
export class EvmExecutor {
  readonly common: Common
  readonly #vm: VM
  readonly #state: LedgerStateManager
  readonly #hardfork: string
  readonly #template: EthjsBlock

  private constructor(common: Common, vm: VM, state: LedgerStateManager, hardfork: string) {
    this.common = common
    this.#vm = vm
    this.#state = state
    this.#hardfork = hardfork
    this.#template = createBlock(
      { header: { number: 0n, timestamp: 0n, gasLimit: EVM_BLOCK_GAS_LIMIT, coinbase: ZERO, difficulty: 0n } },
      { common, freeze: false, skipConsensusFormatValidation: true },
    )
  }

  /** Builds the VM. Throws if `hardfork` is unknown to @ethereumjs/common. */
  static async create(options: EvmExecutorOptions): Promise<EvmExecutor> {
    if (!Object.values(Hardfork).includes(options.hardfork as Hardfork)) {
      throw new Error(`unknown hardfork "${options.hardfork}"; expected one of ${Object.values(Hardfork).join(', ')}`)
    }
    const common = createCustomCommon({ chainId: options.chainId, name: 'dualnet' }, Mainnet, {
      hardfork: options.hardfork,
      customCrypto: nativeCrypto,
    })
    const state = new LedgerStateManager(options.world)
    const blockchain = {
      async getBlock(height: number) {
        const hash = options.blockHash(height) ?? new Uint8Array(32)
        return { hash: () => hash }
      },
      async putBlock() {},
      shallowCopy() {
        return blockchain
      },
    }
    const vm = await createVM({ common, stateManager: state, blockchain })
    emitValueTransferLogs(vm.evm as EVM)
    return new EvmExecutor(common, vm, state, options.hardfork)
  }

  /** The state manager, for ledger-level adjustments inside an execution. */
  get state(): LedgerStateManager {
    return this.#state
  }

  /**
   * Executes a signed transaction and commits its effects into the world state at
   * `ctx.readHeight` (the block being built). Throws only when the transaction cannot
   * run at all (the pool's checks should have caught that); execution failures are an
   * outcome with status 0.
   */
  async executeTransaction(tx: LegacyTx, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    this.#state.reset(ctx.readHeight)
    try {
      const outcome = await this.#run(tx, ctx, tx.getSenderAddress().bytes)
      this.#state.commitTo(ctx.readHeight)
      return outcome
    } catch (err) {
      this.#state.reset(ctx.readHeight)
      throw err
    }
  }

  /**
   * Simulates `call` against the state as of `ctx.readHeight` and discards every
   * effect. Throws (with the EVM's text) when the call cannot run at all, e.g. the
   * sender cannot pay `value`.
   */
  async simulate(call: CallRequest, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    this.#state.reset(ctx.readHeight)
    try {
      let outcome = await this.#runCall(call, ctx)
      if (outcome.error?.kind === 'invalid opcode') {
        this.#state.reset(ctx.readHeight)
        outcome = await this.#explainInvalidOpcode(call, ctx, outcome)
      }
      return outcome
    } finally {
      this.#state.reset(ctx.readHeight)
    }
  }

  /** Nonce of `address` as the EVM sees it at `height`. */
  nonceAt(address: Uint8Array, height: number): bigint {
    this.#state.reset(height)
    return this.#state.record(toHexRaw(address)).nonce
  }

  async #run(tx: LegacyTx, ctx: ExecutionContext, sender: Uint8Array): Promise<ExecutionOutcome> {
    const result = await runTx(this.#vm, {
      tx,
      block: this.#block(ctx),
      skipHardForkValidation: true,
      skipBlockGasLimitValidation: true,
    })
    const gasUsed = result.totalGasSpent
    const fee = gasUsed * tx.gasPrice
    const logs = result.execResult.logs ?? []
    if (fee > 0n) {
      // ethereumjs pays the fee to the block's coinbase, which must read as zero
      // (reference §6.3); the real node pays governance (0x…07), so move it there.
      const zero = toHexRaw(ZERO_ADDRESS)
      const governance = toHexRaw(GOVERNANCE_ADDRESS)
      const z = this.#state.record(zero)
      this.#state.setRecord(zero, { ...z, gas: z.gas - fee })
      const g = this.#state.record(governance)
      this.#state.setRecord(governance, { ...g, gas: g.gas + fee })
      logs.push(gasTransferLog(sender, GOVERNANCE_ADDRESS, fee))
    }
    const exception = result.execResult.exceptionError
    return {
      status: exception === undefined ? 1 : 0,
      gasUsed,
      logs,
      contractAddress: exception === undefined ? result.createdAddress?.bytes : undefined,
      returnValue: result.execResult.returnValue,
      error: exception === undefined ? undefined : { kind: exception.error, message: exception.error },
      fee,
    }
  }

  /**
   * Re-runs a call that hit an invalid opcode with a step listener, to name the
   * opcode: the failing step's program counter, read in the code that was running
   * (the init code of a top-level creation, else the code at the frame's address).
   */
  async #explainInvalidOpcode(call: CallRequest, ctx: ExecutionContext, outcome: ExecutionOutcome): Promise<ExecutionOutcome> {
    let last: { pc: number; depth: number; codeAddress: Address } | undefined
    const onStep = (step: { pc: number; depth: number; codeAddress: Address }) => {
      last = step
    }
    const evm = this.#vm.evm as EVM
    evm.events.on('step', onStep)
    let code: Uint8Array | undefined
    try {
      await this.#runCall(call, ctx)
      if (last !== undefined) {
        code = last.depth === 0 && call.to === undefined ? call.data : await this.#state.getCode(last.codeAddress)
      }
    } finally {
      evm.events.off('step', onStep)
    }
    const opcode = last === undefined ? undefined : code?.[last.pc]
    const message = opcode === undefined ? undefined : unsupportedOpcodeMessage(opcode, this.#hardfork)
    return message === undefined ? outcome : { ...outcome, error: { kind: 'invalid opcode', message } }
  }

  /**
   * A call through the EVM directly (no transaction object: building one per call
   * costs more than the call). Gas accounting as a transaction's: intrinsic gas
   * (21000, +32000 for a creation, 4/16 per zero/non-zero data byte on Istanbul),
   * then refunds capped at half the gas used.
   */
  async #runCall(call: CallRequest, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    let intrinsic = call.to === undefined ? 53_000n : 21_000n
    for (const byte of call.data) intrinsic += byte === 0 ? 4n : 16n
    const empty = { logs: [], contractAddress: undefined, returnValue: new Uint8Array(0), fee: 0n }
    if (call.gasLimit < intrinsic) {
      return { ...empty, status: 0, gasUsed: call.gasLimit, error: { kind: 'out of gas', message: 'intrinsic gas too low' } }
    }
    const evm = this.#vm.evm as EVM
    await evm.journal.cleanup()
    const caller = new Address(call.from)
    const result = await evm.runCall({
      block: this.#block(ctx),
      caller,
      origin: caller,
      to: call.to === undefined ? undefined : new Address(call.to),
      data: call.data,
      value: call.value,
      gasLimit: call.gasLimit - intrinsic,
      gasPrice: call.gasPrice,
    })
    const exec = result.execResult
    const spent = intrinsic + exec.executionGasUsed
    const refund = exec.exceptionError === undefined ? (exec.gasRefund ?? 0n) : 0n
    const gasUsed = spent - (refund < spent / 2n ? refund : spent / 2n)
    return {
      status: exec.exceptionError === undefined ? 1 : 0,
      gasUsed,
      logs: exec.logs ?? [],
      contractAddress: exec.exceptionError === undefined ? result.createdAddress?.bytes : undefined,
      returnValue: exec.returnValue,
      error: exec.exceptionError === undefined ? undefined : { kind: exec.exceptionError.error, message: exec.exceptionError.error },
      fee: 0n,
    }
  }

  /**
   * The block context of an execution. Building an ethereumjs block copies its Common
   * (costly), so one mutable block is kept and re-stamped with number and timestamp.
   */
  #block(ctx: ExecutionContext): EthjsBlock {
    const header = this.#template.header as { number: bigint; timestamp: bigint }
    header.number = BigInt(ctx.number)
    header.timestamp = BigInt(ctx.timestamp)
    return this.#template
  }
}
