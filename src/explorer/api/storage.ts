/**
 * `GET /explorer/api/storage/<address>?after=<slot>&limit=<n>`: the storage slots of a
 * contract that hold a value at the head, ordered by slot, a page at a time (`after`
 * is the `next` of the page before; `limit` 1..256, default 32). Slots and values are
 * 32-byte words in 0x hex, as eth_getStorageAt takes and answers them.
 *
 * On a fork, only the slots written here are listed: a remote's storage cannot be
 * enumerated through JSON-RPC (`forked`); eth_getStorageAt reads any one slot.
 */
import type { Chain } from '../../chain/chain.ts'
import { storageWord, toHexRaw } from '../../util/hex.ts'
import { ExplorerRequestError } from './errors.ts'
import { parseAccount, parseLimit } from './params.ts'
import type { ApiRoute } from './route.ts'
import type { StoragePage } from './types.ts'

export const storageRoute: ApiRoute = {
  name: 'storage',
  handle: (chain: Chain, id: string, query: URLSearchParams): StoragePage => {
    const address = toHexRaw(parseAccount(id))
    const after = query.get('after')
    if (after !== null && !/^0x[0-9a-f]{64}$/.test(after)) throw new ExplorerRequestError('after is a slot: 0x and 64 lower-case hex digits, the next of the page before')
    const limit = parseLimit(query, 32, 256)
    const all = [...chain.world.storageEntries(address, chain.height)]
      .map(([slot, value]) => ({ slot: `0x${slot}`, value: `0x${toHexRaw(storageWord(value))}` }))
      .sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0))
    const from = after === null ? 0 : all.findIndex((s) => s.slot > after)
    const slots = from === -1 ? [] : all.slice(from, from + limit)
    const more = from !== -1 && from + limit < all.length
    return { slots, total: all.length, next: more ? slots.at(-1)!.slot : null, forked: chain.fork !== undefined }
  },
}
