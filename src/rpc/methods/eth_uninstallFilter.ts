import { defineMethod } from '../declare.ts'
import { filterId } from '../paramSpecs.ts'

/** eth_uninstallFilter: removes a filter; whether it existed. */
export const eth_uninstallFilter = defineMethod({
  name: 'eth_uninstallFilter',
  params: [filterId('id')],
  fork: { kind: 'local' },
  handler: (ctx, [id]) => ctx.filters.uninstall(id),
})
