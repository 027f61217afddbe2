/**
 * The CLI's persistence on disk: a LevelDB directory through classic-level (an
 * optional dependency, loaded only when `--db` is used), and state documents as
 * files (`--load-state`, `--dump-state`, `--state`).
 */
import { constants as fsConstants, existsSync, openSync } from 'node:fs'
import { Socket } from 'node:net'
import { copyFile, link, mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { constants as bufferConstants } from 'node:buffer'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { STAND_IN, type LevelDatabase, type StandIn } from './store.ts'
import { CorruptDatabaseError, PersistenceError } from './errors.ts'
import { hasTableFooter, levelFile, readManifest, type Manifest } from './levelFiles.ts'
import { readStateBytes, type StateDocument, type StateReadLimits } from './stateDocument.ts'

/** The engine's longest string: no JSON text beyond it can be parsed. */
const MAX_STRING_LENGTH = bufferConstants.MAX_STRING_LENGTH

/**
 * The classic-level (LevelDB) database of `--db <dir>`, for `createDevnet({ db })`.
 *
 * A directory that does not exist or holds no LevelDB data files gets a new database
 * (created when the devnet opens it). Any other is checked before LevelDB touches it,
 * because opening a LevelDB database writes to it (a new LOG and MANIFEST, its log
 * turned into a table; without CURRENT, a new empty database that deletes every table):
 * first its files (CURRENT names a MANIFEST that exists, every table that MANIFEST lists
 * is there at its recorded size and ends with a table footer), then LevelDB opens a
 * stand-in, a directory next to it (or in the system's temporary directory) holding
 * hard links to those tables and copies of the rest, and must recover its logs without
 * dropping a record. The stand-in is what the devnet reads the chain from; once the chain
 * passes every check (persistence/resume.ts), the stand-in is removed and the real
 * directory opened ({@link StandIn}). A refused directory is left byte for byte as it was.
 *
 * Throws {@link CorruptDatabaseError} naming the problem and the ways out, and
 * {@link PersistenceError} when classic-level is not installed (an optional dependency
 * with prebuilt binaries).
 */
export async function openLevelDirectory(dir: string): Promise<LevelDatabase> {
  let ClassicLevel: typeof import('classic-level').ClassicLevel
  try {
    ;({ ClassicLevel } = await import('classic-level'))
  } catch (err) {
    throw new PersistenceError(`--db needs the optional package classic-level, which could not be loaded (npm install classic-level): ${(err as Error).message}`, { cause: err })
  }
  const names = await directoryNames(dir)
  const data = names.filter((name) => !['lock', 'info-log'].includes(levelFile(name)?.kind ?? 'lock'))
  if (data.length === 0) {
    const strangers = names.filter((name) => levelFile(name) === undefined)
    if (strangers.length > 0) throw refusal(dir, `it is not a LevelDB database: it holds other files (${listed(strangers)})`, 'new')
    return new ClassicLevel<string, string>(dir) as unknown as LevelDatabase
  }
  let standIn: string
  try {
    standIn = await makeStandIn(dir, await checkFiles(dir, names))
  } catch (err) {
    throw refusal(dir, (err as Error).message, 'repair')
  }
  const db = new ClassicLevel<string, string>(standIn, { createIfMissing: false })
  const discard = async () => {
    if (db.status === 'open' || db.status === 'opening') await db.close()
    await rm(standIn, { recursive: true, force: true })
  }
  try {
    await db.open()
    await checkRecovery(standIn)
  } catch (err) {
    await discard()
    throw refusal(dir, err instanceof PersistenceError ? err.message : `LevelDB cannot open it: ${levelMessage(err)}`, 'repair')
  }
  const accept = async (): Promise<LevelDatabase> => {
    await discard()
    const real = new ClassicLevel<string, string>(dir, { createIfMissing: false })
    try {
      await real.open()
    } catch (err) {
      throw new CorruptDatabaseError(`the database in ${dir} could not be opened: ${levelMessage(err)}`, { cause: err })
    }
    return real as unknown as LevelDatabase
  }
  const unreadable = (detail: string) => refusal(dir, `LevelDB cannot read it: ${detail}`, 'repair')
  return Object.assign(db as unknown as LevelDatabase, { [STAND_IN]: { accept, discard, unreadable } satisfies StandIn })
}

/** The names in `dir`; none when it does not exist. Throws {@link CorruptDatabaseError} for a file or an unreadable directory. */
async function directoryNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return []
    if (code === 'ENOTDIR') throw refusal(dir, 'it is a file, not a directory', 'new')
    throw refusal(dir, `it cannot be read: ${(err as Error).message}`, 'new')
  }
}

