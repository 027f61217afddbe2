/** The controls' error (its own module, so that the helpers of controls.ts can throw it without importing controls.ts). */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** A control was called with a value it cannot take; nothing changed. */
export class InvalidControlError extends DualnetError {
  override name = 'InvalidControlError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_CONTROL'
}
