import { defineMethod } from '../declare.ts'
import { transactionRequest } from '../paramSpecs.ts'
import { eth_sendTransaction } from './eth_sendTransaction.ts'
import { receiptWithin, syncTimeout } from './eth_sendRawTransactionSync.ts'
import { fromHex } from '../../util/hex.ts'

/**
 * eth_sendTransactionSync (EIP-7966's sync form of eth_sendTransaction, as
 * eth_sendRawTransactionSync is of eth_sendRawTransaction): signs and sends as
 * eth_sendTransaction does (a dev account or an impersonated one), then answers the
 * receipt once mined; `timeout` in milliseconds (default 2,000, at most 60,000), error
 * code 4 with the hash as data when not mined by then. Local.
 */
export const eth_sendTransactionSync = defineMethod({
  name: 'eth_sendTransactionSync',
  params: [transactionRequest('request'), syncTimeout('timeout')],
  fork: { kind: 'local' },
  handler: async (ctx, [request, timeout], call) => {
    const hash = await eth_sendTransaction.handler(ctx, [request], call)
    return receiptWithin(ctx, fromHex(hash as string), timeout)
  },
})
