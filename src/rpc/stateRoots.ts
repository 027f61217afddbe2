/**
 * The EVM view's `stateRoot` under option stateRoot 'merkle' (state/merkleState.ts): one
 * MerkleState per world state (a reset's new ledger gets its own), and the served block
 * objects with their root. Without the option, blocks keep the node's zero hash
 * (reference §6.3) and nothing here loads the trie library.
 */
import type { ChainBlock } from '../chain/block.ts'
import type { Chain } from '../chain/chain.ts'
import { MerkleState } from '../state/merkleState.ts'
import type { WorldState } from '../state/worldState.ts'
import { toHex } from '../util/hex.ts'

const tries = new WeakMap<WorldState, MerkleState>()

/** What the roots are read from: the option stateRoot and the chain (an RpcContext is one). */
export interface StateRootSource {
  readonly stateRoot: 'zero' | 'merkle'
  readonly chain: Chain
}

/**
 * The state trie of `chain`'s ledger, or `undefined` when the option is off or the chain
 * is a fork (a fork cannot know the remote's trie; createDevnet refuses the option with
 * `fork`, and a hardhat_reset to a fork serves the zero root again).
 */
export function merkleStateOf(ctx: StateRootSource): MerkleState | undefined {
  const chain: Chain = ctx.chain
  if (ctx.stateRoot !== 'merkle' || chain.fork !== undefined) return undefined
  let trie = tries.get(chain.world)
  if (trie === undefined) {
    trie = new MerkleState(chain.world)
    tries.set(chain.world, trie)
  }
  return trie
}

/** Whether the state at `height` can no longer change (below the latest block: setters write only at the latest). */
export const isFinalHeight = (chain: Chain, height: number): boolean => height < chain.height

/**
 * `object` (a block or header as rpc/format.ts renders `block`) with its `stateRoot`
 * the trie's root at the block under option stateRoot 'merkle'; unchanged otherwise.
 */
export async function withStateRoot<T extends { stateRoot: string }>(ctx: StateRootSource, block: ChainBlock, object: T): Promise<T> {
  const trie = merkleStateOf(ctx)
  if (trie === undefined) return object
  const height = Number(block.header.height)
  const root = await trie.rootAt(height, isFinalHeight(ctx.chain, height))
  return { ...object, stateRoot: toHex(root) }
}
