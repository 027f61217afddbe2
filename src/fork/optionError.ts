/**
 * The error of a `fork` option that cannot be served: raised by the option's rule
 * (options/forkRules.ts) for a malformed field, and by the fork itself for a block the
 * remote or the database cannot serve.
 */
import type { DualnetErrorCode } from '../errors/base.ts'
import { InvalidOptionError } from '../errors/invalidOption.ts'

/**
 * The option `fork` is malformed, or the remote (or the database) cannot be forked
 * where asked: an {@link InvalidOptionError} whose `option` is `fork`, `fork.url`,
 * `fork.blockNumber`, … (or `state`, which a fork cannot start from yet), with the value
 * given and what is allowed.
 */
export class ForkOptionError extends InvalidOptionError {
  override name = 'ForkOptionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FORK_OPTION'
}
