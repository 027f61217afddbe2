import { randomBytes } from 'node:crypto'
import { alias, defineMethod } from '../declare.ts'
import type { RpcContext } from '../context.ts'
import type { Chain } from '../../chain/chain.ts'
import type { Hash, RpcNodeMetadata } from '../../core/rpcObjects.ts'
import { toHex } from '../../util/hex.ts'
import { VERSION } from '../../version.ts'

/** One random instance id per chain: a reset builds a new chain, so the id changes with it, as Hardhat's does. */
const instanceIds = new WeakMap<Chain, Hash>()

/** The metadata of the devnet behind `ctx` (see {@link RpcNodeMetadata}). */
export function nodeMetadata(ctx: RpcContext): RpcNodeMetadata {
  const chain = ctx.chain
  let instanceId = instanceIds.get(chain)
  if (instanceId === undefined) {
    instanceId = toHex(randomBytes(32)) as Hash
    instanceIds.set(chain, instanceId)
  }
  const snapshots: Record<string, [number, Hash]> = {}
  for (const { id, height } of ctx.controls.snapshots.list()) snapshots[id] = [height, toHex(chain.blockHash(height)!) as Hash]
  const first = chain.firstHeight
  return {
    clientVersion: ctx.clientVersion,
    clientSemver: VERSION,
    clientCommitSha: '',
    chainId: ctx.chainId,
    instanceId,
    latestBlockNumber: chain.height,
    latestBlockHash: toHex(chain.blockHash(chain.height)!) as Hash,
    forkedNetwork: chain.fork === undefined ? null : { chainId: ctx.chainId, forkBlockNumber: first, forkBlockHash: toHex(chain.blockHash(first)!) as Hash },
    snapshots,
  }
}

/**
 * anvil_metadata: the devnet's metadata (Anvil's `anvil_metadata`, foundry
 * crates/anvil/src/eth/api.rs; Hardhat's `hardhat_metadata` fields first). On a fork,
 * `forkedNetwork.chainId` is the devnet's chain id, the remote's unless option
 * `chainId` changed it.
 */
export const anvil_metadata = defineMethod({
  name: 'anvil_metadata',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => nodeMetadata(ctx),
})

/**
 * hardhat_metadata: {@link anvil_metadata} under Hardhat's name. hardhat-viem (Hardhat 3,
 * packages/hardhat-viem src/internal/chains.ts) takes a network that answers it for a
 * development network in mode `hardhat`, and turns viem's retries off for it.
 */
export const hardhat_metadata = alias('hardhat_metadata', anvil_metadata)
