/**
 * The EVM proper: @ethereumjs/evm over the ledger's state, with the chain's legacy
 * transaction rules applied here rather than by @ethereumjs/vm's `runTx` (which
 * copies parameters, builds receipts and blooms we do not use on every transaction).
 * Loaded on first execution by {@link EvmExecutor}, so that start-up does not pay
 * for the EVM's imports.
 */
import { Mainnet, createCustomCommon, type Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { Account, Address } from '@ethereumjs/util'
import { GOVERNANCE_ADDRESS } from '../core/constants.ts'
import { bytesEqual, fromHex, toHexRaw } from '../util/hex.ts'
import { CHAIN_BLOCK_ENVIRONMENT, type CallRequest, type EvmExecutorOptions, type ExecutionContext, type ExecutionOutcome } from './execution.ts'
import { installEvmPatches, markUnpatched, patchEvm } from './patches/index.ts'
import { installInterpreterLoop, watchGas, type GasWatch } from './patches/interpreterLoop.ts'
import { recordCoverage } from './coverage.ts'
import { watchGasFrames, type GasFrames, type GasUsageRecorder } from './gasUsage.ts'
import type { LegacyTransaction } from './legacyTransaction.ts'
import { nativeCrypto } from './nativeSecp256k1.ts'
import { LedgerStateManager } from './stateManager.ts'
import { Pacer, paceBySteps, setPacer, type ExecutionBudget } from './pacer.ts'
import { appendFeeLog, transferLogs, type OpcodeSource } from './transferLogs.ts'
import { captureConsoleCalls, type ConsoleCapture } from './console/capture.ts'
import { unsupportedOpcodeMessage } from './unsupportedOpcodes.ts'
import { floorGas, intrinsicGas, transactionGasRules, type TransactionGasRules } from './transactionGas.ts'
import type { StateOverrides } from './overrides.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import { checksumAddress } from '../util/checksumAddress.ts'

/** The block fields the EVM reads (by default reference §6.3's: COINBASE 0, DIFFICULTY 0, GASLIMIT 2^64-1; see BlockEnvironment). */
interface BlockContext {
  header: {
    number: bigint
    timestamp: bigint
    coinbase: Address
    difficulty: bigint
    prevRandao: Uint8Array
    gasLimit: bigint
    /** Where EIP-1559 is active (BASEFEE reads it; 0 unless set), else absent. */
    baseFeePerGas: bigint | undefined
    /** 1 wei where EIP-4844 is active (BLOBBASEFEE reads it), else absent. */
    getBlobGasPrice(): bigint | undefined
  }
}

const GOVERNANCE = toHexRaw(GOVERNANCE_ADDRESS)
const EMPTY = new Uint8Array(0)

/**
 * The transaction-level rules that change with the hardfork (the chain's is Istanbul,
 * reference §6.3), read once from the EVM's Common as @ethereumjs/vm's runTx reads
 * them: calldata cost (EIP-2028 from Istanbul on), init-code words (EIP-3860), the
 * refund cap (half the gas used; a fifth from EIP-3529), the addresses warm from the
 * start (EIP-2929: precompiles, sender, recipient; EIP-3651: the coinbase), which
 * self-destructed accounts are deleted (EIP-6780: only those created in the transaction),
 * and the calldata floor of the gas used (EIP-7623).
 */
interface TransactionRules extends TransactionGasRules {
  /** Refunds are capped at gas used / this. */
  maxRefundQuotient: bigint
  /** EIP-2929 access lists are in force. */
  warmAccess: boolean
  /** EIP-3651: the coinbase is warm too. */
  warmCoinbase: boolean
  /** EIP-6780: SELFDESTRUCT deletes only a contract created in the same transaction. */
  deleteOnlyCreated: boolean
}

function transactionRules(common: Common): TransactionRules {
  return {
    ...transactionGasRules(common),
    maxRefundQuotient: common.isActivatedEIP(3529) ? 5n : 2n,
    warmAccess: common.isActivatedEIP(2929),
    warmCoinbase: common.isActivatedEIP(3651),
    deleteOnlyCreated: common.isActivatedEIP(6780),
  }
}

/** EIP-2200's SSTORE sentry: an SSTORE with this much gas left or less fails (every hardfork the devnet offers has it). */
const SSTORE_SENTRY = 2300n

/**
 * The least gas limit of a run whose steps do not depend on the gas left, which spent
 * `spent` (intrinsic gas included, before its refund) with `gasLimit`, and had
 * `sstoreGasLeft` left before its SSTORE with the least left (undefined: none ran):
 * the gas it spent, or more where an SSTORE would then have 2,300 or less left.
 */
function leastLimit(spent: bigint, gasLimit: bigint, sstoreGasLeft: bigint | undefined): bigint {
  if (sstoreGasLeft === undefined) return spent
  const sentry = gasLimit - sstoreGasLeft + SSTORE_SENTRY + 1n
  return sentry > spent ? sentry : spent
}

/** Runs transactions and calls on one EVM. Not re-entrant: the chain serialises callers. */
export class EvmEngine {
  readonly #evm: EVM
  readonly #state: LedgerStateManager
  readonly #hardfork: string
  /** One mutable block context, re-stamped per execution (building block objects costs). */
  readonly #block: BlockContext
  readonly #rules: TransactionRules
  /** Addresses (hex, no 0x) warm from the start of every transaction under EIP-2929. */
  readonly #alwaysWarm: string[]
  /** Console.log capture, only with the `console` option (no listener otherwise). */
  readonly #console: ConsoleCapture | undefined
  /** Yields long runs to the event loop and enforces the budget of the running execution (pacer.ts). */
  readonly #pacer = new Pacer()
  /** The gas report's recorder and its frame listeners (gasUsage.ts), only with a recorder. */
  readonly #gasUsage: { recorder: GasUsageRecorder; frames: GasFrames } | undefined

  /** Simulations stop when it aborts (EvmExecutorOptions.signal). */
  readonly #signal: AbortSignal | undefined
  /** What a simulation did that depends on the gas left (interpreterLoop.ts); undefined without the fast loop. */
  readonly #gasWatch: GasWatch | undefined
  /** The chain's BLOBBASEFEE source, put back after a run under block overrides. */
  readonly #blobGasPrice: () => bigint | undefined
  /** The last run stamped a block override's DIFFICULTY or BLOBBASEFEE, which the next stamp puts back. */
  #headerOverridden = false

  private constructor(
    evm: EVM,
    patched: boolean,
    state: LedgerStateManager,
    hardfork: string,
    console: ConsoleCapture | undefined,
    signal: AbortSignal | undefined,
    gasUsage: GasUsageRecorder | undefined,
  ) {
    this.#evm = evm
    this.#gasUsage = gasUsage === undefined ? undefined : { recorder: gasUsage, frames: watchGasFrames(evm, gasUsage) }
    this.#signal = signal
    // The patched interpreter loop records what a run did that depends on the gas left.
    if (patched) {
      this.#gasWatch = { independent: true, sstoreGasLeft: undefined }
      watchGas(evm, this.#gasWatch)
    }
    // The patched interpreter paces itself; ethereumjs' own is paced through its `step` event.
    if (patched) setPacer(evm, this.#pacer)
    else paceBySteps(evm.events as never, this.#pacer)
    this.#state = state
    this.#hardfork = hardfork
    this.#console = console
    this.#rules = transactionRules(evm.common)
    this.#alwaysWarm = this.#rules.warmAccess ? [...evm.precompiles.keys()] : []
    this.#blobGasPrice = evm.common.isActivatedEIP(4844) ? () => 1n : () => undefined
    this.#block = {
      header: {
        number: 0n,
        timestamp: 0n,
        coinbase: new Address(CHAIN_BLOCK_ENVIRONMENT.coinbase),
        difficulty: 0n,
        prevRandao: CHAIN_BLOCK_ENVIRONMENT.prevRandao,
        gasLimit: CHAIN_BLOCK_ENVIRONMENT.gasLimit,
        // The chain has no base fee (blocks carry none; every fee goes to governance in
        // full). On a hardfork with BASEFEE it reads 0, as go-ethereum reads a nil base
        // fee, unless hardhat_setNextBlockBaseFeePerGas set one for the block;
        // BLOBBASEFEE reads EIP-4844's minimum, 1 wei (no blob gas ever used).
        baseFeePerGas: evm.common.isActivatedEIP(1559) ? CHAIN_BLOCK_ENVIRONMENT.baseFeePerGas : undefined,
        getBlobGasPrice: this.#blobGasPrice,
      },
    }
  }

  /**
   * Applies the precompile side of a state override set to this engine, as go-ethereum's
   * `override.StateOverride.Apply` does, accounts in address order: an overridden
   * precompile address is a plain account from then on, and `movePrecompileToAddress`
   * serves its precompile at the address given (which loses a precompile it held). For
   * an engine of one simulation's own (chain/overrides.ts): the devnet's engine is never
   * given one. Throws {@link TransactionRejectedError} (JSON-RPC -32000) with
   * go-ethereum's texts for a move from an address that is no precompile, or to an
   * address the set overrides.
   */
  overridePrecompiles(overrides: StateOverrides): void {
    // ethereumjs looks precompiles up in this map on every call (EVM.getPrecompile), so changing it in place is enough.
    const precompiles = this.#evm.precompiles
    const moved = new Set<string>()
    for (const address of [...overrides.keys()].sort()) {
      if (moved.has(address)) throw new TransactionRejectedError(`account ${checksumAddress(address)} has already been overridden by a precompile`)
      const precompile = precompiles.get(address)
      const to = overrides.get(address)!.movePrecompileToAddress
      if (to !== undefined) {
        if (precompile === undefined) throw new TransactionRejectedError(`account ${checksumAddress(address)} is not a precompile`)
        if (overrides.has(to)) throw new TransactionRejectedError(`account ${checksumAddress(to)} is already overridden`)
        precompiles.set(to, precompile)
        moved.add(to)
      }
      if (precompile !== undefined) precompiles.delete(address)
    }
  }

  /** Builds the EVM with one Common for the devnet's life. Throws for a hardfork @ethereumjs/common does not know. */
  static async create(options: EvmExecutorOptions): Promise<EvmEngine> {
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
    // The EVM from @ethereumjs/evm's own files with the run-time patches (docs/design.md),
    // all or none (patches/index.ts); with them off, or on a version they were not
    // verified against, the package's index as it ships: the same execution, slower.
    const modules = options.evmPatches === false ? undefined : await installEvmPatches()
    const lib = modules ?? (await import('@ethereumjs/evm'))
    // The gas-token Transfer logs (reference §6.4) on the EVM's supported extension points, patched or not.
    const logs = transferLogs(common, lib as unknown as OpcodeSource)
    const evm = new lib.EVM({ common, stateManager: state, blockchain: blockchain as never, bn254: new lib.NobleBN254(), customOpcodes: logs.customOpcodes as never })
    if (modules !== undefined) patchEvm(evm, modules)
    else markUnpatched(evm)
    if (options.coverageRecorder !== undefined) {
      // Coverage is recorded by the interpreter loop's patch, which defers to ethereumjs' own loop for an unpatched EVM and records its steps there.
      if (modules === undefined && !(await installInterpreterLoop())) {
        throw new Error('coverage needs the @ethereumjs/evm version dualnet verified its interpreter patch against; this one runs unpatched')
      }
      recordCoverage(evm, options.coverageRecorder)
    }
    logs.attach(evm)
    return new EvmEngine(evm, modules !== undefined, state, options.hardfork, options.console === true ? captureConsoleCalls(evm) : undefined, options.signal, options.gasUsageRecorder)
  }

  /** The EVM's event emitter ('step', 'beforeMessage', 'afterMessage'), for tracers on an engine of their own. */
  get events(): EVM['events'] {
    return this.#evm.events
  }

  /**
   * See {@link EvmExecutor.executeTransaction}. With `budget` (replays) the run stops
   * at its deadline or abort with the budget's error (pacer.ts), committing nothing;
   * without, it only yields to the event loop when long.
   */
  async executeTransaction(tx: LegacyTransaction, ctx: ExecutionContext, budget?: ExecutionBudget): Promise<ExecutionOutcome> {
    this.#state.reset(ctx.readHeight)
    this.#console?.take()
    this.#gasUsage?.frames.begin()
    try {
      const outcome = await this.#pacer.run(budget, () => this.#runTransaction(tx, ctx))
      this.#state.commitTo(ctx.readHeight)
      if (this.#console !== undefined) outcome.consoleCalls = this.#console.take()
      if (this.#gasUsage !== undefined && outcome.status === 1) await this.#recordGas(tx, outcome, this.#gasUsage.recorder)
      return outcome
    } catch (err) {
      this.#discard(ctx)
      throw err
    } finally {
      this.#gasUsage?.frames.end()
    }
  }

  /** The gas report's entry of a successful mined transaction: the code it entered, or the code it deployed. */
  async #recordGas(tx: LegacyTransaction, outcome: ExecutionOutcome, recorder: GasUsageRecorder): Promise<void> {
    const address = tx.to ?? outcome.contractAddress
    if (address === undefined) return
    const code = await this.#state.getCode(new Address(address))
    if (code.length === 0) return
    if (tx.to === undefined) recorder.deployment(code, outcome.gasUsed)
    else recorder.transaction(code, tx.data, outcome.gasUsed)
  }

  /**
   * See {@link EvmExecutor.simulate}; `explain: false` skips the re-run that names an
   * invalid opcode (tracers watch one run). Under `budget` (default: the engine's
   * signal) the run stops at its deadline or abort with the budget's error (pacer.ts).
   */
  async simulate(call: CallRequest, ctx: ExecutionContext, explain = true, budget?: ExecutionBudget): Promise<ExecutionOutcome> {
    this.#state.reset(ctx.readHeight)
    this.#console?.take()
    try {
      return await this.#pacer.run(budget ?? (this.#signal === undefined ? undefined : { signal: this.#signal }), async () => {
        let outcome = await this.#runCall(call, ctx)
        if (this.#console !== undefined) outcome.consoleCalls = this.#console.take()
        if (explain && outcome.error?.kind === 'invalid opcode') {
          this.#state.reset(ctx.readHeight)
          outcome = await this.#explainInvalidOpcode(call, ctx, outcome)
        }
        return outcome
      })
    } catch (err) {
      this.#discard(ctx)
      throw err
    } finally {
      this.#state.reset(ctx.readHeight)
    }
  }

  /** After an execution that threw (a stop of its budget included): drops what its frames left open. */
  #discard(ctx: ExecutionContext): void {
    this.#evm.journal.cleanJournal()
    ;(this.#evm as { transientStorage?: { clear(): void } }).transientStorage?.clear()
    this.#console?.take()
    this.#state.reset(ctx.readHeight)
  }

  /**
   * A legacy transaction as go-ethereum's state transition (and @ethereumjs/vm's
   * runTx, which the differential test holds it to) runs it: buy gas up front and bump
   * the nonce, run the message with the gas left after the intrinsic charge, refund
   * unused gas and up to half the gas used (Istanbul), delete self-destructed and
   * touched empty accounts (EIP-161); on Prague the gas used is at least EIP-7623's
   * calldata floor. The fee goes to governance, not the coinbase, with its gas-token
   * Transfer log last (reference §6.4, §6.5). Throws when the transaction cannot run at
   * all (intrinsic gas or the floor, nonce, funds: the pool checks these).
   */
  async #runTransaction(tx: LegacyTransaction, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    const evm = this.#evm
    const journal = evm.journal
    await journal.cleanup()
    const intrinsic = intrinsicGas(tx.to, tx.data, this.#rules)
    if (tx.gasLimit < intrinsic) throw new Error(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`)
    const floor = floorGas(tx.data, this.#rules.floorGasPerToken)
    // go-ethereum's ErrFloorDataGas (core/state_transition.go), checked after the intrinsic gas.
    if (tx.gasLimit < floor) throw new Error(`insufficient gas for floor data gas cost: have ${tx.gasLimit}, want ${floor}`)
    this.#warm(tx.from, tx.to, ctx)
    const caller = new Address(tx.from)
    const sender = (await this.#state.getAccount(caller)) ?? new Account()
    const upfront = tx.gasLimit * tx.gasPrice
    if (sender.balance < upfront + tx.value) {
      throw new Error(`insufficient funds for gas * price + value: have ${sender.balance}, want ${upfront + tx.value}`)
    }
    if (sender.nonce !== tx.nonce) throw new Error(`nonce mismatch: account has ${sender.nonce}, transaction ${tx.nonce}`)
    sender.balance -= upfront
    sender.nonce += 1n
    await journal.putAccount(caller, sender)

    const result = await evm.runCall({
      block: this.#stamp(ctx) as never,
      gasPrice: tx.gasPrice,
      caller,
      gasLimit: tx.gasLimit - intrinsic,
      to: tx.to === undefined ? undefined : new Address(tx.to),
      value: tx.value,
      data: tx.data,
      skipNonceIncrement: true,
    })
    const exec = result.execResult
    let gasUsed = intrinsic + exec.executionGasUsed
    if (exec.gasRefund !== undefined && exec.gasRefund !== 0n) gasUsed -= this.#capRefund(gasUsed, exec.gasRefund)
    if (gasUsed < floor) gasUsed = floor
    const fee = gasUsed * tx.gasPrice
    const after = (await this.#state.getAccount(caller)) ?? new Account()
    after.balance += upfront - fee
    await journal.putAccount(caller, after)
    const logs = exec.logs ?? []
    if (fee > 0n) {
      const governance = this.#state.record(GOVERNANCE)
      this.#state.setRecord(GOVERNANCE, { ...governance, gas: governance.gas + fee })
    }
    appendFeeLog(logs, tx.from, fee)
    if (exec.selfdestruct !== undefined) {
      for (const address of exec.selfdestruct.keys()) {
        if (this.#rules.deleteOnlyCreated && exec.createdAddresses?.has(address) !== true) continue
        await journal.deleteAccount(new Address(fromHex(address)))
      }
    }
    await journal.cleanup()
    const failed = exec.exceptionError
    return {
      status: failed === undefined ? 1 : 0,
      gasUsed,
      logs,
      contractAddress: failed === undefined ? result.createdAddress?.bytes : undefined,
      returnValue: exec.returnValue,
      error: failed === undefined ? undefined : { kind: failed.error, message: failed.error },
      fee,
    }
  }

  /**
   * A call through the EVM with a transaction's gas accounting (intrinsic gas, then
   * refunds capped at half the gas used, then EIP-7623's floor on Prague) but no
   * purchase of gas, no fee and no commit.
   */
  async #runCall(call: CallRequest, ctx: ExecutionContext): Promise<ExecutionOutcome> {
    const intrinsic = intrinsicGas(call.to, call.data, this.#rules)
    const floor = floorGas(call.data, this.#rules.floorGasPerToken)
    const empty = { logs: [], contractAddress: undefined, returnValue: EMPTY, fee: 0n }
    if (call.gasLimit < intrinsic) {
      return { ...empty, status: 0, gasUsed: call.gasLimit, error: { kind: 'out of gas', message: 'intrinsic gas too low' } }
    }
    if (call.gasLimit < floor) {
      return { ...empty, status: 0, gasUsed: call.gasLimit, error: { kind: 'out of gas', message: 'insufficient gas for floor data gas cost' } }
    }
    const evm = this.#evm
    await evm.journal.cleanup()
    this.#warm(call.from, call.to, ctx)
    const caller = new Address(call.from)
    const watch = this.#gasWatch
    if (watch !== undefined) {
      watch.independent = true
      watch.sstoreGasLeft = undefined
    }
    const result = await evm.runCall({
      block: this.#stamp(ctx) as never,
      caller,
      origin: caller,
      to: call.to === undefined ? undefined : new Address(call.to),
      data: call.data,
      value: call.value,
      gasLimit: call.gasLimit - intrinsic,
      gasPrice: call.gasPrice,
      // The caller's nonce matters only to a top-level creation's address; a call
      // does not need the bump (and its account write) the EVM would make.
      skipNonceIncrement: call.to !== undefined,
    })
    const exec = result.execResult
    const failed = exec.exceptionError
    const spent = intrinsic + exec.executionGasUsed
    const refund = failed === undefined ? this.#capRefund(spent, exec.gasRefund ?? 0n) : 0n
    const gasUsed = spent - refund < floor ? floor : spent - refund
    // With a limit L the same run has gasLimit - L less left at every step. When nothing
    // it ran depends on the gas left, it does the same at every L that covers what it
    // spent (the refund comes back only at the end) and leaves each SSTORE more than
    // EIP-2200's 2,300 sentry; below either it runs out. So that L is exact.
    const least = failed === undefined && watch?.independent === true ? leastLimit(spent, call.gasLimit, watch.sstoreGasLeft) : undefined
    // Below the floor the transaction cannot run at all (EIP-7623).
    const leastGasLimit = least !== undefined && least < floor ? floor : least
    const logs = exec.logs ?? []
    // Pre-execution: the fee log the mined transaction would end with (a failed one too), nothing charged.
    if (call.feeLog === true) appendFeeLog(logs, call.from, gasUsed * call.gasPrice)
    return {
      status: failed === undefined ? 1 : 0,
      gasUsed,
      refund,
      leastGasLimit,
      logs,
      contractAddress: failed === undefined ? result.createdAddress?.bytes : undefined,
      returnValue: exec.returnValue,
      error: failed === undefined ? undefined : { kind: failed.error, message: failed.error },
      fee: 0n,
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
    const evm = this.#evm
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

  /** Refunds as the hardfork caps them (half the gas used before EIP-3529, a fifth after). */
  #capRefund(gasUsed: bigint, refund: bigint): bigint {
    const cap = gasUsed / this.#rules.maxRefundQuotient
    return refund < cap ? refund : cap
  }

  /** Under EIP-2929, the addresses a transaction starts with warm (as runTx: precompiles, sender, recipient, EIP-3651 coinbase). */
  #warm(from: Uint8Array, to: Uint8Array | undefined, ctx: ExecutionContext): void {
    if (!this.#rules.warmAccess) return
    const journal = this.#evm.journal
    for (const address of this.#alwaysWarm) journal.addAlwaysWarmAddress(address)
    if (this.#rules.warmCoinbase) journal.addAlwaysWarmAddress(toHexRaw((ctx.env ?? CHAIN_BLOCK_ENVIRONMENT).coinbase))
    journal.addAlwaysWarmAddress(toHexRaw(from))
    if (to !== undefined) journal.addAlwaysWarmAddress(toHexRaw(to))
  }

  /** The block context for `ctx`: NUMBER, TIMESTAMP and the settable fields (COINBASE, GASLIMIT, BASEFEE, PREVRANDAO). */
  #stamp(ctx: ExecutionContext): BlockContext {
    const header = this.#block.header
    header.number = BigInt(ctx.number)
    header.timestamp = BigInt(ctx.timestamp)
    const env = ctx.env ?? CHAIN_BLOCK_ENVIRONMENT
    if (!bytesEqual(header.coinbase.bytes, env.coinbase)) header.coinbase = new Address(env.coinbase)
    header.gasLimit = env.gasLimit
    if (header.baseFeePerGas !== undefined) header.baseFeePerGas = env.baseFeePerGas
    header.prevRandao = env.prevRandao
    // A simulation's block overrides (absent on every other run: one check).
    if (ctx.header !== undefined) {
      const o = ctx.header
      if (o.number !== undefined) header.number = o.number
      if (o.timestamp !== undefined) header.timestamp = o.timestamp
      if (o.difficulty !== undefined) header.difficulty = o.difficulty
      if (o.blobBaseFee !== undefined) {
        const fee = o.blobBaseFee
        header.getBlobGasPrice = () => fee
      }
      this.#headerOverridden = true
    } else if (this.#headerOverridden) {
      header.difficulty = 0n
      header.getBlobGasPrice = this.#blobGasPrice
      this.#headerOverridden = false
    }
    return this.#block
  }
}
