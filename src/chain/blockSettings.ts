/**
 * The block-environment settings of the devnet's controls: the coinbase and the
 * gas limit of later blocks (hardhat_setCoinbase, evm_setBlockGasLimit), the base fee
 * and the PREVRANDAO of the next block only (hardhat_setNextBlockBaseFeePerGas,
 * hardhat_setPrevRandao), as Hardhat Network keeps them. They are what the EVM's
 * COINBASE, GASLIMIT, BASEFEE and PREVRANDAO read; the block objects of either view
 * keep the real node's fields (reference §6.3), see the README ("Hardhat network
 * helpers"). Snapshots capture them, a reset starts from the chain's own values.
 */
import { CHAIN_BLOCK_ENVIRONMENT, type BlockEnvironment } from '../evm/executor.ts'

/** Everything {@link BlockSettings} holds, for snapshots. */
export interface BlockSettingsState {
  readonly coinbase: Uint8Array
  readonly gasLimit: bigint
  readonly nextBaseFee: bigint | undefined
  readonly nextPrevRandao: Uint8Array | undefined
}

/** The block environment of blocks still to come. */
export class BlockSettings {
  #coinbase = CHAIN_BLOCK_ENVIRONMENT.coinbase
  #gasLimit = CHAIN_BLOCK_ENVIRONMENT.gasLimit
  /** One-shot: the next block's base fee. */
  #nextBaseFee: bigint | undefined
  /** One-shot: the next block's PREVRANDAO. */
  #nextPrevRandao: Uint8Array | undefined
  /** The environment {@link next} answers until a setting changes (blocks and simulations read it often). */
  #cached: BlockEnvironment | undefined = CHAIN_BLOCK_ENVIRONMENT

  /** COINBASE (and eth_coinbase) of later blocks, 20 bytes. */
  get coinbase(): Uint8Array {
    return this.#coinbase
  }

  /** GASLIMIT of later blocks. */
  get gasLimit(): bigint {
    return this.#gasLimit
  }

  /** The base fee the next block will have, in wei (0: the chain has none). */
  get nextBaseFee(): bigint {
    return this.#nextBaseFee ?? CHAIN_BLOCK_ENVIRONMENT.baseFeePerGas
  }

  setCoinbase(coinbase: Uint8Array): void {
    this.#coinbase = coinbase.slice()
    this.#cached = undefined
  }

  setGasLimit(gasLimit: bigint): void {
    this.#gasLimit = gasLimit
    this.#cached = undefined
  }

  setNextBaseFee(baseFee: bigint): void {
    this.#nextBaseFee = baseFee
    this.#cached = undefined
  }

  setNextPrevRandao(prevRandao: Uint8Array): void {
    this.#nextPrevRandao = prevRandao.slice()
    this.#cached = undefined
  }

  /** The environment of the next block (what a block mined now, or a `pending` call, sees). */
  next(): BlockEnvironment {
    this.#cached ??= Object.freeze({
      coinbase: this.#coinbase,
      gasLimit: this.#gasLimit,
      baseFeePerGas: this.nextBaseFee,
      prevRandao: this.#nextPrevRandao ?? CHAIN_BLOCK_ENVIRONMENT.prevRandao,
    })
    return this.#cached
  }

  /**
   * A block was mined (or reserved): the one-shot base fee and PREVRANDAO are used
   * up, and later blocks are back to the chain's own (no base fee, PREVRANDAO 0; the
   * chain has neither a fee market nor a beacon chain to derive others from).
   */
  blockMined(): void {
    if (this.#nextBaseFee === undefined && this.#nextPrevRandao === undefined) return
    this.#nextBaseFee = undefined
    this.#nextPrevRandao = undefined
    this.#cached = undefined
  }

  capture(): BlockSettingsState {
    return { coinbase: this.#coinbase, gasLimit: this.#gasLimit, nextBaseFee: this.#nextBaseFee, nextPrevRandao: this.#nextPrevRandao }
  }

  restore(state: BlockSettingsState): void {
    this.#coinbase = state.coinbase
    this.#gasLimit = state.gasLimit
    this.#nextBaseFee = state.nextBaseFee
    this.#nextPrevRandao = state.nextPrevRandao
    this.#cached = undefined
  }
}
