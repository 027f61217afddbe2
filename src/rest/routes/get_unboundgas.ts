import type { RestRoute } from '../context.ts'
import { parseAddress } from '../params.ts'
import { MAIN_TOKEN_ADDRESS, V2_PER_V1 } from '../../core/constants.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * get_unboundgas (and the SDK's /unboundong spelling): claimable gas of an address,
 * the gas-token allowance from the main-token contract to it, v1 units (§4.2). On a
 * solo node nothing accrues, so it stays "0" unless the devnet's `unboundGas` is on.
 */
export const get_unboundgas: RestRoute<'/api/v1/unboundgas/:addr'> = {
  method: 'GET',
  path: '/api/v1/unboundgas/:addr',
  action: 'getunboundgas',
  fork: { kind: 'nativeState', what: 'unbound gas (an allowance) is' },
  handle: (ctx, { params }) => {
    const address = toHexRaw(parseAddress(params.addr!))
    const allowance = ctx.chain.world.getAllowance('gas', toHexRaw(MAIN_TOKEN_ADDRESS), address, ctx.chain.height)
    return String(allowance / V2_PER_V1)
  },
}

/** The real node's spelling, which the TypeScript SDK calls (reference §7.1). */
export const get_unboundong: RestRoute<'/api/v1/unboundong/:addr'> = { ...get_unboundgas, path: '/api/v1/unboundong/:addr', action: 'getunboundong' }
