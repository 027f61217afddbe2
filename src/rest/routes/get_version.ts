import type { RestRoute } from '../context.ts'

/** get_version: the node version string. */
export const get_version: RestRoute<'/api/v1/version'> = {
  method: 'GET',
  path: '/api/v1/version',
  action: 'getversion',
  fork: { kind: 'local' },
  handle: (ctx) => ctx.nodeVersion,
}
