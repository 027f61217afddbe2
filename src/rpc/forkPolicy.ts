/**
 * The fork policies of the method table, applied (docs/fork.md "History before the
 * fork"): which calls the remote answers, and how its answer is checked. The
 * dispatcher asks {@link remoteAnswer} before a handler runs; a handler never
 * branches on the fork.
 *
 * The remote answers a read of state below the fork block (the fork holds state from
 * the fork block on), a simulation there (not kept: its answer depends on the call),
 * a block at or below the fork block (the fork block itself is the remote's: the
 * local chain holds only its header fields), and a transaction the devnet does not
 * hold that the remote mined at or below the fork block. What the remote did after
 * the fork (a later block, a pending transaction) is not the fork's, and answers null
 * as an unknown hash does.
 *
 * Reads are synchronous and throw ForkMiss while an answer is not fetched (the
 * dispatch fetches it and runs the call again, fork/miss.ts).
 */
import type { Chain } from '../chain/chain.ts'
import { heightWithin, type RemoteHistory } from '../fork/history.ts'
import { toHex, toHexRaw, toQuantity, type Hex } from '../util/hex.ts'
import type { ForkPolicy, RpcMethodDeclaration } from './declare.ts'

/** No remote answer: the handler answers. */
export const LOCAL = Symbol('local')

/**
 * The remote's answer to `declaration`'s call with `parsed` params (`raw`: as the
 * client sent them) when its fork policy sends it there, else {@link LOCAL}. A
 * simulation or an unkept lookup resolves asynchronously; the rest answer at once or
 * throw ForkMiss.
 */
export function remoteAnswer(chain: Chain, declaration: RpcMethodDeclaration, parsed: readonly unknown[], raw: readonly unknown[]): unknown {
  const history = chain.fork?.history
  if (history === undefined) return LOCAL
  const policy: ForkPolicy = declaration.fork
  switch (policy.kind) {
    case 'local':
    case 'logs':
      return LOCAL
    case 'state': {
      const at = parsed[policy.param]
      if (typeof at !== 'number' || at >= history.height) return LOCAL
      const params = encode(declaration, parsed, raw)
      return policy.from === undefined ? history.answer(declaration.name, params) : policy.from.answer((calls) => history.answers(calls), params)
    }
    case 'simulation': {
      const at = parsed[policy.param]
      if (typeof at !== 'number' || at >= history.height) return LOCAL
      return history.call(declaration.name, encode(declaration, parsed, raw))
    }
    case 'block': {
      // numberOrHash: placed as its parsed value says (a hash's bytes, else a height).
      const byHash = policy.by === 'hash' || (policy.by === 'numberOrHash' && parsed[policy.param] instanceof Uint8Array)
      return byHash ? blockByHash(chain, history, declaration, policy, parsed, raw) : blockByNumber(history, declaration, policy, parsed, raw)
    }
    case 'transaction':
      return transaction(chain, history, declaration, policy, parsed, raw)
  }
}

/** The params as the remote is asked them: each spec's canonical form of its parsed value, else the value as sent; trailing absent ones left out. */
function encode(declaration: RpcMethodDeclaration, parsed: readonly unknown[], raw: readonly unknown[]): unknown[] {
  const out = declaration.params.map((spec, i) => {
    if (raw[i] === undefined) return undefined
    return spec.encode === undefined ? raw[i] : spec.encode(parsed[i] as never)
  })
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop()
  return out
}

type BlockPolicy = Extract<ForkPolicy, { kind: 'block' }>
type TransactionPolicy = Extract<ForkPolicy, { kind: 'transaction' }>

function blockByNumber(history: RemoteHistory, declaration: RpcMethodDeclaration, policy: BlockPolicy, parsed: readonly unknown[], raw: readonly unknown[]): unknown {
  const height = parsed[policy.param]
  if (typeof height !== 'number' || height > history.height) return LOCAL
  if (policy.byHash !== undefined) {
    // The remote's block of that very number, then the method by its hash, with the block's header in the same batch.
    const block = history.answer('eth_getBlockByNumber', [toQuantity(height), false])
    if (heightWithin(history, block, 'number') !== height) return null
    const hash = (block as { hash: Hex }).hash
    const [header, answer] = history.answers([
      { method: 'eth_getBlockByHash', params: [hash, false] },
      { method: policy.byHash, params: [hash] },
    ])
    return heightWithin(history, header, 'number') === undefined ? null : answer
  }
  // keep: false (a trace, whose answer depends on its options and may be large): asked each time, not kept.
  if (policy.keep === false && (policy.check === 'none' || policy.check === 'header')) return history.call(declaration.name, encode(declaration, parsed, raw))
  const answer = history.answer(declaration.name, encode(declaration, parsed, raw))
  if (policy.check === 'none' || policy.check === 'header') return answer
  // The remote's block of that very number (a reorganised remote may answer another).
  return heightWithin(history, answer, policy.check) === undefined ? null : answer
}

function blockByHash(chain: Chain, history: RemoteHistory, declaration: RpcMethodDeclaration, policy: BlockPolicy, parsed: readonly unknown[], raw: readonly unknown[]): unknown {
  const hash = parsed[policy.param] as Uint8Array
  const built = chain.blockByHash(toHexRaw(hash))
  // A block the fork built is its own; the fork block and blocks it does not hold are the remote's.
  if (built !== undefined && built.header.height > history.height) return LOCAL
  const params = encode(declaration, parsed, raw)
  if (policy.check === 'header' && policy.keep === false) {
    // The header (kept) places the block; the answer itself is asked each time, not kept.
    const header = history.answer('eth_getBlockByHash', [toHex(hash), false])
    return heightWithin(history, header, 'number') === undefined ? null : history.call(declaration.name, params)
  }
  if (policy.check === 'header') {
    // The block's header comes in the same batch: it says whether the block lies at or below the fork block.
    const [header, answer] = history.answers([
      { method: 'eth_getBlockByHash', params: [toHex(hash), false] },
      { method: declaration.name, params },
    ])
    return heightWithin(history, header, 'number') === undefined ? null : answer
  }
  const answer = history.answer(declaration.name, params)
  return policy.check === 'none' || heightWithin(history, answer, policy.check) !== undefined ? answer : null
}

function transaction(chain: Chain, history: RemoteHistory, declaration: RpcMethodDeclaration, policy: TransactionPolicy, parsed: readonly unknown[], raw: readonly unknown[]): unknown {
  const hash = parsed[policy.param] as Uint8Array
  const key = toHexRaw(hash)
  // One the devnet holds, mined or pending, is its own.
  if (chain.transaction(key) !== undefined || chain.mempool.get(key) !== undefined) return LOCAL
  const params = encode(declaration, parsed, raw)
  if (policy.check === 'blockNumber') {
    const answer = history.answer(declaration.name, params)
    return heightWithin(history, answer, 'blockNumber') === undefined ? null : answer
  }
  const receipt = history.answer('eth_getTransactionReceipt', [toHex(hash)])
  if (heightWithin(history, receipt, 'blockNumber') === undefined) return policy.keep === false ? LOCAL : null
  return policy.keep === false ? history.call(declaration.name, params) : history.answer(declaration.name, params)
}