/** The files of the database in `dir` that LevelDB reads on opening it: CURRENT, the MANIFEST, live tables, logs. */
interface DatabaseFiles {
  manifest: string
  /** Tables the MANIFEST lists (all of them: hard-linked into the stand-in). */
  tables: string[]
  /** Logs LevelDB recovers on opening (copied). */
  logs: string[]
}

/** Checks the files of the database in `dir` whose entries are `names`; throws {@link PersistenceError} naming the first problem. */
async function checkFiles(dir: string, names: string[]): Promise<DatabaseFiles> {
  if (!names.includes('CURRENT')) {
    throw new PersistenceError(`its CURRENT file, which names the MANIFEST (LevelDB's index of its tables), is missing (it holds ${listed(names)})`)
  }
  const current = await readFile(join(dir, 'CURRENT'), 'latin1')
  const manifest = /^(MANIFEST-\d+)\n$/.exec(current)?.[1]
  if (manifest === undefined) throw new PersistenceError(`its CURRENT file does not name a MANIFEST (it reads ${JSON.stringify(current.slice(0, 40))})`)
  if (!names.includes(manifest)) throw new PersistenceError(`its CURRENT file names ${manifest}, which is missing`)
  let index: Manifest
  try {
    index = await readManifest(join(dir, manifest))
  } catch (err) {
    throw new PersistenceError(`its ${manifest} is corrupt: ${(err as Error).message}`)
  }
  const tables: string[] = []
  for (const { number, size } of index.tables) {
    const name = names.find((n) => levelFile(n)?.kind === 'table' && (levelFile(n) as { number: number }).number === number)
    if (name === undefined) throw new PersistenceError(`the table ${String(number).padStart(6, '0')}.ldb, listed in its ${manifest}, is missing`)
    const actual = (await stat(join(dir, name))).size
    if (actual !== size) throw new PersistenceError(`the table ${name} has ${actual} bytes where its ${manifest} records ${size}: it was cut short or written over`)
    if (!(await hasTableFooter(join(dir, name), size))) throw new PersistenceError(`the table ${name} does not end with a LevelDB table footer: it was zeroed or written over`)
    tables.push(name)
  }
  // LevelDB recovers the logs from the MANIFEST's log number up, and its previous log (DBImpl::Recover).
  const logs = names.filter((name) => {
    const file = levelFile(name)
    return file?.kind === 'log' && (file.number >= index.logNumber || file.number === index.prevLogNumber)
  })
  return { manifest, tables, logs }
}

/**
 * A new directory beside `dir`, `.<name>.check-<pid>-<six random characters from mkdtemp>` (in the system's temporary
 * directory when that fails), holding the database's files: its tables hard-linked
 * (LevelDB never writes to a table it has written, and the stand-in's new files get
 * numbers above every listed one), CURRENT, the MANIFEST and the logs copied (LevelDB
 * replaces them on opening). Stand-ins beside `dir` of processes no longer running (one
 * killed while it read its chain) are removed first.
 */
async function makeStandIn(dir: string, files: DatabaseFiles): Promise<string> {
  const absolute = resolve(dir)
  const prefix = `.${basename(absolute)}.check-`
  await removeStaleStandIns(dirname(absolute), prefix)
  let standIn: string
  try {
    standIn = await mkdtemp(join(dirname(absolute), `${prefix}${process.pid}-`))
  } catch {
    standIn = await mkdtemp(join(tmpdir(), `dualnet-check-${process.pid}-`))
  }
  try {
    for (const name of files.tables) {
      await link(join(dir, name), join(standIn, name)).catch(() => copyFile(join(dir, name), join(standIn, name)))
    }
    for (const name of ['CURRENT', files.manifest, ...files.logs]) await copyFile(join(dir, name), join(standIn, name))
  } catch (err) {
    await rm(standIn, { recursive: true, force: true })
    throw new PersistenceError(`a stand-in to check it could not be made in ${standIn}: ${(err as Error).message}`)
  }
  return standIn
}

