import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag } from '../params.ts'
import { decodeVarBytes } from '../../native/decodeVarBytes.ts'
import { TransactionRejectedError } from '../../core/errors.ts'
import { TX_TYPE_EIP155 } from '../../chain/transaction.ts'
import { decodeLegacyTransaction, type LegacyTransaction } from '../../evm/legacyTransaction.ts'
import { toReversedHex } from '../../util/hex.ts'
import { u64 } from '../json.ts'
import { serializeEvmLog } from '../render.ts'
import { sendNative } from '../sendNative.ts'

/** Native TxTypes that deserialise (Deploy, InvokeNeo, InvokeWasm; reference §2.3). */
const NATIVE_TX_TYPES: ReadonlySet<number> = new Set([0xd0, 0xd1, 0xd2])

/**
 * post_raw_tx: body `{ Action, Version, Data }` (only Data is read) with a native raw
 * transaction in hex; `?preExec=1` runs it without committing. EIP-155 wrapped
 * transactions (type 0xd3) take the EVM path of eth_sendRawTransaction (§2.4); native
 * ones the native path (src/rest/sendNative.ts).
 */
export const post_raw_tx: RestRoute<'/api/v1/transaction'> = {
  method: 'POST',
  path: '/api/v1/transaction',
  action: 'sendrawtransaction',
  fork: { kind: 'local' },
  handle: async (ctx, { body, query }) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(body ?? '')
    } catch {
      throw new RestError(RestErrorCode.IllegalDataFormat)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RestError(RestErrorCode.IllegalDataFormat)
    const data = (parsed as Record<string, unknown>).Data
    // Empty Data is valid (empty) hex: it fails to deserialise, 43001 (§1.5 matrix).
    if (typeof data !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(data)) throw new RestError(RestErrorCode.InvalidParams)
    const raw = Uint8Array.from(Buffer.from(data, 'hex'))
    if (raw.length < 2 || raw[0] !== 0) throw new RestError(RestErrorCode.InvalidTransaction)
    if (raw[1] !== TX_TYPE_EIP155) {
      // An unknown TxType does not deserialise ("unsupported tx type"): 43001 with Result "" (§1.5, §2.3).
      if (!NATIVE_TX_TYPES.has(raw[1]!)) throw new RestError(RestErrorCode.InvalidTransaction)
      return sendNative(ctx.chain, raw, flag(query.preExec))
    }
    const rlp = decodeVarBytes(raw, 2)
    if (rlp === undefined) throw new RestError(RestErrorCode.InvalidTransaction)
    // The node decodes the RLP and applies TransactionFromEIP155 (chain id, sender,
    // whole-gwei price) while deserialising the raw bytes, before preExec or the pool
    // (core/types/transaction.go decodeEip155): any failure there is 43001 with Result "".
    let tx: LegacyTransaction
    try {
      tx = decodeLegacyTransaction(rlp, ctx.chain.executor.chainId)
    } catch (err) {
      if (err instanceof TransactionRejectedError) throw new RestError(RestErrorCode.InvalidTransaction, '', { cause: err })
      throw err
    }
    try {
      if (flag(query.preExec)) {
        const { from } = tx
        const outcome = await ctx.chain.preExecute({
          from,
          to: tx.to,
          data: tx.data,
          value: tx.value,
          gasLimit: tx.gasLimit,
          gasPrice: tx.gasPrice,
        })
        // As the node's ConvertPreExecuteResult: the logs of the EVM run (value Transfer
        // logs included, the fee's last, as the engine ends them), as IsEvm notifies; null when there are none.
        const notify = outcome.logs.map((log) => ({ ContractAddress: toReversedHex(log[0]), States: serializeEvmLog(log), IsEvm: true }))
        return {
          State: outcome.status,
          Gas: u64(outcome.gasUsed),
          // The node marshals the EVM return bytes as a Go []byte: base64, and null when
          // empty (the EVM returns a nil slice for empty return data) (§1.4.7).
          Result: outcome.returnValue.length === 0 ? null : Buffer.from(outcome.returnValue).toString('base64'),
          Notify: notify.length === 0 ? null : notify,
        }
      }
      return toReversedHex(await ctx.chain.submitTransaction(tx))
    } catch (err) {
      if (err instanceof TransactionRejectedError) throw new RestError(RestErrorCode.Unknown, err.message, { cause: err })
      throw err
    }
  },
}
