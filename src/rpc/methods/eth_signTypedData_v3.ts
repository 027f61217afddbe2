import { defineMethod } from '../declare.ts'
import { address, param } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import type { RpcContext } from '../context.ts'
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.ts'

/** The typed data as eth_signTypedData_v4 takes it (an object or its JSON string), or -32602. */
function asV4(value: unknown, index: number, ctx: RpcContext): { types: Record<string, unknown> } {
  return eth_signTypedData_v4.params[1]!.parse(value as never, index, ctx) as { types: Record<string, unknown> }
}

/**
 * The typed-data argument of eth_signTypedData_v3: v4's, where the two encodings agree.
 * v3 (MetaMask eth-sig-util `SignTypedDataVersion.V3`) has no arrays, so a type with an
 * array member is refused (-32602 naming it) rather than signed as v4 would sign it;
 * and v3 leaves a missing field out of the encoding where v4 encodes it, so a message
 * missing a declared field (at any depth) is refused too.
 */
export function v3TypedData(name: string) {
  return param<string | object, unknown>(name, (value, index, ctx) => {
    const typed = asV4(value, index, ctx) as { types: Record<string, { name: string; type: string }[]>; primaryType: string; message: Record<string, unknown> }
    for (const [type, members] of Object.entries(typed.types)) {
      if (!Array.isArray(members)) continue
      for (const member of members)
        if (typeof member?.type === 'string' && member.type.endsWith(']'))
          throw invalidArgument(index, `eth_signTypedData_v3 has no arrays (${type}.${member.name}: ${member.type}); sign with eth_signTypedData_v4`)
    }
    const check = (type: string, data: unknown, path: string): void => {
      const members = typed.types[type]
      if (!Array.isArray(members) || typeof data !== 'object' || data === null) return
      for (const member of members) {
        const field = (data as Record<string, unknown>)[member.name]
        if (field === undefined || field === null) throw invalidArgument(index, `eth_signTypedData_v3 leaves out a missing field where v4 encodes it: ${path}.${member.name} is missing`)
        check(member.type, field, `${path}.${member.name}`)
      }
    }
    check(typed.primaryType, typed.message, 'message')
    return typed
  })
}

/**
 * eth_signTypedData_v3(address, typedData): the dev account's EIP-712 signature, as
 * eth_signTypedData_v4 signs it, for the typed data on which the v3 and v4 encodings
 * agree (MetaMask eth-sig-util: v4 added arrays and encodes missing fields); the rest
 * is refused with -32602 naming what v3 cannot encode the same way. Anvil does not
 * serve it; Hardhat signs v3 requests as v4. Local.
 */
export const eth_signTypedData_v3 = defineMethod({
  name: 'eth_signTypedData_v3',
  params: [address('address'), v3TypedData('typedData')],
  fork: { kind: 'local' },
  handler: (ctx, [from, typed], call) => eth_signTypedData_v4.handler(ctx, [from, typed], call) as Promise<`0x${string}`>,
})
