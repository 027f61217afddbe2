/**
 * The explorer's own read API, under `/explorer/api/`: what the page needs that neither
 * interface answers, read from the ledger the two views share. Each route is a file of
 * this folder (a name and a handler, ./route.ts); this module matches a request to one and renders
 * its answer or its error as JSON. Loaded only with the explorer (src/explorer/serve.ts).
 *
 * Answers: 200 with the route's JSON, `null` for a thing the chain does not hold (as
 * JSON-RPC answers an unknown hash: a miss is no error, and a browser logs none); 400
 * `{ "error": "..." }` for a malformed parameter; 404 for a path no route has. Every
 * route only reads: nothing a request sends changes the chain.
 */
import type { Chain } from '../../chain/chain.ts'
import { accountRoute } from './account.ts'
import { contractRoute, signatureRoute } from './contract.ts'
import { ExplorerRequestError } from './errors.ts'
import type { ApiContext, ApiRoute } from './route.ts'
import { storageRoute } from './storage.ts'
import { transactionRoute } from './transaction.ts'
import { transactionsRoute } from './transactions.ts'

const ROUTES: ReadonlyMap<string, ApiRoute> = new Map([accountRoute, contractRoute, signatureRoute, storageRoute, transactionRoute, transactionsRoute].map((r) => [r.name, r]))

/**
 * The answer to `path` (below `/explorer/api`, e.g. `/transaction/0x…`) as a status and
 * a JSON body. Rejects with what a route throws that is not a request's fault (an
 * unreadable artifact: the server answers 500 with its message).
 */
export async function answerApi(chain: Chain, path: string, query: URLSearchParams, context: ApiContext = {}): Promise<{ status: number; body: string }> {
  const [, name = '', id, ...rest] = path.split('/')
  const route = ROUTES.get(name)
  if (route === undefined || id === undefined || rest.length > 0) return error(404, `no explorer API at ${path}`)
  try {
    return { status: 200, body: JSON.stringify(await route.handle(chain, decodeURIComponent(id), query, context)) }
  } catch (err) {
    if (err instanceof ExplorerRequestError) return error(400, err.message)
    if (err instanceof URIError) return error(400, 'a malformed %-escape in the path')
    throw err
  }
}

function error(status: number, message: string): { status: number; body: string } {
  return { status, body: JSON.stringify({ error: message }) }
}