/** Removes the directories `<parent>/<prefix><pid>-…` whose process is gone (signal 0 finds none). */
async function removeStaleStandIns(parent: string, prefix: string): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[])
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1])
    if (!Number.isSafeInteger(pid) || pid === process.pid || processRuns(pid)) continue
    await rm(join(parent, name), { recursive: true, force: true })
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Throws {@link PersistenceError} when LevelDB, opening the stand-in, dropped part of
 * a log: without paranoid checks (classic-level sets none) it skips a damaged record and
 * says so only in its LOG, `… 000005.log: dropping 23 bytes; Corruption: checksum
 * mismatch` (DBImpl::RecoverLogFile), or `Ignoring error …` for a batch that does not
 * apply. A record cut off at the end of a log is not a drop: a writer killed mid-write.
 */
async function checkRecovery(standIn: string): Promise<void> {
  const log = await readFile(join(standIn, 'LOG'), 'utf8').catch(() => '')
  const dropped = /(\d+\.log): dropping (\d+) bytes; (.*)$/m.exec(log)
  if (dropped !== null) throw new PersistenceError(`its log ${dropped[1]} is damaged: LevelDB would drop ${dropped[2]} bytes of it (${dropped[3]})`)
  const ignored = /Ignoring error (.*)$/m.exec(log)
  if (ignored !== null) throw new PersistenceError(`a log of it is damaged: LevelDB would skip a write (${ignored[1]})`)
}

/** LevelDB's message of a classic-level error (abstract-level wraps it; the cause holds it). */
function levelMessage(err: unknown): string {
  return (err as { cause?: Error }).cause?.message ?? (err as Error).message
}

/** `names` for a message, the first few. */
function listed(names: string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`
}

/** The refusal of `dir` for `problem`, with the ways out: LevelDB's repair on a copy (a damaged database), or another directory. */
function refusal(dir: string, problem: string, way: 'repair' | 'new'): CorruptDatabaseError {
  const repair = `LevelDB's repair may salvage it: copy the directory, run node -e "require('classic-level').ClassicLevel.repair(process.argv[1])" <copy> and start with --db <copy>; or start a new chain with a new --db directory`
  const fresh = 'give --db a new or empty directory'
  return new CorruptDatabaseError(`the database in ${dir} is refused, and left as it was: ${problem}. ${way === 'repair' ? repair : fresh}`)
}

/** Whether a file exists at `path` (`--state`: load it only if it does). */
export function fileExists(path: string): boolean {
  return existsSync(path)
}

/** Bytes read from a state file at a time. */
const READ_CHUNK = 1024 * 1024

/**
 * Reads the state document file `path` given to `flag` (`--load-state`, `--state`):
 * JSON, or gzipped JSON, within `limits` (the `--state-limit` and
 * `--json-depth-limit` flags, as anvil_loadState reads a document). The file is read
 * in chunks and refused once it holds more than `stateLimit` bytes, whatever it is: a
 * regular file, a pipe, or a device without end such as /dev/zero, which `readFile`
 * read until memory ran out (issue 35). The inflating and the depth scan run off the
 * event loop's one step (stateDocument.ts `readStateBytes`), so a signal stops the CLI
 * meanwhile. Throws {@link PersistenceError} naming the flag and the file.
 */
