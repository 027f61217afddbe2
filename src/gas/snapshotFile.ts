/**
 * The snapshot file of gas snapshots (./snapshots.ts) on disk: read, and written with
 * a run's measurements merged into it. Several processes may write one file at once
 * (vitest's workers, a CLI beside them): each write reads the file, merges and renames a
 * new file over it while it holds a lock file beside it (`<file>.lock`, made with `wx`),
 * so that no process's measurements are lost.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { type GasSnapshotEntries, mergeGasSnapshots } from './snapshots.ts'

/** How long a writer waits for another's lock, in milliseconds, before it takes a lock older than {@link STALE_LOCK_MS} as left behind by a crash. */
const LOCK_WAIT_MS = 10_000
/** A lock older than this, in milliseconds, was left by a process that stopped while holding it: a write takes a few. */
const STALE_LOCK_MS = 5_000

/**
 * The entries of the snapshot file at `path`; `{}` when there is none. Throws an Error
 * naming the file when it is not a JSON object of decimal strings.
 */
export function readGasSnapshotFile(path: string): GasSnapshotEntries {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw err
  }
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string' && /^\d+$/.test(v))) {
    throw new Error(`${path} is not a gas snapshot file: a JSON object from names to gas as decimal strings`)
  }
  return parsed as GasSnapshotEntries
}

/** Blocks the thread for `ms` (a lock wait of a few milliseconds; Atomics.wait needs no event loop turn). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Runs `write` while holding `<path>.lock`. */
function withLock<T>(path: string, write: () => T): T {
  const lock = `${path}.lock`
  const until = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      let age = 0
      try {
        age = Date.now() - statSync(lock).mtimeMs
      } catch {
        continue // released meanwhile
      }
      if (age > STALE_LOCK_MS || Date.now() > until) rmSync(lock, { force: true })
      else pause(5)
    }
  }
  try {
    return write()
  } finally {
    rmSync(lock, { force: true })
  }
}

/**
 * Merges `measured` into the snapshot file at `path` (made, with its directory, if
 * missing), under its lock, and returns what the file then holds. The new file is
 * written beside it and renamed over it: a reader never sees half a file.
 */
export function writeGasSnapshotFile(path: string, measured: ReadonlyMap<string, bigint>): GasSnapshotEntries {
  mkdirSync(dirname(path), { recursive: true })
  return withLock(path, () => {
    const merged = mergeGasSnapshots(readGasSnapshotFile(path), measured)
    const temporary = `${path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(merged, null, 2)}\n`)
    renameSync(temporary, path)
    return merged
  })
}
