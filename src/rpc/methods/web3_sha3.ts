import { defineMethod } from '../declare.ts'
import { data } from '../paramSpecs.ts'
import { keccak256 } from '../../util/hash.ts'
import { toHex } from '../../util/hex.ts'

/** web3_sha3: keccak-256 of the data. */
export const web3_sha3 = defineMethod({
  name: 'web3_sha3',
  params: [data('data')],
  fork: { kind: 'local' },
  handler: (_ctx, [bytes]) => toHex(keccak256(bytes)),
})
