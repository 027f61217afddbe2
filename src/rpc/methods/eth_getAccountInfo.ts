import { defineMethod } from '../declare.ts'
import { address, optional, stateBlock } from '../paramSpecs.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/**
 * eth_getAccountInfo(address, block): `{ balance, nonce, code }` of the address as of
 * the block (Anvil's `get_account_info`, foundry crates/anvil/src/eth/api.rs; alloy's
 * `AccountInfo`): the gas-token balance in wei (reference §4.1), the EVM nonce and the
 * code, 0x-hex; the block defaults to the latest. Below a fork's block, composed of the remote's eth_getBalance,
 * eth_getTransactionCount and eth_getCode, as Anvil composes it: a remote need not
 * serve this method.
 */
export const eth_getAccountInfo = defineMethod({
  name: 'eth_getAccountInfo',
  params: [address('address'), optional(stateBlock('block'), (ctx) => ctx.chain.height)],
  fork: {
    kind: 'state',
    param: 1,
    from: {
      methods: ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'],
      answer: (ask, params) => {
        const [balance, nonce, code] = ask([
          { method: 'eth_getBalance', params },
          { method: 'eth_getTransactionCount', params },
          { method: 'eth_getCode', params },
        ])
        return { balance, nonce, code }
      },
    },
  },
  handler: (ctx, [a, height]) => {
    const account = ctx.chain.account(a, height)
    return { balance: toQuantity(account.gas), nonce: toQuantity(account.nonce), code: toHex(ctx.chain.code(a, height)) }
  },
})
