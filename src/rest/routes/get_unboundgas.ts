import type { RestRoute } from '../context.ts'
import { parseAddress } from '../params.ts'

/**
 * get_unboundgas (and the SDK's /unboundong spelling): claimable gas of an address.
 * On a solo node the unbound deadline is 0, so holders never accrue and it is "0"
 * (reference §4.2); accrual arrives with native transactions.
 */
export const get_unboundgas: RestRoute = {
  method: 'GET',
  path: '/api/v1/unboundgas/:addr',
  action: 'getunboundgas',
  handle: (_ctx, { params }) => {
    parseAddress(params.addr!)
    return '0'
  },
}

/** The real node's spelling, which the TypeScript SDK calls (reference §7.1). */
export const get_unboundong: RestRoute = { ...get_unboundgas, path: '/api/v1/unboundong/:addr', action: 'getunboundong' }
