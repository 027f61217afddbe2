import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseAddress } from '../params.ts'
import { deployedContractAddress } from '../../native/genesisTransactions.ts'
import type { DeployPayload } from '../../native/transaction.ts'
import { bytesEqual } from '../../util/hex.ts'
import type { RestContext, RestRoute } from '../context.ts'
import { renderContractState } from '../render.ts'

/**
 * The deploy payload stored for `address`: a contract deployed in genesis, found by
 * its native address (01, 02, 03, 04, 06, 07, which the node maps to the stored key)
 * or by that key, hash160 of the code (reference §1.4.5; http/base/actor
 * `updateNativeSCAddr`). The devnet deploys nothing after genesis.
 */
function storedContract(ctx: RestContext, address: Uint8Array): DeployPayload | undefined {
  for (const tx of ctx.chain.blockAt(0)?.transactions ?? []) {
    if (tx.kind !== 'genesis' || tx.tx.payload.kind !== 'deploy') continue
    const code = tx.tx.payload.code
    if (bytesEqual(code, address) || bytesEqual(deployedContractAddress(code), address)) return tx.tx.payload
  }
  return undefined
}

/**
 * get_contract_state: the DeployCode of a contract deployed in genesis, as JSON (§1.4.5
 * field names) or with `raw=1` its serialisation (varbytes code, vm flags byte, five
 * varstrings). Anything else, EVM contracts included, is 45001 as on the node (§1.4.5).
 * On a fork, which holds no genesis block (its first block is the remote's fork
 * block), the remote's contracts, fetched on first read (its fork policy, rest/forkPolicy.ts).
 */
export const get_contract_state: RestRoute<'/api/v1/contract/:hash'> = {
  method: 'GET',
  path: '/api/v1/contract/:hash',
  action: 'getcontract',
  fork: { kind: 'nativeContract', param: 'hash' },
  handle: (ctx, { params, query }) => {
    const deploy = storedContract(ctx, parseAddress(params.hash!))
    if (deploy === undefined) throw new RestError(RestErrorCode.InternalError)
    return renderContractState(deploy, flag(query.raw))
  },
}
