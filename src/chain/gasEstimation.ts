/**
 * eth_estimateGas's search: the least gas limit with which a call succeeds, within
 * 1/64, as go-ethereum's estimator finds it. The chain fixes the environment and
 * supplies the simulations (Chain.estimateGas); this module only searches.
 */
import { EVM_TX_GAS_CAP } from '../core/constants.ts'
import { ExecutionFailedError, TransactionRejectedError } from '../core/errors.ts'
import type { CallRequest, ExecutionContext, ExecutionOutcome } from '../evm/executor.ts'
import { executionError } from './executionErrors.ts'

/** Gas a CALL with value gives the callee on top of what the caller forwards (go-ethereum's params.CallStipend). */
const CALL_STIPEND = 2300n

/** What the search runs on: simulations in one environment, the sender's gas balance there, and the console.log sink. */
export interface EstimationRunner {
  /** Runs the call with the given fields in the estimate's environment (the chain's queue). */
  simulate(call: CallRequest): Promise<ExecutionOutcome>
  /** The sender's gas-token balance in wei at the environment's read height (read only at a non-zero gas price). */
  balance(): bigint
  /** Prints an outcome's console.log lines. */
  printConsole(outcome: ExecutionOutcome): Promise<void>
}

/**
 * Gas limit sufficient for `call` in `env`: runs at the cap (min(call gas, 6,000,000,
 * the block gas limit set), and what the balance affords at a non-zero gas price);
 * answers the engine's least limit when it knows it (ExecutionOutcome.leastGasLimit),
 * else tries the gas it spent before its refund; if that fails, go-ethereum's optimistic limit
 * ((used + refund + 2300) × 64/63), then bisects to the least limit that succeeds
 * within 1/64. Throws
 * {@link TransactionRejectedError} when the balance does not cover `value` at a
 * non-zero gas price, {@link ExecutionFailedError} when the call fails at the cap.
 */
export async function searchGasLimit(call: CallRequest, env: ExecutionContext, runner: EstimationRunner): Promise<bigint> {
  const { simulate } = runner
  // The 6,000,000 cap, or a lower block gas limit set by evm_setBlockGasLimit (a transaction above it is refused).
  const blockCap = env.env !== undefined && env.env.gasLimit < EVM_TX_GAS_CAP ? env.env.gasLimit : EVM_TX_GAS_CAP
  let cap = call.gasLimit > 0n && call.gasLimit < blockCap ? call.gasLimit : blockCap
  if (call.gasPrice > 0n) {
    const balance = runner.balance() - call.value
    if (balance < 0n) throw new TransactionRejectedError('insufficient funds for transfer')
    const affordable = balance / call.gasPrice
    if (affordable < cap) cap = affordable
  }
  const atCap = await simulate({ ...call, gasLimit: cap })
  if (atCap.status === 0) {
    // As Hardhat, an estimate prints its console.log lines only when it fails: a
    // successful one is followed by the transaction, which prints them.
    await runner.printConsole(atCap)
    if (atCap.error?.kind === 'out of gas') {
      throw new ExecutionFailedError(`gas required exceeds allowance (${cap})`, 'out of gas', new Uint8Array(0))
    }
    throw executionError(atCap)
  }
  // When nothing the run did depends on the gas left, the engine knows the least limit.
  if (atCap.leastGasLimit !== undefined) return atCap.leastGasLimit
  // Else what it spent before its refund is often enough (a run with less runs out
  // before the refund comes back); if not (the 63/64 rule, the SSTORE sentry), search.
  const spent = atCap.gasUsed + (atCap.refund ?? 0n)
  const first = await simulate({ ...call, gasLimit: spent })
  if (first.status === 1) return spent
  let lo = spent
  let hi = cap
  // go-ethereum's optimistic limit before the bisection: what the run spent before its
  // refund, plus a call stipend, plus the 1/64 that EIP-150 keeps back from each call.
  // It nearly always succeeds, and the bisection then starts from a range about 1/63 of
  // the gas wide instead of reaching down from the cap (2 or 3 runs instead of 12 to 14).
  const optimistic = ((spent + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    const outcome = await simulate({ ...call, gasLimit: optimistic })
    if (outcome.status === 1) hi = optimistic
    else lo = optimistic
  }
  while (hi - lo > hi / 64n + 1n) {
    const mid = (lo + hi) / 2n
    const outcome = await simulate({ ...call, gasLimit: mid })
    if (outcome.status === 1) hi = mid
    else lo = mid
  }
  return hi
}
