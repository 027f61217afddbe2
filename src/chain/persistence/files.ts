/**
 * The CLI's persistence on disk: a LevelDB directory through classic-level (an
 * optional dependency, loaded only when `--db` is used), and state documents as
 * files (`--load-state`, `--dump-state`, `--state`).
 */
import { existsSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import type { LevelDatabase } from '../store.ts'
import { PersistenceError } from './errors.ts'
import { stateFromBytes, type StateDocument } from './stateDocument.ts'

/**
 * A classic-level (LevelDB) database in directory `dir`, created if missing, not
 * opened yet (createDevnet opens it). Throws {@link PersistenceError} when
 * classic-level is not installed (it is an optional dependency with prebuilt binaries).
 */
export async function openLevelDirectory(dir: string): Promise<LevelDatabase> {
  let ClassicLevel: typeof import('classic-level').ClassicLevel
  try {
    ;({ ClassicLevel } = await import('classic-level'))
  } catch (err) {
    throw new PersistenceError(`--db needs the optional package classic-level, which could not be loaded (npm install classic-level): ${(err as Error).message}`, { cause: err })
  }
  return new ClassicLevel<string, string>(dir) as unknown as LevelDatabase
}

/** Whether a file exists at `path` (`--state`: load it only if it does). */
export function fileExists(path: string): boolean {
  return existsSync(path)
}

/** Reads a state document file: JSON, or gzipped JSON. Throws {@link PersistenceError} naming the file. */
export async function readStateFile(path: string): Promise<unknown> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (err) {
    throw new PersistenceError(`cannot read the state file ${path}: ${(err as Error).message}`, { cause: err })
  }
  try {
    return stateFromBytes(bytes)
  } catch (err) {
    throw new PersistenceError(`the state file ${path} is ${(err as Error).message}`, { cause: err })
  }
}

/** Writes `doc` to `path` as indented JSON, through a temporary file renamed over it (never a half-written file). */
export async function writeStateFile(path: string, doc: StateDocument): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(doc, null, 2)}\n`)
  await rename(temporary, path)
}
