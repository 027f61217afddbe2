import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHash } from '../params.ts'
import { merkleProof } from '../merkleProof.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_merkle_proof: proof that a transaction's block is in the current BlockRoot; 42002 for an unknown transaction (§1.5). */
export const get_merkle_proof: RestRoute<'/api/v1/merkleproof/:hash'> = {
  method: 'GET',
  path: '/api/v1/merkleproof/:hash',
  action: 'getmerkleproof',
  handle: (ctx, { params }) => {
    const found = ctx.chain.transaction(toHexRaw(parseHash(params.hash!)))
    if (found === undefined) throw new RestError(RestErrorCode.InvalidParams)
    return merkleProof(ctx.chain, found.block.header.height)
  },
}
