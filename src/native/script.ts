/**
 * NeoVM data pushes as signature programs use them (reference §2.2, §2.5;
 * core/program/program.go `ProgramBuilder`, `programParser`):
 * PUSHBYTES1..75 = `0x01..0x4B` then n bytes; PUSHDATA1/2/4 = `0x4C`/`0x4D`/`0x4E`
 * then a u8/u16/u32 LE length; PUSH0 = `0x00`; PUSH1..16 = `0x51..0x60` (0x50 + k).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { concatBytes } from '../util/hex.ts'

export const Op = { PUSH0: 0x00, PUSHDATA1: 0x4c, PUSHDATA2: 0x4d, PUSHDATA4: 0x4e, PUSH1: 0x51, PUSH16: 0x60, CHECKSIG: 0xac, CHECKMULTISIG: 0xae } as const

/** A script that is not the push sequence expected; `offset` is where reading failed. */
export class ScriptError extends DualnetError {
  override name = 'ScriptError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_SCRIPT'
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`)
  }
}

/** A cursor over a script's opcodes. */
export class ScriptReader {
  #pos = 0
  constructor(readonly script: Uint8Array) {}

  get done(): boolean {
    return this.#pos >= this.script.length
  }

  /** The next opcode without consuming it. */
  peek(): number {
    const op = this.script[this.#pos]
    if (op === undefined) throw new ScriptError('unexpected end of script', this.#pos)
    return op
  }

  /** Consumes one opcode. */
  skip(): void {
    this.peek()
    this.#pos++
  }

  /** Reads one data push (readBytes): any other opcode, or a length beyond the script, throws. */
  bytes(): Uint8Array {
    const [start, end] = this.#push()
    return this.script.subarray(start, end)
  }

  /** Steps over one data push, with the checks of {@link bytes} but no allocation. */
  skipPush(): void {
    this.#push()
  }

  #push(): [number, number] {
    const at = this.#pos
    const op = this.peek()
    this.#pos++
    let length: number
    if (op >= 0x01 && op <= 0x4b) length = op
    else if (op === Op.PUSHDATA1 || op === Op.PUSHDATA2 || op === Op.PUSHDATA4) {
      const size = op === Op.PUSHDATA1 ? 1 : op === Op.PUSHDATA2 ? 2 : 4
      if (this.#pos + size > this.script.length) throw new ScriptError('unexpected end of script', this.#pos)
      length = 0
      for (let i = size - 1; i >= 0; i--) length = length * 256 + this.script[this.#pos + i]!
      this.#pos += size
    } else throw new ScriptError(`unexpected opcode 0x${op.toString(16)}`, at)
    if (length > this.script.length - this.#pos) throw new ScriptError('unexpected end of script', this.#pos)
    const start = this.#pos
    this.#pos += length
    return [start, this.#pos]
  }
}

/** PUSHBYTES/PUSHDATA of `data` (non-empty), shortest form as the node's PushBytes. */
export function pushBytes(data: Uint8Array): Uint8Array {
  if (data.length === 0) throw new RangeError('push data is empty')
  const n = data.length
  let prefix: Uint8Array
  if (n <= 75) prefix = Uint8Array.of(n)
  else if (n < 0x100) prefix = Uint8Array.of(Op.PUSHDATA1, n)
  else if (n < 0x10000) prefix = Uint8Array.of(Op.PUSHDATA2, n & 0xff, n >> 8)
  else prefix = Uint8Array.of(Op.PUSHDATA4, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
  return concatBytes(prefix, data)
}

/** PUSH0 / PUSH1..16 for 0..16 (the only numbers signature programs need). */
export function pushSmallInt(k: number): Uint8Array {
  if (!Number.isInteger(k) || k < 0 || k > 16) throw new RangeError(`expected 0..16, got ${k}`)
  return Uint8Array.of(k === 0 ? Op.PUSH0 : Op.PUSH1 - 1 + k)
}
