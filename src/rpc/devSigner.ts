/**
 * Signing with the dev accounts' keys, shared by eth_sign, personal_sign,
 * eth_signTypedData_v4, eth_signTransaction and eth_sendTransaction: which key signs
 * for an address, and the 65-byte signatures wallets return.
 */
import { libsecp256k1 } from '../util/secp256k1.ts'
import { fromHex, toHex, toHexRaw, type Hex } from '../util/hex.ts'
import type { RpcContext } from './context.ts'
import { RpcError, RpcErrorCode } from './errors.ts'

/**
 * The private key (32 bytes) of dev account `address` (20 bytes). Throws -32000
 * naming the address when the devnet holds no key for it: `unknown account 0x…`
 * (go-ethereum's text), or, for an address that is only impersonated, a message
 * saying that impersonation sends transactions but cannot sign.
 */
export function devKey(ctx: RpcContext, address: Uint8Array): Uint8Array {
  const signer = ctx.signers.get(toHexRaw(address))
  if (signer !== undefined) return fromHex(signer.privateKey)
  if (ctx.controls.isImpersonated(address)) {
    throw new RpcError(RpcErrorCode.ServerError, `account ${toHex(address)} is impersonated, not a dev account: the devnet can send transactions from it but holds no key to sign with`)
  }
  throw new RpcError(RpcErrorCode.ServerError, `unknown account ${toHex(address)}`)
}

/**
 * Signs the 32-byte `digest` with `privateKey` (RFC 6979, low s, as every wallet) and
 * returns the 65-byte signature r ‖ s ‖ v as 0x-hex, with v = 27 + recovery id (the
 * form of go-ethereum's eth_sign, Hardhat and Anvil, and what `ecrecover` takes).
 */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Hex {
  const { signature, recid } = libsecp256k1().ecdsaSign(digest, privateKey)
  const out = new Uint8Array(65)
  out.set(signature, 0)
  out[64] = 27 + recid
  return toHex(out)
}
