import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHash } from '../params.ts'
import { merkleProof } from '../merkleProof.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * get_merkle_proof: proof that a transaction's block is in the current BlockRoot; 42002
 * for an unknown transaction (§1.5). On a fork, a transaction the remote mined at or
 * below the fork block gets the remote's proof (in the remote's tree as it was when
 * asked); a local one a proof in the fork's tree, which continues the remote's.
 */
export const get_merkle_proof: RestRoute<'/api/v1/merkleproof/:hash'> = {
  method: 'GET',
  path: '/api/v1/merkleproof/:hash',
  action: 'getmerkleproof',
  fork: { kind: 'transaction', param: 'hash' },
  handle: (ctx, { params }) => {
    const hash = parseHash(params.hash!)
    const found = ctx.chain.transaction(toHexRaw(hash))
    if (found === undefined) throw new RestError(RestErrorCode.InvalidParams)
    return merkleProof(ctx.chain, found.block.header.height)
  },
}
