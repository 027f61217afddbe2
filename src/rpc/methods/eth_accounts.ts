import { alias, defineMethod } from '../declare.ts'
import { toHex } from '../../util/hex.ts'

/** eth_accounts: the dev accounts (the real node has none; every devnet does). */
export const eth_accounts = defineMethod({
  name: 'eth_accounts',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.accountOrder.map((a) => toHex(a)),
})

/** eth_requestAccounts (EIP-1102): {@link eth_accounts}; a devnet asks no one's permission, as Anvil answers it. */
export const eth_requestAccounts = alias('eth_requestAccounts', eth_accounts)
