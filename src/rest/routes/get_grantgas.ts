import type { RestRoute } from '../context.ts'
import { parseAddress } from '../params.ts'

/** get_grantgas (and /grantong): gas accrued but not yet claimable; "0" on a solo node (reference §4.2). */
export const get_grantgas: RestRoute = {
  method: 'GET',
  path: '/api/v1/grantgas/:addr',
  action: 'getgrantgas',
  handle: (_ctx, { params }) => {
    parseAddress(params.addr!)
    return '0'
  },
}

/** The real node's spelling, which the TypeScript SDK calls (reference §7.1). */
export const get_grantong: RestRoute = { ...get_grantgas, path: '/api/v1/grantong/:addr', action: 'getgrantong' }
