/**
 * The disk cache of a fork's fetched values (docs/fork.md "The disk cache"): one JSON
 * file per remote and fork block, `<dir>/<chain id>/<url hash>-<block>.json`, read when a
 * fork of the same remote at the same block starts (if the remote's block hash there is
 * still the one recorded) and written a moment after each fetch and when the devnet
 * closes. CI runs the same suite against the same fork many times; each run after the
 * first needs the remote only for values no run has read yet.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ForkSource, ForkValues } from './source.ts'
import type { HistoryValues } from './history.ts'
import type { RestHistoryValues } from './restHistory.ts'

/** What a cache file holds. */
interface CacheFile {
  version: 1
  url: string
  /** The REST URL the native values came from, or `null` (none fetched). */
  restUrl: string | null
  chainId: number
  blockNumber: number
  /** The fork block's hash (0x-hex): a file for a block the remote no longer has is not used. */
  blockHash: string
  values: ForkValues
  /**
   * The remote's answers about blocks, transactions and logs up to the fork block
   * (fork/history.ts). Optional: a file written before history was forked has
   * none, and a program of that time ignores it, so the version stays 1.
   */
  history?: HistoryValues
  /**
   * With REST: the remote's REST answers about blocks, transactions, events and merkle
   * proofs up to the fork block (fork/restHistory.ts). Optional, as `history` is.
   */
  rest?: RestHistoryValues
}

/** The default cache directory: `$XDG_CACHE_HOME/dualnet/fork`, else `~/.cache/dualnet/fork`. */
export function defaultForkCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME !== undefined && process.env.XDG_CACHE_HOME !== '' ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache')
  return join(base, 'dualnet', 'fork')
}

/** The cache file of a remote (`url`, `chainId`, and `restUrl` when native state is forked) at `blockNumber` under `dir`. */
export function forkCacheFile(dir: string, chainId: number, url: string, blockNumber: number, restUrl?: string): string {
  const urlHash = createHash('sha256')
    .update(restUrl === undefined ? url : `${url} ${restUrl}`)
    .digest('hex')
    .slice(0, 16)
  return join(dir, String(chainId), `${urlHash}-${blockNumber}.json`)
}

/** Milliseconds after a fetch before the file is written (fetches of one request come together). */
const WRITE_DELAY = 200

/**
 * Binds `source` to the cache file `file`: takes the values it holds (when it was made
 * for the same block hash) and writes the fetched values back. Resolves once the
 * values are taken; an unreadable or foreign file is ignored (and later replaced).
 */
export async function attachForkCache(source: ForkSource, file: string, meta: Omit<CacheFile, 'version' | 'values' | 'history' | 'rest'>): Promise<void> {
  try {
    const held = JSON.parse(await readFile(file, 'utf8')) as CacheFile
    if (held.version === 1 && held.blockHash === meta.blockHash && held.url === meta.url && (held.restUrl ?? null) === meta.restUrl && held.chainId === meta.chainId) {
      source.restore(held.values)
      if (held.history !== undefined) source.history?.restore(held.history)
      if (held.rest !== undefined) source.restHistory?.restore(held.rest)
    }
  } catch {
    // No file yet, or one that cannot be used: the fork fetches from the remote and writes a new one.
  }
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()
  const write = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    writing = writing
      .then(async () => {
        const content: CacheFile = { version: 1, ...meta, values: source.values(), history: source.history?.values(), rest: source.restHistory?.values() }
        await mkdir(dirname(file), { recursive: true })
        // Whole or not at all: a reader never sees half a file.
        const partial = `${file}.${process.pid}.tmp`
        await writeFile(partial, JSON.stringify(content))
        await rename(partial, file)
      })
      .catch(() => {})
    return writing
  }
  source.onFetch(() => {
    timer ??= setTimeout(write, WRITE_DELAY).unref()
  })
  source.onClose = () => (timer === undefined ? writing : write())
}
