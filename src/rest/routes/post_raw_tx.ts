import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag } from '../params.ts'
import { decodeVarBytes } from '../../native/decodeVarBytes.ts'
import { TransactionRejectedError } from '../../chain/errors.ts'
import { TX_TYPE_EIP155 } from '../../chain/transaction.ts'
import { decodeEvmTransaction } from '../../evm/rawTransaction.ts'
import { toReversedHex } from '../../util/hex.ts'
import { u64 } from '../json.ts'

/**
 * post_raw_tx: body `{ Action, Version, Data }` (only Data is read) with a native raw
 * transaction in hex; `?preExec=1` runs it without committing. EIP-155 wrapped
 * transactions (type 0xd3) take the EVM path of eth_sendRawTransaction (§2.4).
 * Native transaction types are not executed yet: 43001 with the reason in Result.
 */
export const post_raw_tx: RestRoute = {
  method: 'POST',
  path: '/api/v1/transaction',
  action: 'sendrawtransaction',
  handle: async (ctx, { body, query }) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(body ?? '')
    } catch {
      throw new RestError(RestErrorCode.IllegalDataFormat)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RestError(RestErrorCode.IllegalDataFormat)
    const data = (parsed as Record<string, unknown>).Data
    if (typeof data !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(data)) throw new RestError(RestErrorCode.InvalidParams)
    const raw = Uint8Array.from(Buffer.from(data, 'hex'))
    if (raw.length < 2 || raw[0] !== 0) throw new RestError(RestErrorCode.InvalidTransaction)
    if (raw[1] !== TX_TYPE_EIP155) {
      throw new RestError(RestErrorCode.InvalidTransaction, `native transactions (TxType 0x${raw[1]!.toString(16)}) are not executed by this devnet yet; EIP-155 transactions (0xd3) are`)
    }
    const rlp = decodeVarBytes(raw, 2)
    if (rlp === undefined) throw new RestError(RestErrorCode.InvalidTransaction)
    try {
      if (flag(query.preExec)) {
        const { tx, from } = decodeEvmTransaction(rlp, ctx.chain.executor.common)
        const outcome = await ctx.chain.preExecute({
          from, to: tx.to?.bytes, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, gasPrice: tx.gasPrice,
        })
        return {
          State: outcome.status,
          Gas: u64(outcome.gasUsed),
          // The node marshals the EVM return bytes as a Go []byte: base64 (§1.4.7).
          Result: Buffer.from(outcome.returnValue).toString('base64'),
          Notify: null,
        }
      }
      return toReversedHex(await ctx.chain.submitRawTransaction(rlp))
    } catch (err) {
      if (err instanceof TransactionRejectedError) throw new RestError(RestErrorCode.Unknown, err.message, { cause: err })
      throw err
    }
  },
}
