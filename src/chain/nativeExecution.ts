/**
 * Native transactions in the ledger: the pool's checks (reference §1.5 POST rejection
 * list), execution of the token call with the node's fee rules (§2.8), and
 * pre-execution (§1.4.7). Balances and allowances live in the journaled world state,
 * so snapshots and block reverts cover them.
 */
import { executeTokenCall, moveTokens, NativeExecutionError, transferNotify, type TokenLedger } from '../native/tokenContract.ts'
import { toHexRaw, toReversedHex } from '../util/hex.ts'
import { GOVERNANCE_ADDRESS, MAIN_TOKEN_ADDRESS, V2_PER_V1 } from '../core/constants.ts'
import { calcUnboundGas, type UnboundGasRule } from '../native/unboundGas.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import type { NativeNotify } from './record.ts'
import type { WorldState } from '../state/worldState.ts'
import type { NativeChainTransaction } from './transaction.ts'

/** Gas a native token call uses: the 20,000 floor (a transfer needs less, §2.8). */
export const NATIVE_CALL_GAS = 20_000n

/** Time and rules a native execution runs under. */
export interface NativeEnv {
  /** Block timestamp, Unix seconds. */
  timestamp: number
  /** Unbound-gas accrual, when switched on. */
  unbound: UnboundGasRule | undefined
}

/**
 * The token ledger over `world` as of `height` (reads include the block being built).
 * With accrual on, every main-token balance change first grants the gas accrued
 * since the address's offset into the allowance main contract → address (§4.2 grantOng).
 */
export function ledgerAt(world: WorldState, height: number, env?: NativeEnv): TokenLedger {
  const unbound = env?.unbound
  return {
    beforeMainChange:
      unbound === undefined
        ? undefined
        : (address, balance) => {
            const key = toHexRaw(address)
            const now = env!.timestamp - unbound.genesis
            const accrued = calcUnboundGas(balance / V2_PER_V1, world.getUnboundOffset(key, height), now, unbound.deadline)
            if (accrued > 0n) {
              const owner = toHexRaw(MAIN_TOKEN_ADDRESS)
              world.setAllowance('gas', owner, key, world.getAllowance('gas', owner, key, height) + accrued * V2_PER_V1, height)
            }
            world.setUnboundOffset(key, now, height)
          },
    balance: (token, address) => world.getAccount(toHexRaw(address), height)[token],
    setBalance: (token, address, amount) => world.updateAccount(toHexRaw(address), height, { [token]: amount }),
    allowance: (token, owner, spender) => world.getAllowance(token, toHexRaw(owner), toHexRaw(spender), height),
    setAllowance: (token, owner, spender, amount) => world.setAllowance(token, toHexRaw(owner), toHexRaw(spender), amount, height),
  }
}

/** The pool's fee check (§1.5 rejection 6): the payer must hold gasPrice × 20,000 in v1 gas units. */
export function checkNativeFee(world: WorldState, tx: NativeChainTransaction, height: number): void {
  const need = tx.tx.gasPrice * NATIVE_CALL_GAS
  const has = world.getAccount(toHexRaw(tx.from), height).gas / V2_PER_V1
  if (has < need) {
    throw new TransactionRejectedError(`transactor ${toReversedHex(tx.from)} has no balance enough to cover gas cost ${need}`)
  }
}

/** What executing a native transaction produced. */
export interface NativeOutcome {
  state: 0 | 1
  /** NeoVM result bytes of the call. */
  result: Uint8Array
  /** Contract notifies, then the fee notify. */
  notify: NativeNotify[]
  /** Fee charged, gas-token v1 units (GasConsumed). */
  fee: bigint
  /** Error text when the call failed. */
  error: string | undefined
}

/**
 * Executes `tx` at `height` into `world` with the node's fee rules (§2.8): the call's
 * writes and notifies are dropped when it fails; then, unless the gas price or the
 * height is 0, 20,000 × gasPrice (v1) moves from the payer to governance with its
 * Transfer notify last, also for a failed call. A payer who cannot pay it all pays
 * what it has and the transaction fails.
 */
export function executeNativeTransaction(world: WorldState, tx: NativeChainTransaction, height: number, env: NativeEnv): NativeOutcome {
  const ledger = ledgerAt(world, height, env)
  const before = world.journal.position
  let outcome: NativeOutcome
  try {
    const { result, notify } = executeTokenCall(tx.call, tx.signers, ledger)
    outcome = { state: 1, result, notify, fee: 0n, error: undefined }
  } catch (err) {
    if (!(err instanceof NativeExecutionError)) throw err
    world.journal.revertTo(before)
    outcome = { state: 0, result: new Uint8Array(0), notify: [], fee: 0n, error: err.message }
  }
  const cost = tx.tx.gasPrice * NATIVE_CALL_GAS * V2_PER_V1
  if (cost > 0n && height > 0) {
    const balance = ledger.balance('gas', tx.from)
    const charged = balance < cost ? balance : cost
    if (charged < cost) {
      world.journal.revertTo(before)
      outcome = { state: 0, result: new Uint8Array(0), notify: [], fee: 0n, error: 'payer cannot pay the fee' }
    }
    if (charged > 0n) {
      moveTokens(ledger, 'gas', tx.from, GOVERNANCE_ADDRESS, charged)
      outcome.notify.push(transferNotify('gas', tx.from, GOVERNANCE_ADDRESS, charged))
    }
    outcome.fee = charged / V2_PER_V1
  }
  return outcome
}

/**
 * Pre-execution (§1.4.7): runs the call at `height` and undoes it. Gas is the 20,000
 * floor; no fee is charged and no fee notify is made.
 */
export function preExecuteNative(world: WorldState, tx: NativeChainTransaction, height: number, env: NativeEnv): NativeOutcome {
  const before = world.journal.position
  try {
    const { result, notify } = executeTokenCall(tx.call, tx.signers, ledgerAt(world, height, env))
    return { state: 1, result, notify, fee: 0n, error: undefined }
  } catch (err) {
    if (!(err instanceof NativeExecutionError)) throw err
    return { state: 0, result: new Uint8Array(0), notify: [], fee: 0n, error: err.message }
  } finally {
    world.journal.revertTo(before)
  }
}
