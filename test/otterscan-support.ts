/**
 * Otterscan for the browser test (test/otterscan-browser.test.ts): a build of Otterscan
 * given from outside (`DUALNET_OTTERSCAN_DIST`), served on loopback by a tiny static
 * server with the `config.json` and signature assets the test gives it.
 *
 * The repository holds no recipe that fetches or builds Otterscan: a program fetched
 * from another repository to test against stays out of the commits, its code, its
 * build and any script that would build it alike. So the test runs where a built
 * Otterscan is at hand (its own repository's build, `dist/` with `index.html`), and is
 * skipped, saying so, elsewhere (docs/tools.md).
 */
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

/** The Otterscan commit the test was written against: v2.10.0's line, the one whose Cypress tests run against Anvil. */
export const OTTERSCAN_COMMIT = '9dfd87fb4f159fabeac085431085e86f3418628a'

/**
 * The directory of a built Otterscan (`dist/`, with `index.html`) named by
 * `DUALNET_OTTERSCAN_DIST`, or `undefined` when none is given or it holds no
 * `index.html`.
 */
export function otterscanDist(): string | undefined {
  const dist = process.env.DUALNET_OTTERSCAN_DIST
  return dist !== undefined && dist !== '' && existsSync(join(dist, 'index.html')) ? dist : undefined
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webp': 'image/webp',
}

/** The path under which {@link serveOtterscan} serves the signature assets. */
export const ASSETS = '/ots-assets/'

/** A running static server: its origin (`http://127.0.0.1:<port>`) and how to stop it. */
export interface StaticSite {
  origin: string
  close: () => Promise<void>
}

/**
 * Serves Otterscan's `dist` on 127.0.0.1 (a free port): files as they are, `/config.json`
 * from `config(origin)` (the app fetches it at start), `/ots-assets/<path>` from `assets` (give
 * `${origin}/ots-assets` as `assetsURLPrefix`; `/assets/` is the app's own bundle) (what
 * otterscan-assets serves: `signatures/<4 bytes>`, `topic0/<hash>`; anything else 404), and
 * `index.html` for every other path, as Otterscan's nginx does for its client-side routes.
 */
export async function serveOtterscan(dist: string, config: (origin: string) => object, assets: Map<string, string>): Promise<StaticSite> {
  const root = normalize(dist) + sep
  const index = readFileSync(join(dist, 'index.html'))
  let origin = ''
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    if (path === '/config.json') {
      response.writeHead(200, { 'content-type': TYPES['.json']!, 'cache-control': 'no-store' })
      response.end(JSON.stringify(config(origin)))
      return
    }
    if (path.startsWith(ASSETS)) {
      const body = assets.get(path.slice(ASSETS.length))
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': TYPES['.txt']!, 'access-control-allow-origin': '*' })
      response.end(body ?? 'not found')
      return
    }
    const file = normalize(join(dist, path))
    if (file.startsWith(root) && existsSync(file) && extname(file) !== '') {
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      response.end(readFileSync(file))
      return
    }
    response.writeHead(200, { 'content-type': TYPES['.html']! })
    response.end(index)
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
