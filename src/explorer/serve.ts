/**
 * The explorer page (issue 37) as the JSON-RPC server serves it at `/explorer`
 * (src/server/rpcServer.ts, the `pages` option; src/devnet/servers.ts loads this module
 * only with the listen option `explorer: true`). Four files: the HTML shell, the
 * script and the style sheet (assets.ts: built into dist/ or, from src/, bundled on
 * first request) and `config.json`, which tells the page where the REST server is;
 * and the explorer's read API under `/explorer/api/` (api/router.ts), what the page
 * needs that neither interface answers.
 *
 * Every answer carries a strict Content-Security-Policy: scripts and styles from this
 * origin only (the shell has no inline script or style), connections to this origin
 * (JSON-RPC and its WebSocket) and to the REST server, no frames, forms or plugins.
 * The page renders chain data as text nodes (preact escapes every string), never as HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Chain } from '../chain/chain.ts'
import { answerApi } from './api/router.ts'
import type { ExplorerArtifacts } from './artifacts.ts'
import { type ExplorerAssets, explorerAssets } from './assets.ts'

/** Where the page lives on the JSON-RPC server. */
export const EXPLORER_PREFIX = '/explorer'

/** Where the explorer's read API lives, below the prefix. */
const API_PREFIX = '/api'

/** What the page fetches first (`config.json`): the REST server's base URL, when REST is on, and whether it shows its controls. */
export interface ExplorerConfig {
  restUrl: string | null
  /** Mine, snapshot / revert, move time: shown only when the server listens on loopback. */
  controls: boolean
}

/**
 * Whether `host` binds loopback only (127.0.0.0/8, ::1, localhost). The page's controls
 * are shown only then: beyond loopback other people's browsers can reach the page, and
 * the switch keeps a shared devnet from offering them a button that rewinds the chain.
 */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/**
 * The REST server's URL as the browser that asked can reach it: the host name of the
 * request's Host header (the one the browser reached this server by, which the Host
 * check has let through) with the REST server's port. Bound beyond loopback
 * (`0.0.0.0`, `::`), the devnet's own URL names the wildcard address, which no
 * browser on another machine can open; both servers listen on the same addresses, so
 * the name that reached one reaches the other. Without a Host header, `restUrl` as is.
 */
export function restUrlFor(restUrl: string, host: string | undefined): string {
  if (host === undefined || host === '') return restUrl
  const rest = new URL(restUrl)
  let reached: URL
  try {
    reached = new URL(`http://${host}`)
  } catch {
    return restUrl
  }
  rest.hostname = reached.hostname
  return rest.origin
}

/**
 * The `pages` handler of the JSON-RPC server for the explorer. `urls` gives the
 * devnet's URLs once both servers are bound (`undefined` before: the config then
 * names no REST server); `controls` shows the page's controls; `chain` is what the
 * API reads, `artifacts` the contracts it names (the `explorer: { artifacts }` option).
 * A path under the prefix that is none of the files gets 404.
 */
export function explorerPages(
  urls: () => { readonly restUrl?: string | undefined } | undefined,
  { controls, chain, artifacts }: { controls: boolean; chain: Chain; artifacts?: ExplorerArtifacts | undefined },
): {
  prefix: string
  serve: (request: IncomingMessage, response: ServerResponse) => void
} {
  return {
    prefix: EXPLORER_PREFIX,
    serve(request, response) {
      const url = request.url ?? EXPLORER_PREFIX
      const query = url.indexOf('?')
      const path = (query === -1 ? url : url.slice(0, query)).slice(EXPLORER_PREFIX.length)
      const bound = urls()?.restUrl
      const restUrl = bound === undefined ? null : restUrlFor(bound, request.headers.host)
      if (path.startsWith(API_PREFIX)) {
        answerApi(chain, path.slice(API_PREFIX.length), new URLSearchParams(query === -1 ? '' : url.slice(query + 1)), { artifacts })
          .catch((err: unknown) => ({ status: 500, body: JSON.stringify({ error: err instanceof Error ? err.message : 'unknown error' }) }))
          .then((answered) => send(response, answered.status, 'application/json; charset=utf-8', request.method === 'HEAD' ? undefined : answered.body, restUrl, Buffer.byteLength(answered.body)))
        return
      }
      answer(path, { restUrl, controls })
        .then((file) => {
          if (file === undefined) return send(response, 404, 'text/plain; charset=utf-8', 'not found\n', restUrl)
          send(response, 200, file.type, request.method === 'HEAD' ? undefined : file.body, restUrl, Buffer.byteLength(file.body))
        })
        .catch((err: unknown) => send(response, 500, 'text/plain; charset=utf-8', `explorer assets unavailable: ${err instanceof Error ? err.message : 'unknown error'}\n`, restUrl))
    },
  }
}

/** The file at `path` (below the prefix), or `undefined`. */
async function answer(path: string, config: ExplorerConfig): Promise<{ type: string; body: string } | undefined> {
  if (path === '' || path === '/' || path === '/index.html') return { type: 'text/html; charset=utf-8', body: SHELL }
  if (path === '/config.json') return { type: 'application/json; charset=utf-8', body: JSON.stringify(config) }
  const assets: ExplorerAssets = await explorerAssets()
  if (path === '/app.js') return { type: 'text/javascript; charset=utf-8', body: assets.script }
  if (path === '/app.css') return { type: 'text/css; charset=utf-8', body: assets.style }
  return undefined
}

/** The HTML shell: no inline script or style, so the CSP below needs no 'unsafe-inline'. */
const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dualnet explorer</title>
<link rel="stylesheet" href="${EXPLORER_PREFIX}/app.css">
<script type="module" src="${EXPLORER_PREFIX}/app.js"></script>
</head>
<body><main id="app">Loading…</main></body>
</html>
`

/** The CSP of every answer: this origin (and its WebSocket, CSP3's 'self') and the REST server. */
function contentSecurityPolicy(restUrl: string | null): string {
  const connect = restUrl === null ? "'self'" : `'self' ${new URL(restUrl).origin}`
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src ${connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
}

function send(response: ServerResponse, status: number, type: string, body: string | undefined, restUrl: string | null, length = body === undefined ? 0 : Buffer.byteLength(body)): void {
  response.statusCode = status
  response.setHeader('content-type', type)
  response.setHeader('content-length', length)
  response.setHeader('content-security-policy', contentSecurityPolicy(restUrl))
  response.setHeader('x-content-type-options', 'nosniff')
  response.setHeader('referrer-policy', 'no-referrer')
  response.setHeader('cache-control', 'no-store')
  response.end(body)
}
