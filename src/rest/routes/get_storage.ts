import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseAddress } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'
import { forkedNativeStorage } from '../forkReads.ts'

/**
 * get_storage: a contract's stored value at a key, hex; "" when missing (§1.5). For
 * an EVM contract the key is the 32-byte slot (shorter keys are left-padded) and the
 * value the 32-byte word. On a fork, a contract without EVM code reads the remote's
 * native storage (rest/forkReads.ts).
 */
export const get_storage: RestRoute<'/api/v1/storage/:hash/:key'> = {
  method: 'GET',
  path: '/api/v1/storage/:hash/:key',
  action: 'getstorage',
  handle: (ctx, { params }) => {
    const contract = parseAddress(params.hash!)
    const key = params.key!
    if (!/^([0-9a-fA-F]{2})+$/.test(key)) throw new RestError(RestErrorCode.InvalidParams)
    // A fork's native contract (no EVM code): the remote's storage, any key length.
    const native = forkedNativeStorage(ctx, contract, key)
    if (native !== undefined) return native
    if (key.length > 64) throw new RestError(RestErrorCode.InvalidParams)
    const slot = Uint8Array.from(Buffer.from(key.padStart(64, '0'), 'hex'))
    const value = ctx.chain.storage(contract, slot)
    if (value.length === 0) return ''
    const word = new Uint8Array(32)
    word.set(value, 32 - value.length)
    return toHexRaw(word)
  },
}
