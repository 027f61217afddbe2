import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { anyAddress, data } from '../paramSpecs.ts'

/**
 * anvil_impersonateSignature: refused, -32602 naming the signature. Anvil maps a
 * signature to a sender it does not recover to (foundry crates/anvil/src/eth/api.rs
 * `anvil_impersonate_signature`); on this chain a transaction's sender is the key its
 * signature recovers, which the node checks for EVM and native transactions alike
 * (docs/differences.md), so a devnet that took another would accept transactions the
 * chain refuses. eth_sendTransaction with anvil_impersonateAccount or
 * anvil_autoImpersonateAccount sends as any address instead.
 */
export const anvil_impersonateSignature = defineMethod({
  name: 'anvil_impersonateSignature',
  params: [data('signature'), anyAddress('address')],
  fork: { kind: 'local' },
  handler: () => {
    throw invalidArgument(0, 'signature: a transaction sender on this chain is the key its signature recovers; impersonate the address (anvil_impersonateAccount) and use eth_sendTransaction instead')
  },
})
