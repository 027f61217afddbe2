/**
 * LevelDB's files as they lie in a directory, read without LevelDB: which files a
 * directory holds, what its MANIFEST lists, and whether a table ends with a table's
 * footer. `--db` checks a directory with these before anything opens it, because
 * opening a LevelDB database writes to it (a fresh LOG, a new MANIFEST, the log turned
 * into a table; without CURRENT, a new empty database that deletes every table).
 *
 * Formats: LevelDB 1.20 as bundled by classic-level, doc/log_format.md (32 KiB blocks
 * of records with a 7-byte header), db/version_edit.cc (the MANIFEST's records) and
 * table/format.cc (the 48-byte footer ending in the magic number).
 */
import { open, readFile } from 'node:fs/promises'

/** A LevelDB file name and what it is (LevelDB's ParseFileName). */
export type LevelFile = { kind: 'current' | 'lock' | 'info-log' } | { kind: 'manifest' | 'log' | 'table' | 'temp'; number: number }

/** What `name` is to LevelDB, or `undefined` for a file LevelDB does not know. */
export function levelFile(name: string): LevelFile | undefined {
  if (name === 'CURRENT') return { kind: 'current' }
  if (name === 'LOCK') return { kind: 'lock' }
  if (name === 'LOG' || name === 'LOG.old') return { kind: 'info-log' }
  const manifest = /^MANIFEST-(\d+)$/.exec(name)
  if (manifest !== null) return { kind: 'manifest', number: Number(manifest[1]) }
  const numbered = /^(\d+)\.(log|ldb|sst|dbtmp)$/.exec(name)
  if (numbered === null) return undefined
  const kind = numbered[2] === 'log' ? 'log' : numbered[2] === 'dbtmp' ? 'temp' : 'table'
  return { kind, number: Number(numbered[1]) }
}

/** A table the MANIFEST lists as live. */
export interface LiveTable {
  number: number
  /** Its size in bytes, as recorded when it was written. */
  size: number
}

/** What a MANIFEST says about the files of its database. */
export interface Manifest {
  /** Tables live at the end of the MANIFEST (every edit applied). */
  tables: LiveTable[]
  /** Logs numbered from here up (and {@link prevLogNumber}) hold writes not yet in a table. */
  logNumber: number
  prevLogNumber: number
}

const BLOCK_SIZE = 32768
const HEADER_SIZE = 7
enum RecordType {
  Zero = 0,
  Full = 1,
  First = 2,
  Middle = 3,
  Last = 4,
}

/**
 * The records of a file in LevelDB's log format (the MANIFEST), reassembled from their
 * fragments. Checksums are not verified (LevelDB verifies them when it opens the
 * database); a record cut off by the end of the file ends the reading, as in LevelDB.
 * Throws `Error` for a malformed fragment sequence.
 */
export function logRecords(bytes: Uint8Array): Uint8Array[] {
  const records: Uint8Array[] = []
  let pending: Uint8Array[] | undefined
  for (let block = 0; block < bytes.length; block += BLOCK_SIZE) {
    const end = Math.min(block + BLOCK_SIZE, bytes.length)
    let at = block
    while (end - at >= HEADER_SIZE) {
      const length = bytes[at + 4]! | (bytes[at + 5]! << 8)
      const type = bytes[at + 6]!
      if (type === RecordType.Zero && length === 0) break // preallocated space: the rest of the block
      if (at + HEADER_SIZE + length > end) {
        if (end === bytes.length) return records // the writer died mid-record
        throw new Error(`a record at byte ${at} runs past its block`)
      }
      const data = bytes.subarray(at + HEADER_SIZE, at + HEADER_SIZE + length)
      at += HEADER_SIZE + length
      if (type === RecordType.Full) {
        if (pending !== undefined) throw new Error(`a record at byte ${at} interrupts a fragmented one`)
        records.push(data)
      } else if (type === RecordType.First) {
        if (pending !== undefined) throw new Error(`a record at byte ${at} interrupts a fragmented one`)
        pending = [data]
      } else if (type === RecordType.Middle || type === RecordType.Last) {
        if (pending === undefined) throw new Error(`a record fragment at byte ${at} has no start`)
        pending.push(data)
        if (type === RecordType.Last) {
          records.push(Buffer.concat(pending))
          pending = undefined
        }
      } else throw new Error(`a record at byte ${at} has unknown type ${type}`)
    }
  }
  return records
}

/** Reads the MANIFEST at `path` (VersionEdit records, db/version_edit.cc). Throws `Error` naming what does not decode. */
export async function readManifest(path: string): Promise<Manifest> {
  const live = new Map<string, LiveTable>()
  const manifest: Manifest = { tables: [], logNumber: 0, prevLogNumber: 0 }
  for (const record of logRecords(await readFile(path))) {
    let at = 0
    const varint = (): number => {
      let value = 0
      for (let shift = 0; shift < 64; shift += 7) {
        if (at >= record.length) throw new Error('a VersionEdit ends inside a number')
        const byte = record[at++]!
        value += (byte & 0x7f) * 2 ** shift
        if (byte < 0x80) return value
      }
      throw new Error('a VersionEdit number is longer than 64 bits')
    }
    const skipBytes = () => {
      const length = varint()
      at += length
      if (at > record.length) throw new Error('a VersionEdit ends inside a string')
    }
    const added: [string, LiveTable][] = []
    while (at < record.length) {
      const tag = varint()
      if (tag === 1)
        skipBytes() // comparator name
      else if (tag === 2) manifest.logNumber = varint()
      else if (tag === 3)
        varint() // next file number
      else if (tag === 4)
        varint() // last sequence
      else if (tag === 5) {
        // compaction pointer: level, key
        varint()
        skipBytes()
      } else if (tag === 6)
        live.delete(`${varint()}:${varint()}`) // deleted file: level, number
      else if (tag === 7) {
        const level = varint()
        const number = varint()
        const size = varint()
        skipBytes() // smallest key
        skipBytes() // largest key
        added.push([`${level}:${number}`, { number, size }])
      } else if (tag === 9) manifest.prevLogNumber = varint()
      else throw new Error(`a VersionEdit has unknown tag ${tag}`)
    }
    // An edit's deletions apply before its additions (VersionSet::Builder::Apply): a move between levels.
    for (const [key, table] of added) live.set(key, table)
  }
  manifest.tables = [...live.values()]
  return manifest
}

/** The last 8 bytes of every LevelDB table: kTableMagicNumber 0xdb4775248b80fb57, little-endian (table/format.h). */
const TABLE_MAGIC = Buffer.from('57fb808b247547db', 'hex')
const FOOTER_SIZE = 48

/** Whether the `size`-byte file at `path` ends with a table footer's magic number (a zeroed or cut table does not). */
export async function hasTableFooter(path: string, size: number): Promise<boolean> {
  if (size < FOOTER_SIZE) return false
  const file = await open(path, 'r')
  try {
    const tail = Buffer.alloc(TABLE_MAGIC.length)
    await file.read(tail, 0, tail.length, size - tail.length)
    return tail.equals(TABLE_MAGIC)
  } finally {
    await file.close()
  }
}
