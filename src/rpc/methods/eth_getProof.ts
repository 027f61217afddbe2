import { defineMethod } from '../declare.ts'
import { address, blockReference, param } from '../paramSpecs.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { parseStorageSlot } from '../params.ts'
import { findHeight } from '../blockResolution.ts'
import { isFinalHeight, merkleStateOf } from '../stateRoots.ts'
import { toHex, toHexRaw, toQuantity } from '../../util/hex.ts'

/**
 * The storage keys of eth_getProof: a JSON array of 32-byte slots (go-ethereum
 * internal/ethapi/api.go GetProof takes `[]string`, each a hex slot). Parsed so that a
 * malformed argument is -32602 before anything else, as go-ethereum's reflective
 * argument decoding answers it.
 */
const storageKeys = (name: string) =>
  param<string[], Uint8Array[]>(name, (value, index) => {
    if (!Array.isArray(value)) throw invalidArgument(index, 'json: cannot unmarshal non-array into Go value of type []string')
    return value.map((slot) => parseStorageSlot(slot, index))
  })

/**
 * eth_getProof(address, storageKeys, block): EIP-1186 proofs of an account and its
 * storage slots against the block's served `stateRoot`, under option stateRoot
 * 'merkle'; without it, refused as the real node refuses it.
 *
 * Without option stateRoot 'merkle' (the default): refused with -32000
 * `eth_getProof is not supported`, as the real node refuses it (reference §6.2); its
 * blocks carry a zero `stateRoot` (§6.3), so no proof could verify against them.
 *
 * With it: the account's and each slot's proof from the Ethereum state trie of the
 * block's state (state/merkleState.ts), which verifies against the `stateRoot` that
 * block is served with; go-ethereum's AccountResult shape (internal/ethapi/api.go).
 * The balance is the gas-token balance in wei (eth_getBalance's). An account that is
 * not in the trie gets an exclusion proof, nonce and balance 0, the empty code's hash
 * and the empty trie's root, as Anvil and reth answer. An unknown block is -32000
 * `header not found` (go-ethereum). On a fork (a hardhat_reset to one under the option;
 * createDevnet refuses the option with `fork`) it is refused saying why.
 */
export const eth_getProof = defineMethod({
  name: 'eth_getProof',
  params: [address('address'), storageKeys('storageKeys'), blockReference('block')],
  fork: { kind: 'local' },
  handler: async (ctx, [account, slots, block]) => {
    const trie = merkleStateOf(ctx)
    if (trie === undefined && ctx.stateRoot === 'merkle') {
      // A hardhat_reset to a fork under the option: the fork cannot know the remote's trie.
      throw new RpcError(RpcErrorCode.ServerError, "eth_getProof is not supported on a fork: it cannot compute the remote's state trie (option stateRoot 'merkle' needs a devnet without fork)")
    }
    if (trie === undefined) throw new RpcError(RpcErrorCode.ServerError, 'eth_getProof is not supported')
    const height = findHeight(ctx, block)
    if (height === undefined || height < ctx.chain.firstHeight) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
    const proof = await trie.proofAt(height, isFinalHeight(ctx.chain, height), toHexRaw(account), slots)
    return {
      address: toHex(account),
      accountProof: proof.accountProof.map(toHex),
      balance: toQuantity(proof.balance),
      codeHash: toHex(proof.codeHash),
      nonce: toQuantity(proof.nonce),
      storageHash: toHex(proof.storageHash),
      storageProof: proof.storageProof.map((s) => ({ key: toHex(s.key), value: toQuantity(bytesToBigint(s.value)), proof: s.proof.map(toHex) })),
    }
  },
})

/** Big-endian bytes as a bigint (empty: 0). */
const bytesToBigint = (bytes: Uint8Array): bigint => (bytes.length === 0 ? 0n : BigInt(toHex(bytes)))
