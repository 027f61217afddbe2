/**
 * Reading a var-bytes field (reference §2.1): a minimal var-int length, then the
 * bytes. Non-minimal lengths are refused as the node refuses them ("irregular").
 */

/** The var-bytes at `offset` of `data`, or `undefined` when truncated or non-minimal. */
export function decodeVarBytes(data: Uint8Array, offset: number): Uint8Array | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const tag = data[offset]
  if (tag === undefined) return undefined
  let length: number
  let start: number
  if (tag < 0xfd) {
    length = tag
    start = offset + 1
  } else if (tag === 0xfd) {
    if (offset + 3 > data.length) return undefined
    length = view.getUint16(offset + 1, true)
    if (length < 0xfd) return undefined
    start = offset + 3
  } else if (tag === 0xfe) {
    if (offset + 5 > data.length) return undefined
    length = view.getUint32(offset + 1, true)
    if (length <= 0xffff) return undefined
    start = offset + 5
  } else {
    return undefined
  }
  if (start + length > data.length) return undefined
  return data.subarray(start, start + length)
}
