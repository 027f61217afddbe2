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

/**
 * A route: method, path template (`:name` matches `\w+`), the envelope's Action, and
 * its handler, whose Result must be what {@link DualnetRestSchema} says route `T` answers.
 */
export interface RestRoute<T extends RestRouteTemplate> {
  readonly method: Extract<DualnetRestSchema[number], { Path: T }>['Method']
  readonly path: T
  readonly action: string
  /** Resolves to the Result; throws RestError for a failure. */
  handle(ctx: RestContext, request: RestRequest): Served<RouteResults<T>> | Promise<Served<RouteResults<T>>>
}

/** A route of any template: the union of each template's {@link RestRoute}. */
export type AnyRestRoute = { [T in RestRouteTemplate]: RestRoute<T> }[RestRouteTemplate]
