import { alias, defineMethod } from '../declare.ts'

/** hardhat_getAutomine: whether each accepted transaction is mined at once (evm_setAutomine, the `automine` option). */
export const hardhat_getAutomine = defineMethod({
  name: 'hardhat_getAutomine',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.chain.automine,
})

/** anvil_getAutomine: {@link hardhat_getAutomine} under Anvil's name. */
export const anvil_getAutomine = alias('anvil_getAutomine', hardhat_getAutomine)
