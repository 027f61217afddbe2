/**
 * The base of every error dualnet throws, modelled on viem's `BaseError`
 * (src/errors/base.ts there): a short message, `details`, a `cause`, a docs path, and a
 * stable code from the one registry (./codes.ts). Unlike viem's, the message is the
 * short message as is: clients compare it with go-ethereum's and the real node's texts,
 * so nothing is appended to it; the docs path and details travel beside it.
 *
 * Imports nothing of dualnet's but the registry, so that every layer can extend it.
 */
import { DUALNET_ERROR_CODES, type DualnetErrorCode } from './codes.ts'

export type { DualnetErrorCode } from './codes.ts'

/** What a {@link DualnetError} takes besides its message. */
export interface DualnetErrorOptions {
  /** The error underneath, as `Error.cause` (absent: the error has no `cause` property). */
  readonly cause?: unknown
  /** More than the message says, for a person; default: the cause's own details or message. */
  readonly details?: string
}

/**
 * An error of dualnet. `dualnetCode` is its stable code from the registry (a string
 * such as `'DUALNET_ERR_UNKNOWN_BLOCK'`; named so because several subclasses carry the
 * wire's numeric `code`, e.g. `RpcError`'s JSON-RPC code); `message` is the short
 * message clients see; `details` says more when there is more; `docsPath` is the page
 * of the package's docs that explains it. Each surface renders it by its code in its
 * own convention (JSON-RPC code and data, REST `Error` and `Desc`, EIP-1193 code).
 *
 * ```ts
 * try { await devnet.rpc('eth_getBalance', [addr, '0x999']) }
 * catch (err) { if (err instanceof DualnetError) console.log(err.dualnetCode, err.docsPath) }
 * ```
 */
export abstract class DualnetError extends Error {
  override name = 'DualnetError'
  /** The stable code of this error, one key of the registry. */
  abstract readonly dualnetCode: DualnetErrorCode
  /** More than the message says (the cause's details or message by default); undefined when there is nothing more. */
  readonly details: string | undefined

  constructor(message: string, options?: DualnetErrorOptions) {
    // `cause` only when given, as Error does: `'cause' in err` stays what it was.
    super(message, options !== undefined && 'cause' in options ? { cause: options.cause } : undefined)
    this.details = options?.details ?? detailsOf(options?.cause)
  }

  /** The short message (the message as is), under viem's name for it. */
  get shortMessage(): string {
    return this.message
  }

  /** The docs page (and section) that explains this error, relative to the package root, e.g. `docs/api.md#errors`. */
  get docsPath(): string {
    return DUALNET_ERROR_CODES[this.dualnetCode].docsPath
  }

  /**
   * Visits `this`, then each `cause` down the chain, and returns the first error
   * for which `match` holds (viem's `walk`); undefined when none does.
   */
  walk(match: (err: unknown) => boolean): unknown {
    let err: unknown = this
    for (let depth = 0; err !== undefined && depth < 32; depth++) {
      if (match(err)) return err
      err = err instanceof Error ? err.cause : undefined
    }
    return undefined
  }
}

/** The details a cause gives: its own `details`, else its message. */
function detailsOf(cause: unknown): string | undefined {
  if (cause instanceof DualnetError) return cause.details ?? cause.message
  if (cause instanceof Error) return cause.message
  return undefined
}
