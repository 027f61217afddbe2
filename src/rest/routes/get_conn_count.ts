import type { RestRoute } from '../context.ts'

/** get_conn_count: connected nodes; 1 on a solo node (reference §1.2). */
export const get_conn_count: RestRoute<'/api/v1/node/connectioncount'> = {
  method: 'GET',
  path: '/api/v1/node/connectioncount',
  action: 'getconnectioncount',
  fork: { kind: 'local' },
  handle: () => 1,
}
