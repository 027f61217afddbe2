/**
 * JSON-RPC errors: the standard codes (JSON-RPC 2.0, EIP-1474) and go-ethereum's
 * message texts, which the real node's server produces (reference §6.1).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** Error codes used on the JSON-RPC surface. */
export const RpcErrorCode = {
  /** Invalid JSON. */
  ParseError: -32700,
  /** Not a valid request object. */
  InvalidRequest: -32600,
  /** Unknown method. */
  MethodNotFound: -32601,
  /** Wrong parameter count or types. */
  InvalidParams: -32602,
  /** Server error: transaction rejections and every other failure (go-ethereum's default). */
  ServerError: -32000,
  /** A batch's answers beyond the batch response limit (go-ethereum's rpc/errors.go `errcodeResponseTooLarge`). */
  ResponseTooLarge: -32003,
  /** Execution reverted (EIP-1474 / geth 1.9.15+), carries the revert data. */
  ExecutionReverted: 3,
} as const

/**
 * An error answered over JSON-RPC; `devnet.rpc` throws it as is.
 * `data` is the revert data (0x-hex) for code 3.
 */
export class RpcError extends DualnetError {
  override name = 'RpcError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_RPC'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, options?: { data?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = options?.data
  }

  /** The JSON-RPC error object. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data }
  }
}

/** -32602 for argument `index` (0-based), in go-ethereum's wording. */
export function invalidArgument(index: number, reason: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, `invalid argument ${index}: ${reason}`)
}
