import { defineMethod } from '../declare.ts'
import { address, data } from '../paramSpecs.ts'
import { devKey, signDigest } from '../devSigner.ts'
import { personalMessageDigest } from './personal_sign.ts'

/**
 * eth_sign(address, data): personal_sign with the arguments the other way round, as
 * go-ethereum, Hardhat and Anvil define it (EIP-191 prefix, v 27/28). -32000 naming the
 * address when it is not a dev account (the real node refuses eth_sign altogether,
 * reference §6.2).
 */
export const eth_sign = defineMethod({
  name: 'eth_sign',
  params: [address('address'), data('data')],
  fork: { kind: 'local' },
  handler: (ctx, [from, message]) => signDigest(personalMessageDigest(message), devKey(ctx, from)),
})
