/**
 * The disk cache of a fork's fetched values (docs/fork.md "The disk cache"): one file
 * per remote and fork block, `<dir>/<chain id>/<url hash>-<block>.json`, read when a
 * fork of the same remote at the same block starts (if the remote's block hash there is
 * still the one recorded). CI runs the same suite against the same fork many times;
 * each run after the first needs the remote only for values no run has read yet.
 *
 * The file is a JSON document ({@link CacheFile}) on its first line, followed by a
 * journal: one JSON line per value fetched and per history answer kept or dropped
 * since, appended a moment after each fetch. A fetch thus writes what it brought, not
 * every value fetched before it (issue 35: rewriting the whole file made n fetches
 * write n² bytes). The file is rewritten whole, journal folded in, when the journal
 * outgrows the document (so the bytes written stay within three times those appended)
 * and when the devnet closes; history answers in it are bounded as in memory
 * (fork/answerCache.ts).
 */
import { createHash } from 'node:crypto'
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FetchedValue, ForkSource, ForkValueKind, ForkValues } from './source.ts'
import { historyKey, type HistoryValues } from './history.ts'
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

/** Milliseconds after a fetch before the journal is appended (fetches of one request come together). */
const WRITE_DELAY = 200

/** Bytes the journal may exceed the document by before the file is rewritten whole. */
const JOURNAL_SLACK = 1024 * 1024

/**
 * One journal line: a value fetched (`v`), a JSON-RPC history answer kept (`h`) or
 * dropped (`-h`, by its key: history.ts `historyKey`), a REST one kept (`r`) or dropped (`-r`).
 */
type JournalLine = ['v', ForkValueKind, string, unknown] | ['h', string, unknown[], unknown] | ['-h', string] | ['r', string, number, string] | ['-r', string]

/** What a cache file holds once its journal is applied; `undefined` for a file of another fork or none. */
function readCache(text: string, meta: Omit<CacheFile, 'version' | 'values' | 'history' | 'rest'>): { values: ForkValues; history?: HistoryValues; rest?: RestHistoryValues } | undefined {
  const lines = text.split('\n')
  const held = JSON.parse(lines[0]!) as CacheFile
  if (held.version !== 1 || held.blockHash !== meta.blockHash || held.url !== meta.url || (held.restUrl ?? null) !== meta.restUrl || held.chainId !== meta.chainId) return undefined
  if (lines.length === 1) return held
  const values = held.values as unknown as Record<string, Record<string, unknown>>
  const history = new Map((held.history ?? []).map((e) => [historyKey({ method: e[0], params: e[1] }), e]))
  const rest = new Map((held.rest ?? []).map((e) => [e[0], e]))
  for (const text of lines.slice(1)) {
    let line: JournalLine
    try {
      line = JSON.parse(text) as JournalLine
    } catch {
      // A line cut short (the process died while appending) ends the journal.
      break
    }
    if (!Array.isArray(line)) break
    if (line[0] === 'v') (values[line[1]] ??= {})[line[2]] = line[3]
    else if (line[0] === 'h') history.set(historyKey({ method: line[1], params: line[2] }), [line[1], line[2], line[3]])
    else if (line[0] === '-h') history.delete(line[1])
    else if (line[0] === 'r') rest.set(line[1], [line[1], line[2], line[3]])
    else if (line[0] === '-r') rest.delete(line[1])
  }
  return { values: held.values, history: [...history.values()], rest: [...rest.values()] }
}

/** A cache file bound to its fork. */
export interface ForkCacheWriter {
  /** Writes now what waits for the next write (appends the journal, or rewrites the file when due). */
  flush(): Promise<void>
}

/**
 * Binds `source` to the cache file `file`: takes the values it holds (when it was made
 * for the same block hash) and writes the fetched values back. Resolves once the
 * values are taken; an unreadable or foreign file is ignored (and later replaced).
 */
export async function attachForkCache(source: ForkSource, file: string, meta: Omit<CacheFile, 'version' | 'values' | 'history' | 'rest'>): Promise<ForkCacheWriter> {
  /** Bytes of the document (the first line) and of the journal after it. */
  let documentBytes = 0
  let journalBytes = 0
  try {
    const text = await readFile(file, 'utf8')
    const held = readCache(text, meta)
    if (held !== undefined) {
      source.restore(held.values)
      if (held.history !== undefined) source.history?.restore(held.history)
      if (held.rest !== undefined) source.restHistory?.restore(held.rest)
      documentBytes = text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')
      journalBytes = text.length - documentBytes
    }
  } catch {
    // No file yet, or one that cannot be used: the fork fetches from the remote and writes a new one.
  }
  /** Without a document of this fork the first write is a whole one. */
  let whole = documentBytes === 0
  const values: FetchedValue[] = []
  const history = new Set<string>()
  const rest = new Set<string>()
  const journal = (): string => {
    const lines: JournalLine[] = []
    for (const { kind, key } of values.splice(0)) {
      const value = source.valueOf(kind, key)
      if (value === undefined) continue
      lines.push(['v', kind, key, value])
      const codeHash = kind === 'accounts' ? (value as string[])[2]! : ''
      if (codeHash !== '') lines.push(['v', 'code', codeHash, source.valueOf('code', codeHash)])
    }
    for (const key of history) {
      const entry = source.history?.entry(key)
      lines.push(entry === undefined ? ['-h', key] : ['h', ...entry])
    }
    history.clear()
    for (const path of rest) {
      const entry = source.restHistory?.entry(path)
      lines.push(entry === undefined ? ['-r', path] : ['r', ...entry])
    }
    rest.clear()
    return lines.map((line) => `\n${JSON.stringify(line)}`).join('')
  }
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()
  /** Appends the journal of what came since the last write, or rewrites the file whole (`compact`, or when the journal outgrew the document). */
  const write = (compact: boolean): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    writing = writing
      .then(async () => {
        const lines = journal()
        if (lines === '' && !compact && !whole) return
        await mkdir(dirname(file), { recursive: true })
        if (!whole && !compact && journalBytes + lines.length <= documentBytes + JOURNAL_SLACK) {
          await appendFile(file, lines)
          journalBytes += lines.length
          return
        }
        if (!whole && journalBytes === 0 && lines === '') return
        const content: CacheFile = { version: 1, ...meta, values: source.values(), history: source.history?.values(), rest: source.restHistory?.values() }
        const text = JSON.stringify(content)
        // Whole or not at all: a reader never sees half a file.
        const partial = `${file}.${process.pid}.tmp`
        await writeFile(partial, text)
        await rename(partial, file)
        whole = false
        documentBytes = text.length
        journalBytes = 0
      })
      .catch(() => {})
    return writing
  }
  const schedule = (): void => {
    timer ??= setTimeout(() => write(false), WRITE_DELAY).unref()
  }
  source.onFetch((value) => {
    if (value !== undefined) values.push(value)
    schedule()
  })
  source.history?.cache.watch((key) => {
    history.add(key)
    schedule()
  })
  source.restHistory?.cache.watch((path) => {
    rest.add(path)
    schedule()
  })
  // At the end the journal is folded in: the file is one document again, as a dualnet before the journal reads it.
  source.onClose = () => write(true)
  return { flush: () => write(false) }
}
