/**
 * `GET /explorer/api/transactions/<address>?before=<height>:<index>&limit=<n>`: the
 * transactions of both kinds that touch an address, newest first, a page at a time.
 * Read from the chain's address index (chain/addressIndex.ts says what touches an
 * address: sender or payer, recipient, signers, created contract, log emitters, both
 * ends of value moves and token calls). `before` is the `next` of the page before; a
 * page holds at most `limit` (1..100, default 25).
 *
 * On a fork, only the blocks mined here are indexed: the page says so (`forked`).
 */
import type { TxPosition } from '../../chain/addressIndex.ts'
import type { Chain } from '../../chain/chain.ts'
import { toHexRaw } from '../../util/hex.ts'
import { ExplorerRequestError } from './errors.ts'
import { bothForms, parseAccount, parseLimit } from './params.ts'
import type { ApiRoute } from './route.ts'
import { describeTransaction } from './transaction.ts'
import type { ListedTransaction, TransactionPage } from './types.ts'

/** The query's `before` as a position (undefined: from the newest), or 400. */
function parseBefore(text: string | null): TxPosition | undefined {
  if (text === null) return undefined
  const match = /^(\d{1,10}):(\d{1,5})$/.exec(text)
  if (match === null) throw new ExplorerRequestError('before is <height>:<index>, the next of the page before')
  return { height: Number(match[1]), index: Number(match[2]) }
}

/** Whether `p` comes before `q` in chain order. */
const earlier = (p: TxPosition, q: TxPosition): boolean => p.height < q.height || (p.height === q.height && p.index < q.index)

export const transactionsRoute: ApiRoute = {
  name: 'transactions',
  handle: (chain: Chain, id: string, query: URLSearchParams): TransactionPage => {
    const address = toHexRaw(parseAccount(id))
    const before = parseBefore(query.get('before'))
    const limit = parseLimit(query, 25, 100)
    const touching = chain.transactionsTouching(address)
    const positions = before === undefined ? touching : touching.filter((p) => earlier(p, before))
    const page = positions.slice(-limit).reverse()
    const transactions = page.map(({ height, index }): ListedTransaction => {
      const block = chain.blockAt(height)!
      const tx = block.transactions[index]!
      const record = block.records[index]!
      const described = describeTransaction({ tx, block, index, record })
      if (tx.kind !== 'evm') return described
      const { to, value, data } = tx.tx
      return {
        ...described,
        evm: {
          to: to === undefined ? null : bothForms(to),
          created: record.contractAddress === undefined ? null : bothForms(record.contractAddress),
          value: value.toString(),
          selector: data.length >= 4 ? `0x${toHexRaw(data.subarray(0, 4))}` : null,
        },
      }
    })
    const last = page.at(-1)
    return {
      transactions,
      total: touching.length,
      next: positions.length > limit && last !== undefined ? `${last.height}:${last.index}` : null,
      forked: chain.fork !== undefined,
    }
  },
}
