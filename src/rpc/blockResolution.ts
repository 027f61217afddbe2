/**
 * Block resolution shared by the methods that take a block (and by log criteria):
 * which height or block a parsed {@link BlockReference} names on the chain. It needs
 * only the chain, so it depends on no method context and nothing imports it in a circle.
 */
import type { Chain, SimulationBlock } from '../chain/chain.ts'
import type { ChainBlock } from '../chain/block.ts'
import { toHexRaw } from '../util/hex.ts'
import { RpcError, RpcErrorCode } from './errors.ts'
import { parseBlockReference, type BlockReference } from './params.ts'

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

/** The block a reference names, or `undefined` when the chain has none. */
export function findBlock(ctx: ChainContext, ref: BlockReference): ChainBlock | undefined {
  const height = findHeight(ctx, ref)
  return height === undefined ? undefined : ctx.chain.blockAt(height)
}

/**
 * Height whose state a state read targets (eth_getBalance and friends). A block the
 * chain does not have is go-ethereum's -32000 "header not found", never the latest.
 */
export function stateHeight(ctx: ChainContext, value: unknown, index: number): number {
  const height = findHeight(ctx, parseBlockReference(value, index))
  if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
  return height
}

/**
 * The block a simulation targets (eth_call, eth_estimateGas, debug_traceCall):
 * `'pending'` for the `pending` tag (the next block's environment, whatever the block
 * context), else the height as {@link stateHeight} resolves it.
 */
export function simulationBlock(ctx: ChainContext, value: unknown, index: number): SimulationBlock {
  const ref = parseBlockReference(value, index)
  if ('tag' in ref && ref.tag === 'pending') return 'pending'
  const height = findHeight(ctx, ref)
  if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
  return height
}
