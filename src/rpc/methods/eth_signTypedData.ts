import { defineMethod } from '../declare.ts'
import { address, param } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.ts'

/**
 * eth_signTypedData(address, typedData): the EIP-712 typed-data object (or its JSON
 * string) is signed as eth_signTypedData_v4 signs it, as Hardhat answers this name.
 * The name's original form, MetaMask's v1 (an array of `{ type, name, value }`,
 * eth-sig-util `SignTypedDataVersion.V1`, not EIP-712's hash), is refused with -32602
 * naming it: its encoding is another one. Anvil does not serve the name. Local.
 */
export const eth_signTypedData = defineMethod({
  name: 'eth_signTypedData',
  params: [
    address('address'),
    param<string | object, unknown>('typedData', (value, index, ctx) => {
      let parsed = value
      if (typeof value === 'string') {
        try {
          parsed = JSON.parse(value)
        } catch {
          // v4's parser names the bad JSON.
        }
      }
      if (Array.isArray(parsed)) throw invalidArgument(index, 'the v1 typed-data array ([{ type, name, value }]) is not signed; send an EIP-712 object { types, primaryType, domain, message }')
      return eth_signTypedData_v4.params[1]!.parse(value as never, index, ctx)
    }),
  ],
  fork: { kind: 'local' },
  handler: (ctx, [from, typed], call) => eth_signTypedData_v4.handler(ctx, [from, typed], call) as Promise<`0x${string}`>,
})
