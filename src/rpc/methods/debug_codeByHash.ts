import { defineMethod } from '../declare.ts'
import { hash, optional, stateBlock } from '../paramSpecs.ts'
import type { RpcContext } from '../context.ts'
import { toHex, toHexRaw, type Hex } from '../../util/hex.ts'
import { EMPTY_CODE_HASH } from '../../core/constants.ts'

/**
 * The code whose keccak256 is `codeHash`, 0x-hex ("0x" for the empty code's hash), or
 * null: with `height`, only code some account held as of that block (a fork's fetched
 * code counts: it is the remote's as of the fork block, below every local block);
 * without, any code the devnet ever held.
 */
export function codeByHash(ctx: RpcContext, codeHash: Uint8Array, height?: number): Hex | null {
  const key = toHexRaw(codeHash)
  if (key === EMPTY_CODE_HASH.slice(2)) return '0x'
  const world = ctx.chain.world
  const code = world.knownCode(key)
  if (code === undefined) return null
  if (height === undefined || world.source?.code(key) !== undefined) return toHex(code)
  for (const address of world.accountKeys()) if (world.getAccount(address, height).codeHash === key) return toHex(code)
  return null
}

/**
 * debug_codeByHash(hash, block?): contract code by its keccak256, as reth and Anvil
 * answer it (foundry crates/anvil/src/eth/backend/mem/mod.rs `debug_code_by_hash`):
 * any code the devnet ever held (deployed, set by a control, or fetched from a fork's
 * remote), else null; with a block, only code an account held as of that block (Anvil
 * does not narrow by block). Local: a fork's remote cannot be asked code by hash (the
 * real node serves no such method), so a remote contract's code is found once the
 * fork has read it.
 */
export const debug_codeByHash = defineMethod({
  name: 'debug_codeByHash',
  params: [hash('hash'), optional(stateBlock('block'), undefined)],
  fork: { kind: 'local' },
  handler: (ctx, [codeHash, height]) => codeByHash(ctx, codeHash, height),
})
