/** What a route of the explorer's read API is (./router.ts serves them): a name and a handler. */
import type { Chain } from '../../chain/chain.ts'
import type { ExplorerArtifacts } from '../artifacts.ts'

/** What the routes read besides the chain. */
export interface ApiContext {
  /** The contracts of the `artifacts` option (artifacts.ts); undefined without it. */
  readonly artifacts?: ExplorerArtifacts | undefined
}

/** One route: `/explorer/api/<name>/<id>`, with the query's parameters. */
export interface ApiRoute {
  /** The path segment after `/explorer/api/`. */
  readonly name: string
  /** The answer for `id` (the next segment, URI-decoded), or a promise of it; throws (or rejects with) {@link ExplorerRequestError} for bad input. */
  handle(chain: Chain, id: string, query: URLSearchParams, context: ApiContext): unknown
}
