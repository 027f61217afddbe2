/**
 * `GET /explorer/api/transaction/<hash>`: which kind of transaction a hash names, in
 * both byte orders, and for a native one its payload decoded. The page asks this first:
 * an EVM transaction is then read through JSON-RPC, a native one through REST (which
 * writes hashes byte-reversed, reference §1.7, and answers no decoded payload).
 */
import type { Chain } from '../../chain/chain.ts'
import type { IncludedTransaction } from '../../chain/chainTypes.ts'
import { toHexRaw, toReversedHex } from '../../util/hex.ts'
import { type DescribedCall, describeGenesisPayload, describeTokenCall } from './nativeCall.ts'
import { ExplorerRequestError } from './errors.ts'
import { type BothForms, bothForms, parseHash } from './params.ts'
import type { ApiRoute } from './router.ts'

/** A transaction as the page finds it. */
export interface ExplorerTransaction {
  /** `evm`: an EIP-155 transaction; `native`: a token call; `genesis`: a system transaction of block 0. */
  readonly kind: 'evm' | 'native' | 'genesis'
  /** JSON-RPC's form: 0x and the raw hash (the Ethereum hash of an EVM transaction). */
  readonly hash: string
  /** REST's form: the raw hash byte-reversed, without 0x. */
  readonly restHash: string
  readonly height: number
  /** Its index in the native block (EVM and native transactions together). */
  readonly index: number
  /** Payer (native) or sender (EVM). */
  readonly from: BothForms
  /** The state of its execution record: 1 success, 0 failure. */
  readonly state: 0 | 1
  /** A native transaction: its signers (CheckWitness), its decoded token call, its fee (GasConsumed, gas in 1e-9). */
  readonly native?: { readonly signers: readonly BothForms[]; readonly call?: DescribedCall; readonly script?: string; readonly gasConsumed: string }
}

/** The included transaction `hash` names, in either byte order; throws 404 when neither is held. */
export function findTransaction(chain: Chain, hash: Uint8Array): IncludedTransaction {
  const found = chain.transaction(toHexRaw(hash)) ?? chain.transaction(toReversedHex(hash))
  if (found === undefined) throw new ExplorerRequestError(404, `no transaction 0x${toHexRaw(hash)} in either byte order`)
  return found
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
  handle: (chain: Chain, id: string) => describeTransaction(findTransaction(chain, parseHash(id))),
}
