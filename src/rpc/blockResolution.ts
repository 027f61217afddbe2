/**
 * Block resolution shared by the methods that take a block (and by log criteria):
 * which height or block a parsed {@link BlockReference} names on the chain. It needs
 * only the chain, so it depends on no method context and nothing imports it in a circle.
 */
import type { Chain } from '../chain/chain.ts'
import { toHexRaw } from '../util/hex.ts'
import type { BlockReference } from './params.ts'

/** What resolution reads: the chain (an `RpcContext` is one). */
export interface ChainContext {
  readonly chain: Chain
}

/** Height of the block a reference names, or `undefined` when the chain has none (builds nothing). */
export function findHeight(ctx: ChainContext, ref: BlockReference): number | undefined {
  const { chain } = ctx
  if ('tag' in ref) return ref.tag === 'earliest' ? 0 : chain.height
  if ('number' in ref) return ref.number > BigInt(chain.height) ? undefined : Number(ref.number)
  return chain.blockByHash(toHexRaw(ref.hash))?.header.height
}
