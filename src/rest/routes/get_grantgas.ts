import type { RestRoute } from '../context.ts'
import { parseAddress } from '../params.ts'
import { calcUnboundGas } from '../../native/unboundGas.ts'
import { toHexRaw } from '../../util/hex.ts'
import { V2_PER_V1 } from '../../core/constants.ts'

/**
 * get_grantgas (and /grantong): gas accrued since the address's last grant and not
 * yet in its claimable allowance, at the chain's current time, v1 units (§4.2); "0" on
 * a solo node, where nothing accrues.
 */
export const get_grantgas: RestRoute<'/api/v1/grantgas/:addr'> = {
  method: 'GET',
  path: '/api/v1/grantgas/:addr',
  action: 'getgrantgas',
  fork: { kind: 'nativeState', what: 'main-token balances are' },
  handle: (ctx, { params }) => {
    const address = parseAddress(params.addr!)
    const rule = ctx.chain.unboundGas
    if (rule === undefined) return '0'
    const { chain } = ctx
    const offset = chain.world.getUnboundOffset(toHexRaw(address), chain.height)
    const now = chain.clock.now() - rule.genesis
    return String(calcUnboundGas(chain.account(address).main / V2_PER_V1, offset, now, rule.deadline))
  },
}

/** The real node's spelling, which the TypeScript SDK calls (reference §7.1). */
export const get_grantong: RestRoute<'/api/v1/grantong/:addr'> = { ...get_grantgas, path: '/api/v1/grantong/:addr', action: 'getgrantong' }
