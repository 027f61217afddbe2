/**
 * The node's binary serialisation primitives (reference §2.1): little-endian
 * integers, minimal var-ints, var-bytes. Encoding only; the decoder comes with the
 * native transaction codec.
 */

/** Appends serialised fields into one growing buffer. */
export class BinaryWriter {
  #buf = new Uint8Array(256)
  #len = 0

  #reserve(n: number): void {
    if (this.#len + n <= this.#buf.length) return
    let size = this.#buf.length * 2
    while (size < this.#len + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.#buf.subarray(0, this.#len))
    this.#buf = next
  }

  u8(v: number): this {
    this.#reserve(1)
    this.#buf[this.#len++] = v & 0xff
    return this
  }

  u32(v: number): this {
    this.#reserve(4)
    new DataView(this.#buf.buffer).setUint32(this.#len, v >>> 0, true)
    this.#len += 4
    return this
  }

  u64(v: bigint): this {
    this.#reserve(8)
    new DataView(this.#buf.buffer).setBigUint64(this.#len, BigInt.asUintN(64, v), true)
    this.#len += 8
    return this
  }

  bytes(b: Uint8Array): this {
    this.#reserve(b.length)
    this.#buf.set(b, this.#len)
    this.#len += b.length
    return this
  }

  /** Minimal var-int: < 0xFD one byte; 0xFD + u16; 0xFE + u32; 0xFF + u64. */
  varint(v: number | bigint): this {
    const n = BigInt(v)
    if (n < 0xfdn) return this.u8(Number(n))
    if (n <= 0xffffn) {
      this.u8(0xfd)
      this.#reserve(2)
      new DataView(this.#buf.buffer).setUint16(this.#len, Number(n), true)
      this.#len += 2
      return this
    }
    if (n <= 0xffffffffn) return this.u8(0xfe).u32(Number(n))
    return this.u8(0xff).u64(n)
  }

  /** var-int length, then the bytes. */
  varbytes(b: Uint8Array): this {
    return this.varint(b.length).bytes(b)
  }

  /** A copy of what was written. */
  finish(): Uint8Array {
    return this.#buf.slice(0, this.#len)
  }
}
