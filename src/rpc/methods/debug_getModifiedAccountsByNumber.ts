import { defineMethod } from '../declare.ts'
import { numberish, optional } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import type { Address } from '../../core/rpcObjects.ts'

/**
 * debug_getModifiedAccountsByNumber(start, end?): the addresses (lowercase 0x-hex, in
 * no order) whose EVM account differs between the state after block `start` and the
 * state after block `end` (nonce, balance in wei, code, storage); with `start` alone,
 * the accounts block `start` changed (from its parent's state). go-ethereum's rule and
 * messages (eth/api_debug.go GetModifiedAccountsByNumber); Anvil answers null without
 * looking, reth as go-ethereum. A fork holds no state before its block, so a range
 * starting below it is refused.
 */
export const debug_getModifiedAccountsByNumber = defineMethod({
  name: 'debug_getModifiedAccountsByNumber',
  params: [numberish('startNum'), optional(numberish('endNum'), undefined)],
  fork: { kind: 'local' },
  handler: (ctx, [start, end]) => {
    const chain = ctx.chain
    if (start < 0) throw invalidArgument(0, `start block ${start} is negative`)
    if (end !== undefined && end < 0) throw invalidArgument(1, `end block ${end} is negative`)
    if (start > chain.height) throw new RpcError(RpcErrorCode.ServerError, `start block ${start.toString(16)} not found`)
    let from = start
    let to = start
    if (end === undefined) {
      if (start === 0) throw new RpcError(RpcErrorCode.ServerError, 'block 0 has no parent')
      from = start - 1
    } else {
      if (end > chain.height) throw new RpcError(RpcErrorCode.ServerError, `end block ${end} not found`)
      to = end
    }
    if (from >= to) throw new RpcError(RpcErrorCode.ServerError, `start block height (${from}) must be less than end block height (${to})`)
    const forkHeight = chain.fork?.history?.height
    if (forkHeight !== undefined && from < forkHeight) {
      throw new RpcError(RpcErrorCode.ServerError, `start block ${from} is below the fork block ${forkHeight}: the fork holds no state before it`)
    }
    return chain.world.modifiedAccounts(from, to).map((a): Address => `0x${a}`)
  },
})
