/**
 * Reading the node's binary serialisation (reference §2.1; common/zero_copy_source.go):
 * little-endian integers, minimal var-ints (`< 0xFD` one byte, `0xFD`+u16, `0xFE`+u32,
 * `0xFF`+u64; a longer form than needed is "irregular"), var-bytes, all bounds-checked.
 * Every failure is a {@link DecodeError} naming what is wrong and the byte offset.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** Bytes that do not decode; `offset` is where reading failed. */
export class DecodeError extends DualnetError {
  override name = 'DecodeError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_DECODE'
  readonly offset: number
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`)
    this.offset = offset
  }
}

/** A cursor over bytes. */
export class BinaryReader {
  readonly #data: Uint8Array
  readonly #view: DataView
  #pos = 0

  constructor(data: Uint8Array) {
    this.#data = data
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  }

  /** Bytes read so far. */
  get position(): number {
    return this.#pos
  }

  #need(n: number): void {
    if (this.#pos + n > this.#data.length) throw new DecodeError('unexpected end of data', this.#pos)
  }

  u8(): number {
    this.#need(1)
    return this.#data[this.#pos++]!
  }

  u16(): number {
    this.#need(2)
    const v = this.#view.getUint16(this.#pos, true)
    this.#pos += 2
    return v
  }

  u32(): number {
    this.#need(4)
    const v = this.#view.getUint32(this.#pos, true)
    this.#pos += 4
    return v
  }

  u64(): bigint {
    this.#need(8)
    const v = this.#view.getBigUint64(this.#pos, true)
    this.#pos += 8
    return v
  }

  bytes(n: number): Uint8Array {
    this.#need(n)
    const out = this.#data.subarray(this.#pos, this.#pos + n)
    this.#pos += n
    return out
  }

  /** Minimal var-int; a non-minimal encoding is "irregular", as the node says. */
  varint(): bigint {
    const at = this.#pos
    const tag = this.u8()
    if (tag < 0xfd) return BigInt(tag)
    if (tag === 0xfd) {
      const v = this.u16()
      if (v < 0xfd) throw new DecodeError('irregular varint', at)
      return BigInt(v)
    }
    if (tag === 0xfe) {
      const v = this.u32()
      if (v <= 0xffff) throw new DecodeError('irregular varint', at)
      return BigInt(v)
    }
    const v = this.u64()
    if (v <= 0xffffffffn) throw new DecodeError('irregular varint', at)
    return v
  }

  /** Var-int length, then that many bytes (never more than remain). */
  varbytes(): Uint8Array {
    const at = this.#pos
    const n = this.varint()
    const left = this.#data.length - this.#pos
    // Checked before any slicing, so a huge declared length never allocates.
    if (n > BigInt(left)) throw new DecodeError(`unexpected end of data: var-bytes length ${n} exceeds the ${left} bytes left`, at)
    return this.bytes(Number(n))
  }
}
