import { defineMethod } from '../declare.ts'
import { transactionRequest } from '../paramSpecs.ts'
import { completeTransaction } from '../transactionRequest.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_sendUnsignedTransaction (Anvil, crates/anvil/src/eth/api.rs
 * send_unsigned_transaction): sends a transaction from any `from` without a signature,
 * as an impersonated account's is sent (no key, the sender taken as given), without
 * impersonating it. Missing fields are filled as eth_sendTransaction fills them
 * (nonce from the pending count, gasPrice, gas from eth_estimateGas); answers the
 * hash. -32602 for a request without `from`. Local.
 */
export const eth_sendUnsignedTransaction = defineMethod({
  name: 'eth_sendUnsignedTransaction',
  params: [transactionRequest('request')],
  fork: { kind: 'local' },
  handler: async (ctx, [f]) => {
    const fields = await completeTransaction(ctx, f, f.from)
    return toHex(await ctx.chain.submitFromAccount(fields, f.from, undefined, f.nonce === undefined))
  },
})
