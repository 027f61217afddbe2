import { defineMethod } from '../declare.ts'
import { param } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import { codeByHash } from './debug_codeByHash.ts'

/** go-ethereum's database key prefix of contract code (core/rawdb/schema.go `CodePrefix`, "c"). */
const CODE_PREFIX = 0x63

/** The key: 0x-hex, or a plain string taken as its UTF-8 bytes (reth's and Anvil's rule). */
function parseKey(value: unknown, index: number): Uint8Array {
  if (typeof value !== 'string') throw invalidArgument(index, 'the key: a 0x-hex or plain string')
  if (!value.startsWith('0x')) return new TextEncoder().encode(value)
  if (!/^0x([0-9a-fA-F]{2})*$/.test(value)) throw invalidArgument(index, 'Invalid hex key')
  return Buffer.from(value.slice(2), 'hex')
}

/**
 * debug_dbGet(key): the value under a go-ethereum database key, for the one kind of key
 * a devnet keeps as go-ethereum does: contract code, `0x63` ("c") followed by the
 * code's keccak256 (33 bytes), answered as debug_codeByHash answers it (null when
 * unknown). Any other key is refused (-32602), as reth and Anvil refuse it (foundry
 * crates/anvil/src/eth/backend/mem/mod.rs `debug_db_get`).
 */
export const debug_dbGet = defineMethod({
  name: 'debug_dbGet',
  params: [param<string, Uint8Array>('key', parseKey)],
  fork: { kind: 'local' },
  handler: (ctx, [key]) => {
    if (key.length !== 33) throw invalidArgument(0, `Invalid key length: expected 33 bytes, got ${key.length}`)
    if (key[0] !== CODE_PREFIX) throw invalidArgument(0, 'Key prefix must be 0x63 for code hash lookups')
    return codeByHash(ctx, key.subarray(1))
  },
})
