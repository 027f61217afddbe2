import type { RpcMethod } from '../context.ts'
import { expectParams, parseData } from '../params.ts'
import { keccak256 } from '../../util/hash.ts'
import { toHex } from '../../util/hex.ts'

/** web3_sha3: keccak-256 of the data. */
export const web3_sha3: RpcMethod = (_ctx, params) => {
  const [data] = expectParams(params, 1)
  return toHex(keccak256(parseData(data, 0)))
}
