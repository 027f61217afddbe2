import { defineMethod } from '../declare.ts'

/** eth_hashrate: "0x0" (reference §6.2). */
export const eth_hashrate = defineMethod({
  name: 'eth_hashrate',
  params: [],
  fork: { kind: 'local' },
  handler: () => '0x0',
})
