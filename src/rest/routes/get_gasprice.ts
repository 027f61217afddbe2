import type { RestRoute } from '../context.ts'
import { gasPriceGwei } from '../../chain/gasPrice.ts'

/** get_gasprice: average GasPrice of the latest block with transactions, or the pool minimum (§1.4.9). */
export const get_gasprice: RestRoute<'/api/v1/gasprice'> = {
  method: 'GET',
  path: '/api/v1/gasprice',
  action: 'getgasprice',
  fork: { kind: 'local' },
  handle: (ctx) => {
    const { gasPrice, height } = gasPriceGwei(ctx.chain)
    return { gasprice: Number(gasPrice), height }
  },
}
