/**
 * The explorer API's parameters: addresses in either form, transaction hashes in either
 * byte order, page sizes. Each throws {@link ExplorerRequestError} 400 naming what it wanted.
 */
import { fromBase58, toBase58 } from '../../native/address.ts'
import { fromHex, toHexRaw } from '../../util/hex.ts'
import { ExplorerRequestError } from './errors.ts'
import type { BothForms } from './types.ts'

/** The two forms of a 20-byte address. */
export function bothForms(address: Uint8Array): BothForms {
  return { hex: toHexRaw(address), base58: toBase58(address) }
}

/** A 0x address (40 hex digits) or a Base58 one, as 20 bytes. */
export function parseAccount(text: string): Uint8Array {
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return fromHex(text)
  try {
    return fromBase58(text)
  } catch {
    throw new ExplorerRequestError('an address is 0x and 40 hex digits, or Base58 (version 0x17)')
  }
}

/** 32 bytes of a hash, 64 hex digits with or without 0x, as given (the caller tries both byte orders). */
export function parseHash(text: string): Uint8Array {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(text)) throw new ExplorerRequestError('a hash is 64 hex digits, with or without 0x')
  return fromHex(text)
}

/** The query's `limit`: an integer in 1..`max`, `fallback` when absent. */
export function parseLimit(query: URLSearchParams, fallback: number, max: number): number {
  const text = query.get('limit')
  if (text === null) return fallback
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN
  if (!(limit >= 1 && limit <= max)) throw new ExplorerRequestError(`limit is an integer from 1 to ${max}`)
  return limit
}
