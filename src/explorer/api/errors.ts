import { DualnetError, type DualnetErrorCode } from '../../errors/base.ts'

/**
 * A request the explorer's API refuses, and nothing read: `status` 400 for a malformed
 * parameter (the message names what it wanted), 404 for what the chain does not hold.
 * The API answers it as `{ "error": message }` with that HTTP status (api/router.ts).
 */
export class ExplorerRequestError extends DualnetError {
  override readonly name = 'ExplorerRequestError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_EXPLORER_REQUEST'

  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message)
  }
}
