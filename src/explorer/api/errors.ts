import { DualnetError, type DualnetErrorCode } from '../../errors/base.ts'

/**
 * A request the explorer's API refuses, and nothing read: a malformed parameter (the
 * message names what it wanted). The API answers it with HTTP 400 and
 * `{ "error": message }` (api/router.ts).
 */
export class ExplorerRequestError extends DualnetError {
  override readonly name = 'ExplorerRequestError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_EXPLORER_REQUEST'
}
