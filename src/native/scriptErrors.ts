/**
 * Errors of the native-invoke decoder (reference §2.5, §2.6). Both are refusals of a
 * transaction's script: callers turn them into the pool's rejection text, so the
 * messages speak to a user of the chain's SDK.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/**
 * The script is not a native main- or gas-token call: NeoVM contract code (APPCALL),
 * another syscall, an opcode outside the SDK's native-invoke pattern, a malformed
 * push, another native contract or an unknown token method. `reason` is the short
 * cause; the message adds what the devnet executes.
 */
export class UnsupportedScriptError extends DualnetError {
  override name = 'UnsupportedScriptError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_UNSUPPORTED_SCRIPT'
  /** The short cause, e.g. `APPCALL (0x67) at offset 3: a NeoVM contract call`. */
  readonly reason: string

  constructor(reason: string, options?: ErrorOptions) {
    super(`unsupported invocation script: ${reason}; this devnet executes native main- and gas-token calls only, not NeoVM or Wasm contract code`, options)
    this.reason = reason
  }
}

/**
 * A main- or gas-token method was called with arguments the node's native contract
 * cannot decode (reference §2.5 "native input bytes"): a missing or non-20-byte
 * address, a negative amount, a v1 amount above u64, truncated input. A subclass of
 * {@link UnsupportedScriptError} so a single `instanceof` catches every refusal.
 */
export class InvalidTokenCallError extends UnsupportedScriptError {
  override name = 'InvalidTokenCallError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_TOKEN_CALL'
  /** The token contract called. */
  readonly token: 'main' | 'gas'
  /** The native method as called, e.g. `transferV2`. */
  readonly method: string

  constructor(token: 'main' | 'gas', method: string, reason: string, options?: ErrorOptions) {
    super(`${token}-token ${method}: ${reason}`, options)
    this.token = token
    this.method = method
    this.message = `invalid ${token}-token ${method} call: ${reason}`
  }
}
