import { alias, defineMethod } from '../declare.ts'

/** net_version: the chain id as a decimal string ("12345" on solo), not the network id (reference §6.2); a fork answers its remote's. */
export const net_version = defineMethod({
  name: 'net_version',
  params: [],
  // The remote's net_version is read once, when the fork connects (ctx.netVersion): never asked per call.
  fork: { kind: 'local' },
  handler: (ctx) => ctx.netVersion ?? String(ctx.chainId),
})

/** eth_networkId: {@link net_version} under Anvil's name (foundry crates/anvil/core/src/eth/mod.rs: `eth_networkId`, alias `net_version`; a decimal string). */
export const eth_networkId = alias('eth_networkId', net_version)
