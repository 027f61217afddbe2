import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseAddress } from '../params.ts'
import { BinaryWriter } from '../../native/binary.ts'
import { deployedContractAddress } from '../../native/genesisTransactions.ts'
import type { DeployPayload } from '../../native/transaction.ts'
import { bytesEqual, toHexRaw } from '../../util/hex.ts'
import { decodeDeployPayload } from '../../native/transaction.ts'
import type { RestContext, RestRoute } from '../context.ts'
import { forkedContract } from '../forkReads.ts'

/**
 * The deploy payload stored for `address`: a contract deployed in genesis, found by
 * its native address (01, 02, 03, 04, 06, 07, which the node maps to the stored key)
 * or by that key, hash160 of the code (reference §1.4.5; http/base/actor
 * `updateNativeSCAddr`). The devnet deploys nothing after genesis.
 */
function storedContract(ctx: RestContext, address: Uint8Array): DeployPayload | undefined {
  const { chain } = ctx
  // A fork holds no genesis block (its first block is the remote's fork block): the remote's contracts, fetched on first read.
  const forked = forkedContract(ctx, address)
  if (forked !== undefined) return forked === '' ? undefined : decodeDeployPayload(Uint8Array.from(Buffer.from(forked, 'hex')))
  for (const tx of chain.blockAt(0)?.transactions ?? []) {
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
 */
export const get_contract_state: RestRoute<'/api/v1/contract/:hash'> = {
  method: 'GET',
  path: '/api/v1/contract/:hash',
  action: 'getcontract',
  handle: (ctx, { params, query }) => {
    const deploy = storedContract(ctx, parseAddress(params.hash!))
    if (deploy === undefined) throw new RestError(RestErrorCode.InternalError)
    const info = {
      Code: toHexRaw(deploy.code),
      VmType: deploy.vmFlags,
      Name: deploy.name,
      CodeVersion: deploy.codeVersion,
      Author: deploy.author,
      Email: deploy.email,
      Description: deploy.description,
    }
    if (!flag(query.raw)) return info
    const text = (s: string) => new TextEncoder().encode(s)
    const w = new BinaryWriter().varbytes(deploy.code).u8(deploy.vmFlags)
    for (const field of [info.Name, info.CodeVersion, info.Author, info.Email, info.Description]) w.varbytes(text(field))
    return toHexRaw(w.finish())
  },
}
