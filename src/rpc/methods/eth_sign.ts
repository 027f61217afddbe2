import type { RpcMethod } from '../context.ts'
import { devKey, signDigest } from '../devSigner.ts'
import { expectParams, parseAddress, parseData } from '../params.ts'
import { personalMessageDigest } from './personal_sign.ts'

/**
 * eth_sign(address, data): personal_sign with the arguments the other way round, as
 * go-ethereum, Hardhat and Anvil define it (EIP-191 prefix, v 27/28). -32000 naming the
 * address when it is not a dev account (the real node refuses eth_sign altogether,
 * reference §6.2).
 */
export const eth_sign: RpcMethod = (ctx, params) => {
  const [address, data] = expectParams(params, 2)
  const key = devKey(ctx, parseAddress(address, 0))
  return signDigest(personalMessageDigest(parseData(data, 1)), key)
}
