import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** evm_snapshot (Hardhat, Ganache, Anvil): takes a snapshot, returns its id. */
export const evm_snapshot: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.controls.snapshots.take()
}
