/**
 * post_raw_tx for native transactions (reference §1.5, §1.4.7): submission with the
 * pool's codes, or pre-execution.
 */
import type { Chain } from '../chain/chain.ts'
import type { Served } from './context.ts'
import type { RestPreExecResult } from './schema.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import { InvalidTransactionError } from '../native/transaction.ts'
import { toHexRaw, toReversedHex } from '../util/hex.ts'
import { RestError, RestErrorCode } from './errors.ts'
import { u64 } from './json.ts'
import { renderNativeNotify } from './render.ts'

/**
 * Submits (or with `preExec` pre-executes) a raw native transaction. Resolves to the
 * REST-form hash, or the pre-execution result `{ State, Gas, Result (hex), Notify }`.
 * Throws RestError: 43001 when it does not decode, the pool's code and text when it
 * is refused, 47001 with the error text when pre-execution cannot run the script.
 */
export async function sendNative(chain: Chain, raw: Uint8Array, preExec: boolean): Promise<string | Served<RestPreExecResult>> {
  try {
    if (preExec) {
      const outcome = await chain.preExecuteNativeTransaction(raw)
      return {
        State: outcome.state,
        Gas: u64(outcome.gas),
        // NeoVM byte results are hex; `transfer` returns "01", a zero balance "" (§1.4.7).
        Result: toHexRaw(outcome.result),
        Notify: outcome.notify.length === 0 ? null : outcome.notify.map(renderNativeNotify),
      }
    }
    return toReversedHex(await chain.submitNativeTransaction(raw))
  } catch (err) {
    if (err instanceof InvalidTransactionError) throw new RestError(RestErrorCode.InvalidTransaction, '', { cause: err })
    if (err instanceof TransactionRejectedError) {
      if (preExec) throw new RestError(RestErrorCode.SmartcodeExecError, err.message, { cause: err })
      throw new RestError(err.restCode, err.message, { cause: err })
    }
    throw err
  }
}
