import type { RestRoute } from '../context.ts'

/** get_mempooltxcount: [verified in pool, pending verification]; the devnet verifies on submission (§8). */
export const get_mempooltxcount: RestRoute<'/api/v1/mempool/txcount'> = {
  method: 'GET',
  path: '/api/v1/mempool/txcount',
  action: 'getmempooltxcount',
  fork: { kind: 'local' },
  handle: (ctx) => [ctx.chain.mempool.size, 0],
}
