import type { RestRoute } from '../context.ts'

/** get_blk_height: the current height (genesis = 0). */
export const get_blk_height: RestRoute<'/api/v1/block/height'> = {
  method: 'GET',
  path: '/api/v1/block/height',
  action: 'getblockheight',
  fork: { kind: 'local' },
  handle: (ctx) => ctx.chain.height,
}