export async function readStateFile(path: string, limits: StateReadLimits, flag: string): Promise<unknown> {
  const max = Math.min(limits.stateLimit, MAX_STRING_LENGTH)
  const tooLarge = () => new PersistenceError(`${flag} ${path}: the file holds more than ${max} bytes, the most a state document may have (--state-limit)`)
  let bytes: Buffer
  try {
    const kind = await stat(path)
    bytes = kind.isFIFO() || kind.isSocket() ? await readPipe(path, max, tooLarge) : await readChunks(path, max, tooLarge)
  } catch (err) {
    if (err instanceof PersistenceError) throw err
    throw new PersistenceError(`${flag} ${path}: the file cannot be read: ${(err as Error).message}`, { cause: err })
  }
  try {
    return await readStateBytes(bytes, limits)
  } catch (err) {
    const text = (err as Error).message.replace('(option stateLimit)', '(--state-limit)').replace('(option jsonDepthLimit)', '(--json-depth-limit)')
    throw new PersistenceError(`${flag} ${path}: the file holds no state document: ${text}`, { cause: err })
  }
}

/** A regular file or a device, read chunk by chunk on libuv's threads; `tooLarge()` is thrown past `max` bytes. */
async function readChunks(path: string, max: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = []
  let length = 0
  const file = await open(path, 'r')
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, max + 1 - length))
      const { bytesRead } = await file.read(chunk, 0, chunk.length)
      if (bytesRead === 0) return Buffer.concat(chunks, length)
      chunks.push(chunk.subarray(0, bytesRead))
      length += bytesRead
      if (length > max) throw tooLarge()
    }
  } finally {
    await file.close().catch(() => {})
  }
}

/**
 * A named pipe (or `<(command)`'s /dev/fd/N), opened without blocking and read on the
 * event loop as a socket; `tooLarge()` is thrown past `max` bytes. Not on libuv's
 * threads: opening a FIFO there waits for a writer, and a thread that waits keeps the
 * process from exiting (process.exit joins the threads), so a signal could not stop a
 * CLI whose `--load-state` pipe has no writer.
 */
function readPipe(path: string, max: number, tooLarge: () => Error): Promise<Buffer> {
  const socket = new Socket({ fd: openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK), readable: true, writable: false })
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    socket.on('data', (chunk: Buffer) => {
      length += chunk.length
      chunks.push(chunk)
      if (length > max) {
        socket.destroy()
        reject(tooLarge())
      }
    })
    socket.once('end', () => {
      socket.destroy()
      resolve(Buffer.concat(chunks, length))
    })
    socket.once('error', reject)
  })
}

/**
 * Checks at start-up that `--dump-state` (or `--state`, given as `flag`) can write
 * `path` at exit, so that a state is not lost for a path that was never writable
 * (`--dump-state /proc/x/y` was taken and failed only at exit, issue 35): `path` is
 * not a directory, and its directory exists and takes the temporary file
 * {@link writeStateFile} writes first (made and removed here). Throws
 * {@link PersistenceError} naming the flag and the reason.
 */
export async function checkStateTarget(path: string, flag: string): Promise<void> {
  const refuse = (why: string, cause?: unknown) => new PersistenceError(`${flag} ${path}: the state cannot be written there: ${why}`, { cause })
  const target = await stat(path).catch(() => undefined)
  if (target?.isDirectory()) throw refuse('it is a directory')
  const dir = dirname(resolve(path))
  const parent = await stat(dir).catch((err: NodeJS.ErrnoException) => err)
  if (parent instanceof Error) throw refuse(parent.code === 'ENOENT' ? `its directory ${dir} does not exist` : `its directory ${dir} cannot be read (${parent.message})`, parent)
  if (!parent.isDirectory()) throw refuse(`${dir} is not a directory`)
  const temporary = temporaryOf(path)
  try {
    await (await open(temporary, 'wx')).close()
  } catch (err) {
    throw refuse(`a file cannot be made in ${dir} (${(err as Error).message})`, err)
  }
  await rm(temporary, { force: true })
}

/** The temporary file {@link writeStateFile} writes before renaming it over `path`. */
function temporaryOf(path: string): string {
  return `${path}.${process.pid}.tmp`
}

/** Writes `doc` to `path` as indented JSON, through a temporary file renamed over it (never a half-written file). */
export async function writeStateFile(path: string, doc: StateDocument): Promise<void> {
  const temporary = temporaryOf(path)
  await writeFile(temporary, `${JSON.stringify(doc, null, 2)}\n`)
  await rename(temporary, path)
}
