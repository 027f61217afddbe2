/**
 * `GET /explorer/api/transaction/<hash>`: which kind of transaction a hash names, in
 * both byte orders, and for a native one its payload decoded. The page asks this first:
 * an EVM transaction is then read through JSON-RPC, a native one through REST (which
 * writes hashes byte-reversed, reference §1.7, and answers no decoded payload).
 */
import type { Chain } from '../../chain/chain.ts'
import type { IncludedTransaction } from '../../chain/chainTypes.ts'
import { toHexRaw, toReversedHex } from '../../util/hex.ts'
import { describeGenesisPayload, describeTokenCall } from './nativeCall.ts'
import { bothForms, parseHash } from './params.ts'
import type { ApiRoute } from './route.ts'
import type { ExplorerTransaction } from './types.ts'

/** The included transaction `hash` names, in either byte order, or `undefined` when neither is held. */
export function findTransaction(chain: Chain, hash: Uint8Array): IncludedTransaction | undefined {
  return chain.transaction(toHexRaw(hash)) ?? chain.transaction(toReversedHex(hash))
}

/** The page's description of an included transaction. */
export function describeTransaction({ tx, block, index, record }: IncludedTransaction): ExplorerTransaction {
  const head = { hash: `0x${toHexRaw(tx.hash)}`, restHash: toReversedHex(tx.hash), height: block.header.height, index, from: bothForms(tx.from), state: record.state }
  if (tx.kind === 'evm') return { kind: 'evm', ...head }
  const signers = tx.signers.map(bothForms)
  const gasConsumed = record.gasConsumed.toString()
  if (tx.kind === 'native') return { kind: 'native', ...head, native: { signers, call: describeTokenCall(tx.call), gasConsumed } }
  return { kind: 'genesis', ...head, native: { signers, script: describeGenesisPayload(tx.tx), gasConsumed } }
}

export const transactionRoute: ApiRoute = {
  name: 'transaction',
  handle: (chain: Chain, id: string): ExplorerTransaction | null => {
    const found = findTransaction(chain, parseHash(id))
    return found === undefined ? null : describeTransaction(found)
  },
}
