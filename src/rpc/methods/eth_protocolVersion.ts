import { defineMethod } from '../declare.ts'

/** eth_protocolVersion: "0x41" as the real node answers (reference §6.2). */
export const eth_protocolVersion = defineMethod({
  name: 'eth_protocolVersion',
  params: [],
  fork: { kind: 'local' },
  handler: () => '0x41',
})
