import type { RestRequest, RestRoute, RestContext } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseAddress } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'
import { V2_PER_V1 } from '../../core/constants.ts'

/** Asset names: the spec's `main`/`gas` and the real node's `ont`/`ong`, any letter case (§1.2). */
function parseAsset(text: string | undefined): 'main' | 'gas' {
  const asset = text?.toLowerCase()
  if (asset === 'main' || asset === 'ont') return 'main'
  if (asset === 'gas' || asset === 'ong') return 'gas'
  throw new RestError(RestErrorCode.InvalidParams)
}

/** The fork policy of every allowance route: native state. */
const ALLOWANCES = { kind: 'nativeState', what: 'allowances are' } as const

/** Allowance in v2 units of the asset from one account to another, read from path or query. */
function allowance(ctx: RestContext, { params, query }: RestRequest): { token: 'main' | 'gas'; amount: bigint } {
  const token = parseAsset(params.asset ?? query.asset)
  const from = params.from ?? query.from
  const to = params.to ?? query.to
  if (from === undefined || to === undefined) throw new RestError(RestErrorCode.InvalidParams)
  const owner = toHexRaw(parseAddress(from))
  const spender = toHexRaw(parseAddress(to))
  const amount = ctx.chain.world.getAllowance(token, owner, spender, ctx.chain.height)
  return { token, amount }
}

/** get_allowance: v1 units (main whole tokens, gas 1e-9) as a decimal string. */
export const get_allowance: RestRoute<'/api/v1/allowance/:asset/:from/:to'> = {
  method: 'GET',
  path: '/api/v1/allowance/:asset/:from/:to',
  action: 'getallowance',
  fork: ALLOWANCES,
  handle: (ctx, request) => {
    const { amount } = allowance(ctx, request)
    return String(amount / V2_PER_V1)
  },
}

/**
 * get_allowancev2: v2 units (main 1e-9, gas 1e-18), in path form and in the spec's
 * query form `?asset=&from=&to=` (the real node routes it to the v1 handler by a bug;
 * reference decisions table).
 */
export const get_allowancev2: RestRoute<'/api/v1/allowancev2/:asset/:from/:to'> = {
  method: 'GET',
  path: '/api/v1/allowancev2/:asset/:from/:to',
  action: 'getallowancev2',
  fork: ALLOWANCES,
  handle: (ctx, request) => String(allowance(ctx, request).amount),
}

/** The query form of get_allowancev2. */
export const get_allowancev2_query: RestRoute<'/api/v1/allowancev2'> = { ...get_allowancev2, path: '/api/v1/allowancev2', fork: ALLOWANCES }
