/**
 * Errors the chain raises. The surfaces render them in their own conventions
 * (JSON-RPC -32000 / code 3, REST error codes); the messages follow the real node's
 * texts where the reference gives them (§6.5).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** A submitted transaction was refused before inclusion; nothing changed. */
export class TransactionRejectedError extends DualnetError {
  override name = 'TransactionRejectedError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_TRANSACTION_REJECTED'
  /** The node's REST error code for this refusal (§1.5): -1 for the pool's free-text refusals. */
  readonly restCode: number
  constructor(message: string, options?: { cause?: unknown; restCode?: number }) {
    super(message, options)
    this.restCode = options?.restCode ?? -1
  }
}

/** A call or gas estimate failed in the EVM (revert, out of gas, invalid opcode, …). */
export class ExecutionFailedError extends DualnetError {
  override name = 'ExecutionFailedError'
  /** `DUALNET_ERR_EXECUTION_REVERTED` for a REVERT (JSON-RPC code 3 with the data), else `DUALNET_ERR_EXECUTION_FAILED`. */
  override readonly dualnetCode: DualnetErrorCode
  /** `revert` for a REVERT, else the EVM's error kind. */
  readonly kind: string
  /** Revert data (`0x`-less bytes); empty when none. */
  readonly data: Uint8Array
  constructor(message: string, kind: string, data: Uint8Array) {
    super(message)
    this.dualnetCode = kind === 'revert' ? 'DUALNET_ERR_EXECUTION_REVERTED' : 'DUALNET_ERR_EXECUTION_FAILED'
    this.kind = kind
    this.data = data
  }
}

/** A request named a block the chain does not have (for state reads at a height). */
export class UnknownBlockError extends DualnetError {
  override name = 'UnknownBlockError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_UNKNOWN_BLOCK'
  constructor(message: string) {
    super(message)
  }
}

/**
 * What to do about a typed (EIP-2718: EIP-2930, EIP-1559) transaction, which the chain
 * refuses as the real node's go-ethereum 1.9.25 does: the flag or option of each common
 * client that sends a legacy one instead. Appended to the refusals' own text.
 */
export const LEGACY_ONLY_HINT = "the chain takes legacy (type 0) transactions only: send with cast --legacy, ethers { type: 0 }, viem { type: 'legacy' }"
