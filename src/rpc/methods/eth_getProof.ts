import { defineMethod } from '../declare.ts'
import { address, blockReference, param } from '../paramSpecs.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { parseStorageSlot } from '../params.ts'

/**
 * The storage keys of eth_getProof: a JSON array of 32-byte slots (go-ethereum
 * internal/ethapi/api.go GetProof takes `[]string`, each a hex slot). Parsed so that a
 * malformed argument is -32602 before the refusal, as go-ethereum's reflective argument
 * decoding answers it.
 */
const storageKeys = (name: string) =>
  param<string[], Uint8Array[]>(name, (value, index) => {
    if (!Array.isArray(value)) throw invalidArgument(index, 'json: cannot unmarshal non-array into Go value of type []string')
    return value.map((slot) => parseStorageSlot(slot, index))
  })

/**
 * eth_getProof(address, storageKeys, block): the real node refuses it with -32000
 * `eth_getProof is not supported` (reference §6.2), and its blocks carry a zero
 * `stateRoot`, so no proof could verify against them. dualnet answers the same.
 * Serving EIP-1186 proofs needs the Ethereum state trie per block (the planned
 * `stateRoot: 'merkle'` option of issue 34, not yet implemented); until then the
 * method is refused, never answered with a proof that would not verify.
 */
export const eth_getProof = defineMethod({
  name: 'eth_getProof',
  params: [address('address'), storageKeys('storageKeys'), blockReference('block')],
  fork: { kind: 'local' },
  handler: () => {
    throw new RpcError(RpcErrorCode.ServerError, 'eth_getProof is not supported')
  },
})
