import { defineMethod } from '../declare.ts'
import { address, data } from '../paramSpecs.ts'
import { devKey, signDigest } from '../devSigner.ts'
import { concatBytes } from '../../util/hex.ts'
import { keccak256 } from '../../util/hash.ts'

const PREFIX = new TextEncoder().encode('\x19Ethereum Signed Message:\n')

/**
 * The EIP-191 version 0x45 digest of `message`: keccak256("\x19Ethereum Signed
 * Message:\n" ‖ decimal byte length ‖ message), what ethers' `hashMessage` and viem's
 * `hashMessage` compute and `verifyMessage` checks.
 */
export function personalMessageDigest(message: Uint8Array): Uint8Array {
  return keccak256(concatBytes(PREFIX, new TextEncoder().encode(String(message.length)), message))
}

/**
 * personal_sign(data, address): the dev account's EIP-191 signature of `data` (DATA,
 * the message bytes; ethers' and viem's `signMessage` send text as its UTF-8 hex),
 * 65 bytes r ‖ s ‖ v with v 27/28. -32000 naming the address when it is not a dev account.
 */
export const personal_sign = defineMethod({
  name: 'personal_sign',
  params: [data('data'), address('address')],
  fork: { kind: 'local' },
  handler: (ctx, [message, from]) => signDigest(personalMessageDigest(message), devKey(ctx, from)),
})
