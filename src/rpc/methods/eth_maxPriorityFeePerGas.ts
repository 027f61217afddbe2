import { defineMethod } from '../declare.ts'

/**
 * eth_maxPriorityFeePerGas: "0x0". The chain has no base fee and takes legacy
 * transactions only (reference §6.3), so there is no tip to suggest; tools that ask
 * before building an EIP-1559 transaction get an answer, and the transaction is then
 * refused with a message naming the legacy option.
 */
export const eth_maxPriorityFeePerGas = defineMethod({
  name: 'eth_maxPriorityFeePerGas',
  params: [],
  fork: { kind: 'local' },
  handler: () => '0x0',
})
