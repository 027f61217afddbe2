import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { blockNumberLookup } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { isFinalHeight, merkleStateOf, withStateRoot } from '../stateRoots.ts'
import { toHex } from '../../util/hex.ts'
import { headerRlpFields } from './debug_getRawHeader.ts'
import { formatHeader } from './eth_getHeaderByHash.ts'

/** How far back BLOCKHASH reaches (the Yellow Paper's 256): the ancestors a witness carries headers of. */
const BLOCKHASH_WINDOW = 256

/**
 * debug_executionWitness(block): what a stateless client needs to run the block, as
 * reth answers it (alloy `ExecutionWitness`): `state`, the RLP of the state trie's and
 * the storage tries' nodes of the state before the block; `codes`, the contracts'
 * code; `keys`, the 20-byte addresses and 32-byte slots the tries are keyed by; and
 * `headers`, the RLP of its ancestors' headers within BLOCKHASH's 256 blocks, newest
 * first (debug_getRawHeader's encoding). As Anvil, a best-effort witness of the whole
 * parent state, not only what the block touched (state/merkleState.ts `witnessAt`).
 *
 * Needs the state trie: option stateRoot 'merkle' (`--state-root merkle`); without it,
 * and on a fork (whose remote's trie the devnet cannot know), refused with -32000 as
 * eth_getProof is. Genesis has no parent state and is refused; a block past the chain's
 * head is -32000 `block not found`.
 */
export const debug_executionWitness = defineMethod({
  name: 'debug_executionWitness',
  params: [blockNumberLookup('block')],
  fork: { kind: 'local' },
  handler: async (ctx, [height]) => {
    const trie = merkleStateOf(ctx)
    if (trie === undefined) {
      const why = ctx.chain.fork === undefined ? "start the devnet with stateRoot 'merkle' (--state-root merkle)" : "a fork cannot know its remote's state trie"
      throw new RpcError(RpcErrorCode.ServerError, `debug_executionWitness needs the state trie: ${why}`)
    }
    if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'block not found')
    if (height <= ctx.chain.firstHeight) throw new RpcError(RpcErrorCode.ServerError, 'genesis block has no parent state to build a witness from')
    const chain = ctx.chain
    const witness = await trie.witnessAt(height - 1, isFinalHeight(chain, height - 1))
    const headers: `0x${string}`[] = []
    for (let ancestor = height - 1; ancestor >= Math.max(chain.firstHeight, height - BLOCKHASH_WINDOW); ancestor--) {
      const block = chain.blockAt(ancestor)
      if (block === undefined) break
      headers.push(toHex(RLP.encode(headerRlpFields(await withStateRoot(ctx, block, formatHeader(block))))))
    }
    return { state: witness.state.map((node) => toHex(node)), codes: witness.codes.map((code) => toHex(code)), keys: witness.keys.map((key) => toHex(key)), headers }
  },
})
