import type { RestRoute } from '../context.ts'
import { parseBase58 } from '../params.ts'

/** get_balancev2: v2 units (main 1e-9, gas 1e-18 = wei, what eth_getBalance shows) as decimal strings (§1.4.3). */
export const get_balancev2: RestRoute<'/api/v1/balancev2/:addr'> = {
  method: 'GET',
  path: '/api/v1/balancev2/:addr',
  action: 'getbalancev2',
  fork: { kind: 'nativeState', what: 'main-token balances are' },
  handle: (ctx, { params }) => {
    const account = ctx.chain.account(parseBase58(params.addr!))
    return { main: String(account.main), gas: String(account.gas), height: String(ctx.chain.height) }
  },
}
