/**
 * `--db` directories that must be refused without being changed (issue 23 item 1):
 * LevelDB writes to a database as it opens it (a new LOG and MANIFEST, its log turned
 * into a table; without CURRENT, a new empty database that deletes every table), so
 * openLevelDirectory checks the files first and lets LevelDB open only a stand-in.
 * Each damage is built on a real multi-table database, and every file's bytes are
 * compared before and after the refusal, LevelDB's LOG included.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet } from '../src/index.ts'
import { ChainMismatchError, CorruptDatabaseError } from '../src/persistence/errors.ts'
import { openLevelDirectory } from '../src/persistence/files.ts'
import { readManifest } from '../src/persistence/levelFiles.ts'
import { chainOf } from '../src/devnet/provider.ts'

const OPTIONS = { accounts: 1, console: false, clock: 'frozen', genesisTimestamp: 1_700_000_000 } as const
const root = mkdtempSync(join(tmpdir(), 'dualnet-damage-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A chain of 3,000 blocks written with a 64 KiB write buffer: several tables, a MANIFEST with many edits, a log. */
const source = join(root, 'source')
let counter = 0
beforeAll(async () => {
  const devnet = await createDevnet({ ...OPTIONS, db: new ClassicLevel<string, string>(source, { writeBufferSize: 64 * 1024 }) })
  for (let i = 0; i < 30; i++) {
    await devnet.mine(100)
    // Reading the head builds the reserved blocks, and the next batch writes them.
    await devnet.rpc('eth_getBlockByNumber', ['latest', false])
  }
  await devnet.close()
}, 120_000)

/** A copy of the source database in a directory of its own (`<parent>/db`); its parent shows any stand-in left behind. */
function copy(): string {
  const dir = join(root, `case-${counter++}`, 'db')
  cpSync(source, dir, { recursive: true })
  return dir
}

/** Every file of `dir` with its SHA-256, and the listing of its parent. */
function fingerprint(dir: string) {
  const files = Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  )
  return { files, siblings: readdirSync(join(dir, '..')) }
}

const start = async (dir: string, options: Parameters<typeof createDevnet>[0] = {}) => createDevnet({ ...OPTIONS, ...options, db: await openLevelDirectory(dir) })
/** The tables the MANIFEST lists, largest first (a table it does not list is garbage LevelDB deletes: damaging it changes nothing). */
const tables = async (dir: string) => {
  const manifest = readFileSync(join(dir, 'CURRENT'), 'latin1').trim()
  const live = (await readManifest(join(dir, manifest))).tables.sort((a, b) => b.size - a.size)
  return live.map((t) => `${String(t.number).padStart(6, '0')}.ldb`)
}
const newestLog = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .at(-1)!
const WAY_OUT = `LevelDB's repair may salvage it: copy the directory, run node -e "require('classic-level').ClassicLevel.repair(process.argv[1])" <copy> and start with --db <copy>; or start a new chain with a new --db directory`

/** Asserts that starting on `dir` is refused with `message` (after `the database in <dir> is refused, and left as it was: `) and changes no byte. */
async function refusedUntouched(dir: string, message: string | RegExp, options: Parameters<typeof createDevnet>[0] = {}) {
  const before = fingerprint(dir)
  const refusal = await start(dir, options).then(
    async (devnet) => {
      await devnet.close()
      throw new Error('the database was accepted')
    },
    (err: Error) => err,
  )
  expect(refusal).toBeInstanceOf(CorruptDatabaseError)
  const prefix = `the database in ${dir} is refused, and left as it was: `
  expect(refusal.message.startsWith(prefix)).toBe(true)
  if (typeof message === 'string') expect(refusal.message.slice(prefix.length)).toBe(message)
  else expect(refusal.message.slice(prefix.length)).toMatch(message)
  expect(fingerprint(dir)).toEqual(before)
}

