import type { RestContext, RestRoute } from '../context.ts'

const status = (ctx: RestContext) => ({ CurrentBlockHeight: ctx.chain.height, ConnectCount: 1, MaxPeerBlockHeight: 1 })

/** get_syncstatus at the spec's doubled path; the solo constants of §1.2. */
export const get_syncstatus: RestRoute<'/api/v1/api/v1/node/syncstatus'> = {
  method: 'GET',
  path: '/api/v1/api/v1/node/syncstatus',
  action: 'getsyncstatus',
  fork: { kind: 'local' },
  handle: status,
}

/** get_syncstatus at the real node's path (reference decisions table: serve both). */
export const get_syncstatus_node: RestRoute<'/api/v1/node/syncstatus'> = { ...get_syncstatus, path: '/api/v1/node/syncstatus' }
