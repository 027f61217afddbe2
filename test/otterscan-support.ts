/**
 * Otterscan for the browser test (test/otterscan-browser.test.ts): built from its source at
 * a pinned commit into a cache directory outside the repository (reused when present, as
 * .ci/run keeps its Node 22 binary), and served on loopback by a tiny static server with
 * the `config.json` and signature assets the test gives it.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { homedir } from 'node:os'
import { extname, join, normalize, sep } from 'node:path'

/** The Otterscan commit the test builds: v2.10.0's line, the one whose Cypress tests run against Anvil. */
export const OTTERSCAN_COMMIT = '9dfd87fb4f159fabeac085431085e86f3418628a'

/**
 * Where Otterscan's source is fetched from: `DUALNET_OTTERSCAN_GIT` (a URL or a local git
 * directory, e.g. a mirror for machines without GitHub), else GitHub.
 */
export const OTTERSCAN_GIT = process.env.DUALNET_OTTERSCAN_GIT ?? 'https://github.com/otterscan/otterscan.git'

/** The cache directory of the built app: `DUALNET_OTTERSCAN_DIR`, else `$XDG_CACHE_HOME/dualnet-ci/otterscan` (`~/.cache/…`). */
export const OTTERSCAN_CACHE = process.env.DUALNET_OTTERSCAN_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'dualnet-ci', 'otterscan')

/** Written last by a build that finished: a directory without it is a build cut short, built again. */
const MARKER = '.dualnet-built'

/** Runs a program, its output kept (shown when it fails); rejects on a non-zero exit. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code} in ${cwd}:\n${output.slice(-4000)}`))))
  })
}

/**
 * The directory of Otterscan's built app (`dist/`, with `index.html`), building it first
 * when the cache holds none: the source at {@link OTTERSCAN_COMMIT} fetched from
 * {@link OTTERSCAN_GIT} (a shallow fetch of that one commit), its dependencies by `npm ci
 * --ignore-scripts` from the registry (the build needs no install script: esbuild, SWC and
 * sharp come as prebuilt platform packages), then `vite build` (Otterscan's `build` script
 * without its `tsc` check). Built in a temporary directory and renamed into place, so a
 * build cut short is never taken for a finished one. Minutes on a first run.
 * @throws when git, npm or the build fails (with the end of its output).
 */
export async function otterscanDist(): Promise<string> {
  const dir = join(OTTERSCAN_CACHE, OTTERSCAN_COMMIT)
  if (existsSync(join(dir, MARKER)) && existsSync(join(dir, 'dist', 'index.html'))) return join(dir, 'dist')
  mkdirSync(OTTERSCAN_CACHE, { recursive: true })
  const work = `${dir}.tmp-${process.pid}`
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work)
  try {
    await run('git', ['init', '-q'], work)
    await run('git', ['fetch', '-q', '--depth', '1', OTTERSCAN_GIT, OTTERSCAN_COMMIT], work)
    await run('git', ['checkout', '-q', 'FETCH_HEAD'], work)
    await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], work)
    await run(join(work, 'node_modules', '.bin', 'vite'), ['build'], work)
    if (!existsSync(join(work, 'dist', 'index.html'))) throw new Error(`vite build left no dist/index.html in ${work}`)
    writeFileSync(join(work, MARKER), `${OTTERSCAN_COMMIT}\n`)
    rmSync(dir, { recursive: true, force: true })
    renameSync(work, dir)
  } catch (error) {
    rmSync(work, { recursive: true, force: true })
    throw error
  }
  return join(dir, 'dist')
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
