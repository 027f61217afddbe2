import { defineMethod } from '../declare.ts'

/** net_listening: true; the devnet answers whoever connects (go-ethereum internal/ethapi NetAPI.Listening, always true). */
export const net_listening = defineMethod({
  name: 'net_listening',
  params: [],
  fork: { kind: 'local' },
  handler: () => true as const,
})
