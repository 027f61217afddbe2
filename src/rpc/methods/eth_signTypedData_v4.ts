import { defineMethod } from '../declare.ts'
import { address, param } from '../paramSpecs.ts'
import { devKey } from '../devSigner.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { fromHex, toHex } from '../../util/hex.ts'

/** micro-eth-signer (EIP-712 encoder on @noble/curves), loaded with the first typed-data request. */
let eip712: Promise<typeof import('micro-eth-signer')> | undefined

/**
 * eth_signTypedData_v4(address, typedData): the dev account's EIP-712 signature of
 * `typedData` (`{ types, primaryType, domain, message }`, as an object or the JSON
 * string ethers and viem send), 65 bytes r ‖ s ‖ v with v 27/28; hashing and signing
 * by micro-eth-signer (EIP-712 encodeData / hashStruct, deterministic RFC 6979).
 * Any domain is signed, its `chainId` another chain's included, as Hardhat 2.25 and
 * Anvil sign: suites sign permits and Safe transactions for other chains' domains,
 * and which chain a domain names is the caller's business (a wallet's check, not a
 * key's). Errors: -32000 naming the address when it is not a dev account; -32602 for
 * malformed typed data.
 */
export const eth_signTypedData_v4 = defineMethod({
  name: 'eth_signTypedData_v4',
  params: [address('address'), param<string | object, TypedDataShape>('typedData', parseTypedData)],
  fork: { kind: 'local' },
  handler: async (ctx, [from, typed]) => {
    const key = devKey(ctx, from)
    const { signTyped } = await (eip712 ??= import('micro-eth-signer'))
    let signature: string
    try {
      signature = signTyped(typed as never, toHex(key), false)
    } catch (err) {
      // The encoder is what finds some malformed typed data (an unknown type, a bad value): still the argument's fault, named as the dispatcher names it.
      throw new RpcError(RpcErrorCode.InvalidParams, `invalid argument 1: invalid typed data: ${(err as Error).message}`, { data: { param: 'typedData' }, cause: err })
    }
    // micro-eth-signer answers a plain string; rendered again as the canonical 0x-hex the schema's Hex promises.
    return toHex(fromHex(signature))
  },
})

interface TypedDataShape {
  types: Record<string, unknown>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

/** The typed-data argument (at position `index`) as an object, or -32602 naming what is wrong. */
function parseTypedData(value: unknown, index: number): TypedDataShape {
  let typed = value
  if (typeof value === 'string') {
    try {
      typed = JSON.parse(value)
    } catch {
      throw invalidArgument(index, 'typed data is not valid JSON')
    }
  }
  if (typeof typed !== 'object' || typed === null || Array.isArray(typed)) {
    throw invalidArgument(index, 'typed data must be an object { types, primaryType, domain, message }')
  }
  const o = typed as Record<string, unknown>
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
  for (const key of ['types', 'domain', 'message'] as const) {
    if (!isObject(o[key])) throw invalidArgument(index, `typed data needs an object "${key}"`)
  }
  if (typeof o.primaryType !== 'string') throw invalidArgument(index, 'typed data needs a string "primaryType"')
  return o as unknown as TypedDataShape
}
