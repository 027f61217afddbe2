/**
 * Reading signature programs as the node reads them (reference §2.2;
 * core/program/program.go `GetProgramInfo`, `GetParamInfo`, `programParser`).
 *
 * - Invocation script: data pushes only; each push is one serialised signature.
 * - Verification script, single key: PUSHBYTES(key) ‖ CHECKSIG (`0xAC`), nothing else.
 * - Verification script, multisig: PUSH(m) ‖ m key pushes ‖ further pushes ‖ n ‖
 *   CHECKMULTISIG (`0xAE`): the node reads m keys first, then pushes up to
 *   CHECKMULTISIG; the last is n (big-endian), the others are more keys. Then
 *   keys = n, 1 ≤ m ≤ n, 2 ≤ n ≤ 16. Key order is free (the address sorts them).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { parsePublicKey, type PublicKey } from './publicKey.ts'
import { Op, ScriptReader } from './script.ts'
import { MAX_SIGNATURES } from './transaction.ts'
import { bytesToBigInt } from '../util/hex.ts'

/** A verification or invocation script the node cannot read (it answers 45021). */
export class InvalidProgramError extends DualnetError {
  override name = 'InvalidProgramError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_PROGRAM'
}

/** A parsed verification script: m signatures required of `keys` (in script order). */
export interface ProgramInfo {
  m: number
  keys: PublicKey[]
}

/**
 * The signatures pushed by an invocation script (`GetParamInfo`). With `limit`, only the
 * first `limit` are returned, though the whole script is still checked. Throws
 * {@link InvalidProgramError}.
 */
export function parseInvocation(script: Uint8Array, limit = Infinity): Uint8Array[] {
  return guard(() => {
    const r = new ScriptReader(script)
    const out: Uint8Array[] = []
    while (!r.done) {
      if (out.length < limit) out.push(r.bytes())
      else r.skipPush()
    }
    return out
  })
}

/** Parses a verification script as `GetProgramInfo` does. Throws {@link InvalidProgramError}. */
export function parseVerification(script: Uint8Array): ProgramInfo {
  if (script.length <= 2) throw new InvalidProgramError('wrong program')
  const end = script[script.length - 1]
  if (end === Op.CHECKSIG) {
    return guard(() => {
      const r = new ScriptReader(script.subarray(0, -1))
      const key = parsePublicKey(r.bytes())
      if (!r.done) throw new InvalidProgramError('single-key program: bytes after the key')
      return { m: 1, keys: [key] }
    })
  }
  if (end !== Op.CHECKMULTISIG) throw new InvalidProgramError('unsupported program')
  return guard(() => {
    const r = new ScriptReader(script)
    const m = readNum(r)
    // m > 16 can never satisfy m ≤ n ≤ 16; stopping here keeps hostile scripts cheap.
    if (m > MAX_SIGNATURES) throw new InvalidProgramError('wrong multi-sig param')
    const raw: Uint8Array[] = []
    for (let i = 0; i < m; i++) raw.push(r.bytes())
    const buffers: Uint8Array[] = []
    for (;;) {
      const op = r.peek()
      if (op === Op.CHECKMULTISIG) {
        r.skip()
        break
      }
      if (op === Op.PUSH0 || (op >= Op.PUSH1 && op <= Op.PUSH16)) {
        r.skip()
        buffers.push(op === Op.PUSH0 ? new Uint8Array(0) : Uint8Array.of(op - Op.PUSH1 + 1))
      } else buffers.push(r.bytes())
      if (raw.length + buffers.length - 1 > MAX_SIGNATURES) throw new InvalidProgramError('too many public keys in multisig')
    }
    if (!r.done) throw new InvalidProgramError('multisig program: bytes after CHECKMULTISIG')
    const nBytes = buffers.pop()
    if (nBytes === undefined) throw new InvalidProgramError('missing pubkey length')
    const n = bytesToBigInt(nBytes)
    const keys = [...raw, ...buffers].map(parsePublicKey)
    if (BigInt(keys.length) !== n) throw new InvalidProgramError(`number of pubkeys unmatched, expected: ${n}, got: ${keys.length}`)
    if (!(m >= 1 && m <= keys.length && keys.length > 1 && keys.length <= MAX_SIGNATURES)) throw new InvalidProgramError('wrong multi-sig param')
    return { m, keys }
  })
}

/** programParser.ReadNum: PUSH0, PUSH1..16, or a pushed NeoBytes number in (16, 65535]. */
function readNum(r: ScriptReader): number {
  const op = r.peek()
  if (op === Op.PUSH0 || (op >= Op.PUSH1 && op <= Op.PUSH16)) {
    r.skip()
    return op === Op.PUSH0 ? 0 : op - Op.PUSH1 + 1
  }
  const bytes = r.bytes()
  // NeoBytes: little-endian two's complement.
  let n = 0n
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!)
  if (bytes.length > 0 && bytes[bytes.length - 1]! & 0x80) n -= 1n << BigInt(bytes.length * 8)
  if (n > 0xffffn || n <= 16n) throw new InvalidProgramError(`num not in range (16, MaxUint16]: ${n}`)
  return Number(n)
}

function guard<T>(parse: () => T): T {
  try {
    return parse()
  } catch (err) {
    if (err instanceof InvalidProgramError) throw err
    throw new InvalidProgramError((err as Error).message, { cause: err })
  }
}
