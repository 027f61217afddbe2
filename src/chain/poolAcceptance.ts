/**
 * The pool's stateful checks, which a transaction passes before the mempool takes it,
 * with the node's texts and REST codes. Each throws {@link TransactionRejectedError}
 * and changes nothing; the checks read the state of the latest block.
 */
import { toHexRaw, toReversedHex } from '../util/hex.ts'
import type { BlockIndex } from './blockIndex.ts'
import { EVM_TX_GAS_CAP, GWEI, MAX_NONCE_GAP, MIN_GAS_LIMIT } from '../core/constants.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import type { Mempool } from './mempool.ts'
import { checkNativeFee, preExecuteNative, type NativeEnv } from './nativeExecution.ts'
import type { WorldState } from '../state/worldState.ts'
import type { EvmTransaction, NativeChainTransaction } from './transaction.ts'

/**
 * go-ethereum's standard phrases for the pool's refusals (core/txpool errors), which
 * clients classify by: ethers v6 (`NONCE_EXPIRED`, `INSUFFICIENT_FUNDS`,
 * `REPLACEMENT_UNDERPRICED`) and viem (`NonceTooLowError`, `InsufficientFundsError`,
 * `IntrinsicGasTooLowError`, …) match them anywhere in the message.
 */
export const GethPhrase = {
  NonceTooLow: 'nonce too low',
  NonceTooHigh: 'nonce too high',
  InsufficientFunds: 'insufficient funds for gas * price + value',
  IntrinsicGas: 'intrinsic gas too low',
  Underpriced: 'transaction underpriced',
  ReplaceUnderpriced: 'replacement transaction underpriced',
  GasLimit: 'exceeds block gas limit',
  AlreadyKnown: 'already known',
} as const

/** The next block's gas limit and base fee (wei), as the devnet's controls set them. */
export interface NextBlockLimits {
  gasLimit: bigint
  baseFeePerGas: bigint
}

/**
 * The pool's stateful checks of an EIP-155 transaction (reference §6.5 step 3), against
 * block `height`. Messages: the node's text, then go-ethereum's phrase for the same
 * refusal in parentheses, e.g. `SendRawTransaction verified <REST hash> error:
 * handleTransaction lower nonce:0 ,current nonce:1 (nonce too low)` (README: "Errors
 * clients recognise").
 *
 * `next` is what the devnet's controls set for the next block (evm_setBlockGasLimit,
 * hardhat_setNextBlockBaseFeePerGas): a gas limit above its gas limit, or a gas price
 * below its base fee, is refused with Hardhat's text (EDR), whether or not automine
 * is on (Hardhat keeps such a transaction waiting with automine off; here the pool
 * decides once, when it takes the transaction). Neither lifts the 6,000,000 cap.
 *
 * `required` is the least gas limit the transaction can run with when its own is below
 * it, else `undefined` (EvmExecutor.requiredGasAbove: its intrinsic gas, or EIP-7623's
 * floor on Prague). The node's pool checks only its 20,000 minimum; a transaction between
 * the two would fail its block when mined and hold up its sender's later ones, so it is
 * refused here, as go-ethereum's pool refuses it.
 */
export function checkPool(tx: EvmTransaction, world: WorldState, mempool: Mempool, height: number, minGasPrice: bigint, next: NextBlockLimits, required: bigint | undefined): void {
  const { gasLimit, gasPrice, nonce, value } = tx.tx
  const restHash = toReversedHex(tx.hash)
  const refuse = (desc: string, phrase: string) => new TransactionRejectedError(`SendRawTransaction verified ${restHash} error: ${desc} (${phrase})`)
  if (gasLimit < MIN_GAS_LIMIT || gasPrice / GWEI < minGasPrice) {
    throw refuse(`Please input gasLimit >= ${MIN_GAS_LIMIT} and gasPrice >= ${minGasPrice}`, gasLimit < MIN_GAS_LIMIT ? GethPhrase.IntrinsicGas : GethPhrase.Underpriced)
  }
  // Taken, it could not run when mined: the block would fail and the sender's later transactions wait behind it.
  if (required !== undefined) {
    throw refuse(`gasLimit ${gasLimit} is less than the ${required} the transaction needs to run (its intrinsic gas, or on Prague EIP-7623's calldata floor)`, GethPhrase.IntrinsicGas)
  }
  if (gasLimit > EVM_TX_GAS_CAP) throw refuse('EIP155 tx gaslimit exceed ', GethPhrase.GasLimit)
  if (gasLimit > next.gasLimit) {
    throw refuse(`Transaction gas limit is ${gasLimit} and exceeds block gas limit of ${next.gasLimit}`, GethPhrase.GasLimit)
  }
  if (gasPrice < next.baseFeePerGas) {
    throw refuse(`Transaction gasPrice (${gasPrice}) is too low for the next block, which has a baseFeePerGas of ${next.baseFeePerGas}`, GethPhrase.Underpriced)
  }
  const account = world.getAccount(toHexRaw(tx.from), height)
  if (nonce < account.nonce) {
    throw refuse(`handleTransaction lower nonce:${nonce} ,current nonce:${account.nonce}`, GethPhrase.NonceTooLow)
  }
  if (nonce >= account.nonce + MAX_NONCE_GAP) {
    throw refuse(`the nonce is too big: nonce:${nonce} ,current nonce:${account.nonce}`, GethPhrase.NonceTooHigh)
  }
  const want = gasPrice * gasLimit + value
  if (account.gas < want) {
    throw refuse(`not enough ong balance for ${toReversedHex(tx.from)} - has:${account.gas} - want:${want}`, GethPhrase.InsufficientFunds)
  }
  const same = mempool.bySenderNonce(toHexRaw(tx.from), nonce)
  if (same !== undefined) {
    if (toHexRaw(same.hash) === toHexRaw(tx.hash)) {
      throw refuse(`transaction ${toHexRaw(tx.hash)} is already in the tx pool`, GethPhrase.AlreadyKnown)
    }
    // Replacement needs a price bump above 1 % (ErrSameNonceExist otherwise).
    if (gasPrice * 100n <= same.tx.gasPrice * 101n) {
      throw refuse('a transaction with the same nonce exists in the pool', GethPhrase.ReplaceUnderpriced)
    }
  }
}

/**
 * The pool's stateful checks of a native transaction that `prepareNativeTransaction`
 * let through (gas limits, script, signatures), in the node's order: fee balance,
 * pre-execution at block `height` in `env`, duplicates on chain (45002) and in the
 * pool (45003).
 */
export function checkNativePool(tx: NativeChainTransaction, world: WorldState, mempool: Mempool, blocks: BlockIndex, height: number, env: NativeEnv): void {
  const hash = toHexRaw(tx.hash)
  checkNativeFee(world, tx, height)
  const trial = preExecuteNative(world, tx, height, env)
  if (trial.state === 0) throw new TransactionRejectedError(trial.error ?? 'pre-execution failed')
  if (blocks.includes(hash)) throw new TransactionRejectedError('duplicated transaction detected', { restCode: 45002 })
  if (mempool.getNative(hash) !== undefined) {
    throw new TransactionRejectedError(`transaction ${hash} is already in the tx pool`, { restCode: 45003 })
  }
}
