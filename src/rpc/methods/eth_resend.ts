import { defineMethod } from '../declare.ts'
import { optional, quantity, transactionRequest } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { completeTransaction } from '../transactionRequest.ts'
import { fromHex, toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_resend(request, gasPrice?, gasLimit?): replaces the pending transaction of
 * `request.from` with `request.nonce` by `request` with the new gas price and gas limit
 * (wei; absent or zero: the request's own), signed again by the dev account (or sent
 * as an impersonated one), and answers the new hash, as go-ethereum's
 * TransactionAPI.Resend and Anvil's `resend_transaction` (foundry
 * crates/anvil/src/eth/api.rs). The nonce is required; no pending transaction of the
 * sender with it is -32000 `transaction not found`. The replacement passes the pool's
 * rules, so its gas price must top the old one by more than 1 % (the pool's refusal:
 * `a transaction with the same nonce exists in the pool`, go-ethereum's `replacement
 * transaction underpriced`).
 */
export const eth_resend = defineMethod({
  name: 'eth_resend',
  params: [transactionRequest('request'), optional(quantity('gasPrice'), undefined), optional(quantity('gasLimit'), undefined)],
  fork: { kind: 'local' },
  handler: async (ctx, [f, gasPrice, gasLimit]) => {
    if (f.nonce === undefined) throw invalidArgument(0, 'missing transaction nonce in transaction spec')
    const from = toHexRaw(f.from)
    const signer = ctx.signers.get(from)
    if (signer === undefined && !ctx.controls.isImpersonated(f.from)) throw new RpcError(RpcErrorCode.ServerError, `unknown account ${toHex(f.from)}`)
    if (ctx.chain.mempool.bySenderNonce(from, f.nonce) === undefined) throw new RpcError(RpcErrorCode.ServerError, 'transaction not found')
    const request = { ...f, gasPrice: gasPrice === undefined || gasPrice === 0n ? f.gasPrice : gasPrice, gas: gasLimit === undefined || gasLimit === 0n ? f.gas : gasLimit }
    const fields = await completeTransaction(ctx, request, f.from)
    const key = signer === undefined ? undefined : fromHex(signer.privateKey)
    return toHex(await ctx.chain.submitFromAccount(fields, f.from, key, false))
  },
})
