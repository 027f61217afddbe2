import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** hardhat_getAutomine: whether each accepted transaction is mined at once (evm_setAutomine, the `automine` option). */
export const hardhat_getAutomine: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.chain.automine
}
