import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { formatTransaction } from '../format.ts'

/** eth_pendingTransactions (non-standard, reference §6.2): pending EVM transactions, null when there are none. */
export const eth_pendingTransactions: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  const pending = ctx.chain.mempool.all()
  return pending.length === 0 ? null : pending.map((tx) => formatTransaction(tx, undefined))
}
