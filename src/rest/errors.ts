/**
 * REST error codes and their Desc strings, as the real node answers (reference §1.5,
 * http/base/error/error.go). Every handled request is HTTP 200; failures travel in
 * the envelope with `Result: ""` unless the node puts a text there.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** Codes used by the devnet's REST surface. */
export const RestErrorCode = {
  Success: 0,
  IllegalDataFormat: 41003,
  InvalidMethod: 42001,
  InvalidParams: 42002,
  InvalidTransaction: 43001,
  UnknownTransaction: 44001,
  UnknownBlock: 44003,
  UnknownContract: 44004,
  InternalError: 45001,
  SmartcodeExecError: 47001,
  Unknown: -1,
  DuplicatedTx: 45002,
  DuplicateInput: 45003,
  VerifySignature: 45021,
} as const

/** Desc of each code; codes absent here have Desc "" on the real node (45015–45025). */
const DESC: Readonly<Record<number, string>> = {
  0: 'SUCCESS',
  41001: 'SESSION EXPIRED',
  41002: 'SERVICE CEILING',
  41003: 'ILLEGAL DATAFORMAT',
  41004: 'INVALID VERSION',
  42001: 'INVALID METHOD',
  42002: 'INVALID PARAMS',
  43001: 'INVALID TRANSACTION',
  43002: 'INVALID ASSET',
  43003: 'INVALID BLOCK',
  44001: 'UNKNOWN TRANSACTION',
  44002: 'UNKNOWN ASSET',
  44003: 'UNKNOWN BLOCK',
  44004: 'UNKNOWN CONTRACT',
  45001: 'INTERNAL ERROR',
  47001: 'SMARTCODE EXEC ERROR',
  47002: 'SMARTCODE PREPARE EXEC ERROR',
  [-1]: 'INTERNAL ERROR, ErrUnknown',
  [-2]: 'INTERNAL ERROR, ErrNoCode',
  45002: 'INTERNAL ERROR, ErrDuplicatedTx',
  45003: 'INTERNAL ERROR, ErrDuplicateInput',
}

/** The Desc the node gives `code` ("" for codes missing from its map). */
export function describe(code: number): string {
  return DESC[code] ?? ''
}

/** A REST failure: the code, and the Result the node puts beside it (usually ""). */
export class RestError extends DualnetError {
  override name = 'RestError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_REST'
  readonly code: number
  readonly result: unknown

  constructor(code: number, result: unknown = '', options?: { cause?: unknown }) {
    super(describe(code) || `REST error ${code}`, options)
    this.code = code
    this.result = result
  }
}
