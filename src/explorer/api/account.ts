/**
 * `GET /explorer/api/account/<address>`: what an account holds that no single REST or
 * JSON-RPC read lists: the native-token allowances it gave and was given (the node
 * answers one owner–spender pair at a time, `/api/v1/allowance/{asset}/{from}/{to}`),
 * each in base units (main 1e-9, gas 1e-18), and the number of storage slots its code
 * holds. Unbound gas, the gas-token allowance from the main-token contract (reference
 * §4.2), is listed among the allowances given to it; the page shows it apart.
 *
 * On a fork, only what was written here is listed: the remote's allowances cannot be
 * enumerated through its interfaces (`forked`).
 */
import type { Chain } from '../../chain/chain.ts'
import { fromHex, toHexRaw } from '../../util/hex.ts'
import { bothForms, parseAccount } from './params.ts'
import type { ExplorerAccount, ListedAllowance } from './types.ts'
import type { ApiRoute } from './route.ts'

export const accountRoute: ApiRoute = {
  name: 'account',
  handle: (chain: Chain, id: string): ExplorerAccount => {
    const address = toHexRaw(parseAccount(id))
    const height = chain.height
    const given: ListedAllowance[] = []
    const received: ListedAllowance[] = []
    for (const [token, owner, spender, amount] of chain.world.allowanceEntries(height)) {
      if (owner !== address && spender !== address) continue
      const entry = { token, owner: bothForms(fromHex(owner)), spender: bothForms(fromHex(spender)), amount: amount.toString() }
      if (owner === address) given.push(entry)
      if (spender === address) received.push(entry)
    }
    let storageSlots = 0
    for (const _ of chain.world.storageEntries(address, height)) storageSlots++
    return { address: bothForms(fromHex(address)), given, received, storageSlots, forked: chain.fork !== undefined }
  },
}
