import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** evm_revert: restores a snapshot; the id and all later ones become invalid (Hardhat). false for an unknown id. */
export const evm_revert: RpcMethod = (ctx, params) => {
  const [id] = expectParams(params, 1)
  return ctx.controls.snapshots.revert(toQuantity(parseQuantity(id, 0)))
}
