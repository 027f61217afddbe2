/**
 * What JSON-RPC method handlers work with: the chain, the dev accounts and the
 * devnet's identity, plus block resolution shared by the methods that take a block.
 */
import type { Chain } from '../chain/chain.ts'
import type { ChainBlock } from '../chain/block.ts'
import type { Hex } from '../util/hex.ts'
import { toHexRaw } from '../util/hex.ts'
import { RpcError, RpcErrorCode } from './errors.ts'
import type { FilterRegistry } from './filters.ts'
import type { DevnetControls } from '../controls/controls.ts'
import { parseBlockReference, type BlockReference } from './params.ts'

/** A key eth_sendTransaction can sign with. */
export interface SigningAccount {
  address: Uint8Array
  privateKey: Hex
}

/** Everything a method handler may use. */
export interface RpcContext {
  readonly chain: Chain
  /** Keys of the dev accounts, by address hex (no 0x, lower case). */
  readonly signers: ReadonlyMap<string, SigningAccount>
  /** eth_accounts order. */
  readonly accountOrder: readonly Uint8Array[]
  readonly chainId: number
  /** web3_clientVersion. */
  readonly clientVersion: string
  /** Polling filters of this devnet. */
  readonly filters: FilterRegistry
  /** Test-harness controls (snapshots, time, mining, setters, impersonation). */
  readonly controls: DevnetControls
}

/** A method: parses its params and answers, or throws {@link RpcError}. */
export type RpcMethod = (ctx: RpcContext, params: unknown) => unknown | Promise<unknown>

/** Height of the block a reference names, or `undefined` when the chain has none (builds nothing). */
export function findHeight(ctx: RpcContext, ref: BlockReference): number | undefined {
  const { chain } = ctx
  if ('tag' in ref) return ref.tag === 'earliest' ? 0 : chain.height
  if ('number' in ref) return ref.number > BigInt(chain.height) ? undefined : Number(ref.number)
  return chain.blockByHash(toHexRaw(ref.hash))?.header.height
}

/** The block a reference names, or `undefined` when the chain has none. */
export function findBlock(ctx: RpcContext, ref: BlockReference): ChainBlock | undefined {
  const height = findHeight(ctx, ref)
  return height === undefined ? undefined : ctx.chain.blockAt(height)
}

/**
 * Height whose state a state read targets (eth_getBalance and friends). A block the
 * chain does not have is go-ethereum's -32000 "header not found", never the latest.
 */
export function stateHeight(ctx: RpcContext, value: unknown, index: number): number {
  const height = findHeight(ctx, parseBlockReference(value, index))
  if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
  return height
}
