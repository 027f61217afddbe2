import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseAddress } from '../params.ts'
import { BinaryWriter } from '../../native/binary.ts'
import { toHexRaw } from '../../util/hex.ts'

/** Deploy info of the native token contracts (reference §1.4.5); their Code is the 20 raw address bytes. */
const NATIVE: Readonly<Record<string, { Name: string; Description: string }>> = {
  '0000000000000000000000000000000000000001': { Name: 'ONT', Description: 'Ontology Network ONT Token' },
  '0000000000000000000000000000000000000002': { Name: 'ONG', Description: 'Ontology Network ONG Token' },
}

/**
 * get_contract_state: deploy info of a native contract (JSON, or its serialisation
 * with `raw=1`: varbytes code, vm flags, five varstrings). Anything else, EVM
 * contracts included, is 45001 as on the node (§1.4.5).
 */
export const get_contract_state: RestRoute = {
  method: 'GET',
  path: '/api/v1/contract/:hash',
  action: 'getcontract',
  handle: (_ctx, { params, query }) => {
    const address = toHexRaw(parseAddress(params.hash!))
    const known = NATIVE[address]
    if (known === undefined) throw new RestError(RestErrorCode.InternalError)
    const info = {
      Code: address,
      VmType: 1,
      Name: known.Name,
      CodeVersion: '1.0',
      Author: 'Ontology Team',
      Email: 'contact@ont.io',
      Description: known.Description,
    }
    if (!flag(query.raw)) return info
    const text = (s: string) => new TextEncoder().encode(s)
    const w = new BinaryWriter().varbytes(Buffer.from(address, 'hex')).u8(info.VmType)
    for (const field of [info.Name, info.CodeVersion, info.Author, info.Email, info.Description]) w.varbytes(text(field))
    return toHexRaw(w.finish())
  },
}
