import { alias, defineMethod } from '../declare.ts'

/** evm_snapshot (Hardhat, Ganache, Anvil): takes a snapshot, returns its id. */
export const evm_snapshot = defineMethod({
  name: 'evm_snapshot',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.controls.snapshots.take(),
})

/** anvil_snapshot: {@link evm_snapshot} under Anvil's name. */
export const anvil_snapshot = alias('anvil_snapshot', evm_snapshot)
