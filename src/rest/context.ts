/**
 * What REST handlers work with, and the shape of a route.
 */
import type { Chain } from '../chain/chain.ts'

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

/** A route: method, path template (`:name` matches `\w+`), the envelope's Action, and its handler. */
export interface RestRoute {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly action: string
  /** Resolves to the Result; throws RestError for a failure. */
  handle(ctx: RestContext, request: RestRequest): unknown | Promise<unknown>
}
