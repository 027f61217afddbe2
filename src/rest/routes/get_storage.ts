import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseAddress, parseStorageKey } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'
import { MAIN_TOKEN_ADDRESS } from '../../core/constants.ts'
import { encodeUnboundOffset, UNBOUND_OFFSET_PREFIX } from '../../native/unboundGas.ts'
import { bytesEqual } from '../../util/hex.ts'

/**
 * get_storage: a contract's stored value at a key, hex; "" when missing (§1.5). For
 * an EVM contract the key is the 32-byte slot (shorter keys are left-padded) and the
 * value the 32-byte word. The main-token contract answers an address's unbound-gas
 * offset at "unboundTimeOffset" ‖ address (reference §4.2 gives the key), as 4 bytes
 * little-endian ("" when never set): the node's main-token contract writes the offset as
 * a uint32 with its serializer, which is little-endian; the reference does not show the
 * value's bytes, so this is unverified against a real node. A fork of this devnet reads
 * it as it reads the node's. On
 * a fork, a contract without EVM code reads the remote's native storage, any key length
 * (its fork policy, rest/forkPolicy.ts).
 */
export const get_storage: RestRoute<'/api/v1/storage/:hash/:key'> = {
  method: 'GET',
  path: '/api/v1/storage/:hash/:key',
  action: 'getstorage',
  fork: { kind: 'nativeStorage', param: 'hash', key: 'key' },
  handle: (ctx, { params }) => {
    const contract = parseAddress(params.hash!)
    const key = parseStorageKey(params.key!)
    const offsetOf = bytesEqual(contract, MAIN_TOKEN_ADDRESS) ? unboundOffsetAddress(key) : undefined
    if (offsetOf !== undefined) {
      const offset = ctx.chain.world.getUnboundOffset(offsetOf, ctx.chain.height)
      return offset === 0 ? '' : encodeUnboundOffset(offset)
    }
    if (key.length > 64) throw new RestError(RestErrorCode.InvalidParams)
    const slot = Uint8Array.from(Buffer.from(key.padStart(64, '0'), 'hex'))
    const value = ctx.chain.storage(contract, slot)
    if (value.length === 0) return ''
    const word = new Uint8Array(32)
    word.set(value, 32 - value.length)
    return toHexRaw(word)
  },
}

/** The address (40 hex) of a main-token contract key "unboundTimeOffset" ‖ address, or `undefined` for another key. */
function unboundOffsetAddress(key: string): string | undefined {
  const lower = key.toLowerCase()
  return lower.length === UNBOUND_OFFSET_PREFIX.length + 40 && lower.startsWith(UNBOUND_OFFSET_PREFIX) ? lower.slice(UNBOUND_OFFSET_PREFIX.length) : undefined
}