describe('a damaged LevelDB directory is refused before LevelDB touches it', () => {
  it('CURRENT missing (it names the MANIFEST; LevelDB would start an empty database and delete every table)', async () => {
    const dir = copy()
    unlinkSync(join(dir, 'CURRENT'))
    await refusedUntouched(dir, /^its CURRENT file, which names the MANIFEST \(LevelDB's index of its tables\), is missing \(it holds \d+\.ldb, .*\)\. LevelDB's repair may salvage it/)
    expect(readdirSync(dir).filter((f) => f.endsWith('.ldb')).length).toBeGreaterThan(1)
  })

  it('CURRENT naming no MANIFEST, or a missing one', async () => {
    const garbage = copy()
    writeFileSync(join(garbage, 'CURRENT'), 'garbage\n')
    await refusedUntouched(garbage, `its CURRENT file does not name a MANIFEST (it reads "garbage\\n"). ${WAY_OUT}`)
    const missing = copy()
    writeFileSync(join(missing, 'CURRENT'), 'MANIFEST-000999\n')
    await refusedUntouched(missing, `its CURRENT file names MANIFEST-000999, which is missing. ${WAY_OUT}`)
  })

  it('a truncated table', async () => {
    const dir = copy()
    const [table] = await tables(dir)
    const size = statSync(join(dir, table!)).size
    truncateSync(join(dir, table!), 1000)
    await refusedUntouched(dir, `the table ${table} has 1000 bytes where its ${readFileSync(join(dir, 'CURRENT'), 'latin1').trim()} records ${size}: it was cut short or written over. ${WAY_OUT}`)
  })

  it('a zeroed table (its size intact)', async () => {
    const dir = copy()
    const [table] = await tables(dir)
    writeFileSync(join(dir, table!), Buffer.alloc(statSync(join(dir, table!)).size))
    await refusedUntouched(dir, `the table ${table} does not end with a LevelDB table footer: it was zeroed or written over. ${WAY_OUT}`)
  })

  it('a table gone', async () => {
    const dir = copy()
    const [table] = await tables(dir)
    unlinkSync(join(dir, table!))
    await refusedUntouched(dir, `the table ${table}, listed in its ${readFileSync(join(dir, 'CURRENT'), 'latin1').trim()}, is missing. ${WAY_OUT}`)
  })

  it('bytes flipped inside a table (its size and footer intact): refused as it is read, from the stand-in', async () => {
    const dir = copy()
    const [table] = await tables(dir)
    const bytes = readFileSync(join(dir, table!))
    // Without block checksums LevelDB may hand back garbage instead of an error: then a record does not decode or check.
    for (let k = 0; k < 16; k++) bytes[Math.floor(bytes.length * 0.7) + k]! ^= 0x5a
    writeFileSync(join(dir, table!), bytes)
    const before = fingerprint(dir)
    const refusal = await start(dir).then(
      () => new Error('accepted'),
      (err: Error) => err,
    )
    expect(refusal).toBeInstanceOf(CorruptDatabaseError)
    expect(refusal.message).toMatch(
      /^(the database in .* is refused, and left as it was: LevelDB cannot read it: Corruption: .*\. LevelDB's repair may salvage it|block \d+ in the database is corrupt: )/,
    )
    expect(fingerprint(dir)).toEqual(before)
  })

  it('garbage at the end of the log: a record whose checksum fails (LevelDB would drop it silently)', async () => {
    const dir = copy()
    const log = newestLog(dir)
    // A full record's header (checksum 0, 16 bytes, type 1) and 16 bytes that do not match it.
    appendFileSync(join(dir, log), Buffer.concat([Buffer.from([0, 0, 0, 0, 16, 0, 1]), Buffer.alloc(16, 0xab)]))
    await refusedUntouched(dir, `its log ${log} is damaged: LevelDB would drop 23 bytes of it (Corruption: checksum mismatch). ${WAY_OUT}`)
  })
})

describe('a refused database of another kind is not touched either', () => {
  it('a LevelDB database of something else (tables and a log of its own)', async () => {
    const dir = join(root, `case-${counter++}`, 'db')
    const other = new ClassicLevel<string, string>(dir, { writeBufferSize: 16 * 1024 })
    for (let i = 0; i < 2000; i++) await other.put(`users:${String(i).padStart(5, '0')}`, 'x'.repeat(40))
    await other.close()
    expect((await tables(dir)).length).toBeGreaterThan(0)
    const before = fingerprint(dir)
    await expect(start(dir)).rejects.toThrow(
      new CorruptDatabaseError('the database is not empty but holds no dualnet chain (no m:schema entry; first key "users:00000"); give the devnet a new or empty database'),
    )
    expect(fingerprint(dir)).toEqual(before)
  })

  it("a chain of other options (ChainMismatchError): not even LevelDB's LOG changes", async () => {
    const dir = copy()
    const before = fingerprint(dir)
    await expect(start(dir, { chainId: 777 })).rejects.toThrow(ChainMismatchError)
    expect(fingerprint(dir)).toEqual(before)
  })

  it('a directory of other files, or a file', async () => {
    const dir = join(root, `case-${counter++}`, 'db')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    await refusedUntouched(dir, 'it is not a LevelDB database: it holds other files (notes.txt). give --db a new or empty directory')
    await expect(start(join(dir, 'notes.txt'))).rejects.toThrow(
      `the database in ${join(dir, 'notes.txt')} is refused, and left as it was: it is a file, not a directory. give --db a new or empty directory`,
    )
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine')
  })
})

describe('an accepted database', () => {
  it('resumes, leaves no stand-in behind, and takes the writes that follow', async () => {
    const dir = copy()
    const devnet = await start(dir)
    expect(devnet.resumed).toBe(true)
    expect(chainOf(devnet).height).toBe(3000)
    expect(readdirSync(join(dir, '..'))).toEqual(['db'])
    await devnet.mine(1)
    await devnet.close()
    const again = await start(dir)
    expect(chainOf(again).height).toBe(3001)
    await again.close()
  })

  it("a stand-in left by a process killed while it read its chain is removed at the next start; a running one's is kept", async () => {
    const dir = copy()
    const dead = spawnSync(process.execPath, ['-e', '']).pid!
    const stale = join(dir, '..', `.db.check-${dead}-AbC123`)
    const live = join(dir, '..', `.db.check-${process.ppid}-XyZ789`)
    for (const standIn of [stale, live]) {
      mkdirSync(standIn)
      writeFileSync(join(standIn, 'CURRENT'), 'MANIFEST-000002\n')
    }
    const devnet = await start(dir)
    expect(readdirSync(join(dir, '..')).sort()).toEqual([`.db.check-${process.ppid}-XyZ789`, 'db'])
    await devnet.close()
  })

  it('a record cut off at the end of the log (a writer killed mid-write) is not damage: the batches before it resume', async () => {
    const dir = copy()
    const log = newestLog(dir)
    const size = statSync(join(dir, log)).size
    truncateSync(join(dir, log), size - 5)
    const devnet = await start(dir)
    expect(devnet.resumed).toBe(true)
    expect(chainOf(devnet).height).toBe(3000)
    await devnet.close()
  })

  it("a new directory, an empty one, and one left with only LevelDB's LOCK and LOG get a new chain", async () => {
    for (const prepare of [
      () => {},
      (dir: string) => mkdirSync(dir, { recursive: true }),
      (dir: string) => {
        mkdirSync(dir, { recursive: true })
        writeFileSync(join(dir, 'LOCK'), '')
        writeFileSync(join(dir, 'LOG'), 'an earlier attempt\n')
      },
    ]) {
      const dir = join(root, `case-${counter++}`, 'db')
      prepare(dir)
      const devnet = await start(dir)
      expect(devnet.resumed).toBe(false)
      await devnet.close()
      expect(readdirSync(dir)).toContain('CURRENT')
    }
  })
})
