import { defineMethod } from '../declare.ts'
import { data, numberish, optional, param } from '../paramSpecs.ts'
import { RpcError, invalidArgument } from '../errors.ts'
import { formatReceipt } from '../format.ts'
import type { RpcContext } from '../context.ts'
import type { Numberish, RpcReceipt } from '../../core/rpcObjects.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/** How long a sync send waits without a timeout param, in ms (go-ethereum's default `rpc.txsync.defaulttimeout`, 2s). */
export const TX_SYNC_DEFAULT_TIMEOUT_MS = 2_000
/** The longest wait a sync send takes, in ms (go-ethereum's `rpc.txsync.maxtimeout`, 1 minute); a longer timeout is cut to it. */
export const TX_SYNC_MAX_TIMEOUT_MS = 60_000
/** EIP-7966's error code for a transaction in the pool but not mined within the timeout (go-ethereum internal/ethapi/errors.go errCodeTxSyncTimeout). */
export const TX_SYNC_TIMEOUT_CODE = 4

/** A timeout param: a positive number of milliseconds (JSON number or QUANTITY), as EIP-7966 takes it; absent or null, the default. */
export const syncTimeout = (name: string) =>
  optional(
    param<Numberish, number>(name, (value, index, ctx) => {
      const ms = numberish(name).parse(value, index, ctx)
      if (ms <= 0) throw invalidArgument(index, `${name} must be a positive number of milliseconds`)
      return Math.min(ms, TX_SYNC_MAX_TIMEOUT_MS)
    }),
    TX_SYNC_DEFAULT_TIMEOUT_MS,
  )

/**
 * The receipt of the EVM transaction `hash` (raw bytes) once a block includes it; with
 * automine, at once. After `timeoutMs` without it, EIP-7966's error: code 4, the hash as
 * data, and go-ethereum's message naming the wait (internal/ethapi/api.go
 * SendRawTransactionSync). Waits on the chain's block reports, never by polling.
 */
export function receiptWithin(ctx: RpcContext, hash: Uint8Array, timeoutMs: number): Promise<RpcReceipt> {
  const key = toHexRaw(hash)
  const mined = (): RpcReceipt | undefined => {
    const found = ctx.chain.transaction(key)
    return found === undefined || found.tx.kind !== 'evm' ? undefined : formatReceipt(found.tx, found.record, found)
  }
  const now = mined()
  if (now !== undefined) return Promise.resolve(now)
  return new Promise((resolve, reject) => {
    const stop = ctx.chain.watch({
      blocks: () => {
        const receipt = mined()
        if (receipt === undefined) return
        clearTimeout(timer)
        stop()
        resolve(receipt)
      },
    })
    const timer = setTimeout(() => {
      stop()
      reject(new RpcError(TX_SYNC_TIMEOUT_CODE, `The transaction was added to the transaction pool but wasn't processed in ${timeoutMs / 1000}s`, { data: toHex(hash) }))
    }, timeoutMs)
  })
}

/**
 * eth_sendRawTransactionSync (EIP-7966): eth_sendRawTransaction, then the transaction's
 * receipt once mined (with automine: at once). `timeout` in milliseconds (default 2,000,
 * at most 60,000, go-ethereum's defaults); not mined by then, error code 4 with the hash
 * as data. A transaction the pool refuses is refused as eth_sendRawTransaction refuses
 * it. Local (the fork's own pool).
 */
export const eth_sendRawTransactionSync = defineMethod({
  name: 'eth_sendRawTransactionSync',
  params: [data('raw'), syncTimeout('timeout')],
  fork: { kind: 'local' },
  handler: async (ctx, [raw, timeout]) => receiptWithin(ctx, await ctx.chain.submitRawTransaction(raw), timeout),
})
