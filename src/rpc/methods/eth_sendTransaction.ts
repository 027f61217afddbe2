import { defineMethod } from '../declare.ts'
import { transactionRequest } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { completeTransaction } from '../transactionRequest.ts'
import { fromHex, toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_sendTransaction: signs with a dev account's key and submits as
 * eth_sendRawTransaction does; an impersonated address sends without a key. Missing fields are filled as wallets do: nonce from
 * the pending count (taken as the transaction joins the pool, so that overlapping sends get consecutive nonces), gasPrice from eth_gasPrice, gas from eth_estimateGas.
 * Errors: -32602 for a malformed request or one without `from`; -32000 `unknown account 0x…`
 * for an address that is neither a dev account nor impersonated.
 */
export const eth_sendTransaction = defineMethod({
  name: 'eth_sendTransaction',
  params: [transactionRequest('request')],
  fork: { kind: 'local' },
  handler: async (ctx, [f]) => {
    const signer = ctx.signers.get(toHexRaw(f.from))
    const impersonated = signer === undefined && ctx.controls.isImpersonated(f.from)
    if (signer === undefined && !impersonated) throw new RpcError(RpcErrorCode.ServerError, `unknown account ${toHex(f.from)}`)
    const fields = await completeTransaction(ctx, f, f.from)
    // Without a nonce in the request, the chain takes the pending nonce when it adds the transaction (overlapping sends get consecutive ones).
    const key = signer === undefined ? undefined : fromHex(signer.privateKey)
    return toHex(await ctx.chain.submitFromAccount(fields, f.from, key, f.nonce === undefined))
  },
})
