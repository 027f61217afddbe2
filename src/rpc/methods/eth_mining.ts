import { defineMethod } from '../declare.ts'

/** eth_mining: false (reference §6.2). */
export const eth_mining = defineMethod({
  name: 'eth_mining',
  params: [],
  fork: { kind: 'local' },
  handler: () => false as const,
})
