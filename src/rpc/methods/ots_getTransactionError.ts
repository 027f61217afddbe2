import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * ots_getTransactionError: the revert data of a failed transaction's top-level frame
 * (a reason is ABI `Error(string)`), `"0x"` for a successful one or one without data
 * (otterscan docs/custom-jsonrpc.md; Anvil crates/anvil/src/eth/otterscan/api.rs
 * ots_get_transaction_error answers "0x" too for an unknown hash). Native
 * transactions carry no revert data: `"0x"`. Local on a fork.
 */
export const ots_getTransactionError = defineMethod({
  name: 'ots_getTransactionError',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: (ctx, [bytes]) => {
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined || found.record.state === 1 || found.tx.kind !== 'evm') return '0x'
    return toHex(found.record.returnValue)
  },
})
