import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { transactionRequest } from '../paramSpecs.ts'
import { completeTransaction } from '../transactionRequest.ts'
import type { RpcFilledTransaction } from '../../core/rpcObjects.ts'
import { keccak256 } from '../../util/hash.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/** A QUANTITY as RLP wants it: big-endian bytes without leading zeros (0 is empty). */
function unpadded(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0)
  const hex = value.toString(16)
  return Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'))
}

/**
 * eth_fillTransaction(request): go-ethereum's `SignTransactionResult` without signing
 * (internal/ethapi/api.go FillTransaction): the request completed as
 * eth_sendTransaction completes it (nonce from the pending count, gasPrice, gas from
 * eth_estimateGas; legacy, the chain's only type), as `raw` (the unsigned legacy RLP,
 * v, r and s empty, which is how go-ethereum's MarshalBinary writes an unsigned legacy
 * transaction) and `tx` (go-ethereum's transaction JSON: type, nonce, gasPrice, gas,
 * to, value, input, v, r, s "0x0", hash of `raw`; no chainId, as for an unprotected
 * one). `from` is required (-32602 without): the nonce is the sender's. Local.
 */
export const eth_fillTransaction = defineMethod({
  name: 'eth_fillTransaction',
  params: [transactionRequest('request')],
  fork: { kind: 'local' },
  handler: async (ctx, [f]) => {
    const t = await completeTransaction(ctx, f, f.from)
    const empty = new Uint8Array(0)
    const raw = RLP.encode([unpadded(t.nonce), unpadded(t.gasPrice), unpadded(t.gasLimit), t.to ?? empty, unpadded(t.value), t.data, empty, empty, empty])
    const result: RpcFilledTransaction = {
      raw: toHex(raw),
      tx: {
        type: '0x0',
        nonce: toQuantity(t.nonce),
        gasPrice: toQuantity(t.gasPrice),
        gas: toQuantity(t.gasLimit),
        to: t.to === undefined ? null : toHex(t.to),
        value: toQuantity(t.value),
        input: toHex(t.data),
        v: '0x0',
        r: '0x0',
        s: '0x0',
        hash: toHex(keccak256(raw)),
      },
    }
    return result
  },
})
