/**
 * ots_getContractCreator's search (otterscan docs/custom-jsonrpc.md): the address
 * index's top-level creations, else the call trees (rpc/otsTrace.ts) of a few of the
 * address's transactions.
 */
import type { RpcCallScope, RpcContext } from './context.ts'
import type { OtsContractCreator } from '../core/rpcObjects.ts'
import { callTreeOf, framesOf } from './otsTrace.ts'
import { toHex, toHexRaw } from '../util/hex.ts'

/** How many of an address's oldest transactions are traced looking for a creation by a contract. */
const CREATION_CANDIDATES = 16

/**
 * The creator of the contract at `address` (40 hex): the latest top-level creation the
 * address index holds, else a CREATE or CREATE2 frame making it in one of the
 * {@link CREATION_CANDIDATES} oldest transactions the index holds for the address (a
 * contract made by another is indexed when it logs or moves value in the transaction
 * that makes it; chain/addressIndex.ts); null when neither finds one.
 */
export async function creatorOf(ctx: RpcContext, address: string, scope: RpcCallScope | undefined): Promise<OtsContractCreator | null> {
  const chain = ctx.chain
  const top = chain.creationOf(address)
  if (top !== undefined) {
    const tx = chain.blockAt(top.height)!.transactions[top.index]!
    return { hash: toHex(tx.hash), creator: toHex(tx.from) }
  }
  const target = `0x${address.toLowerCase()}`
  for (const { height, index } of chain.transactionsTouching(address).slice(0, CREATION_CANDIDATES)) {
    const tx = chain.blockAt(height)!.transactions[index]!
    if (tx.kind !== 'evm') continue
    const root = await callTreeOf(ctx, toHexRaw(tx.hash), scope)
    for (const [frame] of framesOf(root)) {
      if ((frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.to === target) return { hash: toHex(tx.hash), creator: frame.from as never }
    }
  }
  return null
}
