import { defineMethod } from '../declare.ts'
import { address, blockNumberOrHash, numberish } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { toHex, toHexRaw, toQuantity } from '../../util/hex.ts'
import { blockOf } from './debug_getRawHeader.ts'

/**
 * debug_accountInfoAt(block, txIndex, address): `{ balance, nonce, code }` of the
 * address (eth_getAccountInfo's shape: wei, QUANTITY, DATA) right after transaction
 * `txIndex` of the block ran, its earlier transactions replayed on the state before
 * it, as reth and Anvil answer it (foundry crates/anvil/src/eth/backend/mem/mod.rs
 * `debug_account_info_at`). An index past the block's transactions is -32602 in
 * Anvil's words; an unknown block, -32000 `block not found`. A native transaction up
 * to the index has no EVM replay and is refused. Under the trace time limit; at or
 * below a fork's block, the remote's.
 */
export const debug_accountInfoAt = defineMethod({
  name: 'debug_accountInfoAt',
  params: [blockNumberOrHash('block'), numberish('txIndex'), address('address')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header', keep: false },
  handler: async (ctx, [at, index, who], { scope }) => {
    const block = blockOf(ctx, at)
    if (block === undefined) throw new RpcError(RpcErrorCode.ServerError, 'block not found')
    const count = block.transactions.length
    if (index < 0 || index >= count) throw invalidArgument(1, `tx_index ${index} out of bounds for block with ${count} transactions`)
    const [{ withTraceBudget }, { stateAfterTransaction }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replayPrefix.ts')])
    const world = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => stateAfterTransaction(ctx.chain, block, index, budget))
    const account = world.getAccount(toHexRaw(who))
    return { balance: toQuantity(account.gas), nonce: toQuantity(account.nonce), code: toHex(world.getCodeByHash(account.codeHash)) }
  },
})
