import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { param } from '../paramSpecs.ts'

/**
 * anvil_setRpcUrl: refused, -32602 naming the URL. Anvil swaps the fork's remote
 * (foundry crates/anvil/src/eth/api.rs `anvil_set_rpc_url`) and answers null on a
 * devnet that is no fork. Here a non-fork devnet has no remote to change, and a fork's
 * remote also serves its REST history and native state (option `fork.restUrl`), whose
 * kept answers would then mix two remotes; hardhat_reset / anvil_reset with
 * `forking.jsonRpcUrl` forks another remote from a fresh start instead.
 */
export const anvil_setRpcUrl = defineMethod({
  name: 'anvil_setRpcUrl',
  params: [
    param<string, string>('url', (value, index) => {
      if (typeof value !== 'string') throw invalidArgument(index, 'json: cannot unmarshal non-string into Go value of type string')
      return value
    }),
  ],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const why = ctx.chain.fork === undefined ? 'this devnet is not a fork, so it has no remote to change' : "a fork's remote is fixed while it runs (its kept answers come from it)"
    throw invalidArgument(0, `url: ${why}; use anvil_reset with forking.jsonRpcUrl to fork another remote`)
  },
})
