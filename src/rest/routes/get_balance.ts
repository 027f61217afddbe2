import type { RestRoute } from '../context.ts'
import { parseBase58 } from '../params.ts'
import { V2_PER_V1 } from '../../core/constants.ts'

/**
 * get_balance: v1 units (main whole tokens, gas 1e-9) as decimal strings, with the
 * height; Base58 addresses only (§1.4.3). Keys are the spec's `main` and `gas`.
 */
export const get_balance: RestRoute<'/api/v1/balance/:addr'> = {
  method: 'GET',
  path: '/api/v1/balance/:addr',
  action: 'getbalance',
  fork: { kind: 'nativeState', what: 'main-token balances are' },
  handle: (ctx, { params }) => {
    const account = ctx.chain.account(parseBase58(params.addr!))
    return { main: String(account.main / V2_PER_V1), gas: String(account.gas / V2_PER_V1), height: String(ctx.chain.height) }
  },
}
