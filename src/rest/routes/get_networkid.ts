import type { RestRoute } from '../context.ts'

/** get_networkid: 3 on a solo node (reference §0). */
export const get_networkid: RestRoute<'/api/v1/networkid'> = {
  method: 'GET',
  path: '/api/v1/networkid',
  action: 'getnetworkid',
  fork: { kind: 'local' },
  handle: (ctx) => ctx.networkId,
}
