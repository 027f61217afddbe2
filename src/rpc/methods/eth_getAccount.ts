import { defineMethod } from '../declare.ts'
import { address, stateBlock } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHex, toHexRaw, toQuantity, type Hex } from '../../util/hex.ts'
import { isFinalHeight, merkleStateOf } from '../stateRoots.ts'
import { EMPTY_CODE_HASH, EMPTY_TRIE_ROOT as EMPTY_ROOT } from '../../core/constants.ts'

/**
 * eth_getAccount: `{ balance, nonce, codeHash, storageRoot }` of the address as of the
 * block (go-ethereum internal/ethapi/api.go GetAccount; balance in wei of the gas
 * token, reference §4.1). Under option stateRoot 'merkle', all four come from the
 * state trie (rpc/stateRoots.ts), the storage root that eth_getProof proves. Otherwise
 * the devnet keeps no storage trie, so storageRoot is only answered where it is certain: the empty root for an account with no storage slot
 * set (on a fork, a contract's storage may be the remote's, so only an account without
 * code there); otherwise -32000 naming the missing trie, never a made-up root. Below
 * a fork's block, the remote's answer (kept).
 */
export const eth_getAccount = defineMethod({
  name: 'eth_getAccount',
  params: [address('address'), stateBlock('block')],
  fork: { kind: 'state', param: 1 },
  handler: async (ctx, [a, height]) => {
    const account = ctx.chain.account(a, height)
    const trie = merkleStateOf(ctx)
    if (trie !== undefined) {
      // Option stateRoot 'merkle': the storage root is the account's storage trie's, as eth_getProof proves it.
      const proof = await trie.proofAt(height, isFinalHeight(ctx.chain, height), toHexRaw(a), [])
      return { balance: toQuantity(proof.balance), nonce: toQuantity(proof.nonce), codeHash: toHex(proof.codeHash), storageRoot: toHex(proof.storageHash) }
    }
    const empty = ctx.chain.world.storageEntries(toHexRaw(a), height).next().done === true
    if (!empty || (account.codeHash !== undefined && ctx.chain.fork !== undefined))
      throw new RpcError(RpcErrorCode.ServerError, 'eth_getAccount: storageRoot of an account with storage needs the state trie, which the devnet does not compute')
    return {
      balance: toQuantity(account.gas),
      nonce: toQuantity(account.nonce),
      codeHash: account.codeHash === undefined ? EMPTY_CODE_HASH : (`0x${account.codeHash}` as Hex),
      storageRoot: EMPTY_ROOT,
    }
  },
})
