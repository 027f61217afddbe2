/**
 * Signing native transactions for tests and dev accounts, producing what the TS SDK
 * produces (reference §2.2): P-256 signatures `0x01` ‖ r ‖ s over SHA-256(raw hash);
 * secp256k1 Ethereum-key signatures `0x0b` ‖ r ‖ s ‖ v over the raw hash itself (the
 * node's own encoding; see ./signature.ts). A multisig entry pushes the signatures
 * sorted by their hex (the SDK's `programFromParams`) and lists the keys sorted by
 * X coordinate (the SDK's and the node's key order).
 */
import { parsePublicKey, serializePublicKey, type PublicKey } from './publicKey.ts'
import { multiKeyProgram, singleKeyProgram } from './program.ts'
import { pushBytes } from './script.ts'
import { signMessage, signingPublicKey, type SigningKey } from './signature.ts'
import { nativeTransactionHash, type NativeSig, type NativeTransaction } from './transaction.ts'
import { bytesEqual, concatBytes, toHexRaw } from '../util/hex.ts'

export { p256Address, publicKeyAddress } from './publicKey.ts'
export type { SigningKey } from './signature.ts'

/** An m-of-n multisig to sign for: the serialised public keys of all n members. */
export interface MultisigSpec {
  m: number
  /** Serialised keys (33-byte P-256, or `0x15` ‖ 65-byte secp256k1), any order. */
  publicKeys: Uint8Array[]
}

/**
 * A copy of `tx` with its signature entries replaced. Without `multisig`: one
 * single-key entry per key, in the given order (as `signTransaction` then `addSign`).
 * With `multisig`: one m-of-n entry signed by `keys` (each must be a member).
 * Throws `TypeError` for a 0xd3 envelope (it carries an Ethereum signature) or a
 * key that is not a member, `RangeError` for bad m/n.
 */
export function signNativeTransaction(tx: NativeTransaction, keys: readonly SigningKey[], multisig?: MultisigSpec): NativeTransaction {
  if (tx.payload.kind === 'eip155') throw new TypeError('an EIP-155 envelope is signed inside its RLP, not with native signatures')
  const hash = nativeTransactionHash(tx)
  if (multisig === undefined) {
    const sigs = keys.map(
      (key): NativeSig => ({
        invocation: pushBytes(signMessage(key, hash)),
        verification: singleKeyProgram(signingPublicKey(key)),
      }),
    )
    return { ...tx, sigs }
  }
  const members: PublicKey[] = multisig.publicKeys.map(parsePublicKey)
  const signatures = keys.map((key) => {
    const own = serializePublicKey(signingPublicKey(key))
    if (!members.some((member) => bytesEqual(serializePublicKey(member), own))) {
      throw new TypeError(`key ${toHexRaw(own)} is not a member of the multisig`)
    }
    return signMessage(key, hash)
  })
  signatures.sort((a, b) => (toHexRaw(a) < toHexRaw(b) ? -1 : toHexRaw(a) > toHexRaw(b) ? 1 : 0))
  const entry: NativeSig = {
    invocation: concatBytes(...signatures.map(pushBytes)),
    verification: multiKeyProgram(members, multisig.m),
  }
  return { ...tx, sigs: [entry] }
}
