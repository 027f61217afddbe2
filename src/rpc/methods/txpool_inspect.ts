import type { EvmTransaction } from '../../chain/transaction.ts'
import { defineMethod } from '../declare.ts'
import { bySender, poolByState } from '../txpool.ts'
import { checksumAddress } from '../../util/checksumAddress.ts'

/**
 * txpool_inspect: `{ pending, queued }`, each `{ [EIP-55 sender]: { [decimal nonce]: summary } }`,
 * the summary in geth's words (TxPoolAPI.Inspect): `<EIP-55 to>: <value> wei + <gas> gas × <gasPrice> wei`,
 * or `contract creation: …` without a recipient; amounts in decimal.
 */
export const txpool_inspect = defineMethod({
  name: 'txpool_inspect',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const { pending, queued } = poolByState(ctx.chain)
    return { pending: bySender(pending, summary), queued: bySender(queued, summary) }
  },
})

function summary({ tx }: EvmTransaction): string {
  const cost = `${tx.value} wei + ${tx.gasLimit} gas × ${tx.gasPrice} wei`
  return tx.to === undefined ? `contract creation: ${cost}` : `${checksumAddress(tx.to)}: ${cost}`
}
