/**
 * What REST handlers work with, and the shape of a route.
 */
import type { Chain } from '../chain/chain.ts'
import type { DualnetRestSchema, RestRouteTemplate } from './schema.ts'

/** Everything a REST handler may use. */
export interface RestContext {
  readonly chain: Chain
  /** The node version string (get_version). */
  readonly nodeVersion: string
  /** REST network id: 3 on a solo node (reference §0). */
  readonly networkId: number
}

/** One request as the handlers see it: path parameters, query values, and the raw body of a POST. */
export interface RestRequest {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | undefined>>
  readonly body?: string
}

/**
 * A Result as a handler returns it: a u64 may be a bigint where the schema says
 * number (beyond 2^53; the JSON writer puts its exact digits on the wire, rest/json.ts).
 */
export type Served<T> = T extends number ? number | bigint : T extends readonly unknown[] | object ? { [K in keyof T]: Served<T[K]> } : T

/** Every Result route `T` answers: its Result and, under a query flag, the flagged one (rest/schema.ts). */
type RouteResults<T extends RestRouteTemplate> =
  Extract<DualnetRestSchema[number], { Path: T }> extends infer E ? (E extends { Result: infer R; Flag: infer F } ? R | F[keyof F] : E extends { Result: infer R } ? R : never) : never

/** The names of template `T`'s path parameters (`'height'` for `/api/v1/block/hash/:height`). */
export type PathParams<T extends string> = T extends `${string}:${infer P}/${infer R}` ? P | PathParams<`/${R}`> : T extends `${string}:${infer P}` ? P : never

/**
 * Where a route's answer comes from on a fork (docs/fork.md), applied by the router
 * (rest/forkPolicy.ts) so that no handler branches on the fork; the names are the
 * JSON-RPC policies' (rpc/declare.ts `ForkPolicy`) where they mean the same. `param`
 * names the path parameter that places the request. Without a fork every route is
 * its handler's alone.
 *
 * - `local`: the devnet's own state only: the pool, the chain's height and blocks it
 *   built, constants, submission. The remote is never asked.
 * - `nativeState`: a read of native state (main-token balances, allowances, unbound
 *   gas), which the fork's state fetches from the remote's REST on first read. On a
 *   fork without the remote's REST URL it is refused, 45001 with
 *   `fork: <what> not forked: …` as Result (NotForkedError), at the handler's first
 *   read of the chain: after it has parsed its input, so that a malformed one is still
 *   42002 as on any node.
 * - `block`: a block by height (`by: 'height'`, `param` parses as a height) or by
 *   hash (`by: 'hash'`, a REST-form hash). A block at or below the fork block that the
 *   fork did not build is the remote's: the remote's REST answers the same route, with
 *   the parameter in canonical form and `?raw=1` when `raw` is declared and the
 *   request sets it (its Result as given, its error as an error of the same code). By
 *   hash, the answer counts only when its block lies at or below the fork block.
 * - `transaction`: a transaction by hash (`param`). One the devnet neither mined nor
 *   holds in its pool is the remote's when the remote mined it at or below the fork
 *   block (asked in one batch with its get_blk_hgt_by_txhash); `raw` as for `block`.
 * - `nativeStorage`: a contract's storage (`param` the contract, `key` the key,
 *   paired hex). A contract without EVM code here, other than the two token
 *   contracts, is the remote's native (or NeoVM) contract, which nothing on the fork
 *   can write: its storage is the remote's, any key length, fetched on first read
 *   (refused without the remote's REST URL).
 * - `nativeContract`: a contract's deploy payload (`param` the address). On a fork it
 *   is the remote's, fetched on first read (refused without the remote's REST URL):
 *   the fork holds no genesis block of its own.
 *
 * The remote-answered kinds read synchronously and throw ForkMiss while an answer is
 * not fetched (the router fetches it and runs the request again).
 */
export type RestForkPolicy<T extends RestRouteTemplate = RestRouteTemplate> =
  | { readonly kind: 'local' }
  | { readonly kind: 'nativeState'; readonly what: string }
  | { readonly kind: 'block'; readonly by: 'height' | 'hash'; readonly param: PathParams<T>; readonly raw?: true }
  | { readonly kind: 'transaction'; readonly param: PathParams<T>; readonly raw?: true }
  | { readonly kind: 'nativeStorage'; readonly param: PathParams<T>; readonly key: PathParams<T> }
  | { readonly kind: 'nativeContract'; readonly param: PathParams<T> }

/**
 * A route: method, path template (`:name` matches `\w+`), the envelope's Action, its
 * fork policy, and its handler, whose Result must be what {@link DualnetRestSchema}
 * says route `T` answers.
 */
export interface RestRoute<T extends RestRouteTemplate> {
  readonly method: Extract<DualnetRestSchema[number], { Path: T }>['Method']
  readonly path: T
  readonly action: string
  /** Where the answer comes from on a fork; the router applies it before (or instead of) the handler. */
  readonly fork: RestForkPolicy<T>
  /** Resolves to the Result; throws RestError for a failure. Never branches on the fork: {@link fork} does. */
  handle(ctx: RestContext, request: RestRequest): Served<RouteResults<T>> | Promise<Served<RouteResults<T>>>
}

/** A route of any template: the union of each template's {@link RestRoute}. */
export type AnyRestRoute = { [T in RestRouteTemplate]: RestRoute<T> }[RestRouteTemplate]
