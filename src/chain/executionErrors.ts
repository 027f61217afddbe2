/**
 * The errors of calls that fail (eth_call, eth_estimateGas), with the texts clients
 * decode: geth's for a call that cannot start, "execution reverted: <reason>" for a
 * revert with an `Error(string)` payload.
 */
import { decodeRevertReason } from '../evm/revertReason.ts'
import type { ExecutionOutcome } from '../evm/executor.ts'
import { ExecutionFailedError } from '../core/errors.ts'

/** The error of a failed call, with the text clients decode (reference decisions table). */
export function executionError(outcome: ExecutionOutcome): ExecutionFailedError {
  const kind = outcome.error?.kind ?? 'revert'
  if (kind !== 'revert') return new ExecutionFailedError(outcome.error?.message ?? kind, kind, new Uint8Array(0))
  const reason = decodeRevertReason(outcome.returnValue)
  return new ExecutionFailedError(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, 'revert', outcome.returnValue)
}

/**
 * The geth text for a call that could not start. `err` is whatever the EVM threw: an
 * Error, or @ethereumjs/evm's `EVMError` object, which carries its text in `error`
 * and has no `message` (a contract creation whose value the sender cannot pay).
 */
export function simulationFailure(err: unknown): string {
  const message = errorText(err)
  if (/enough funds|insufficient/i.test(message)) return 'insufficient funds for transfer'
  return message.split(' (')[0] ?? message
}

function errorText(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const { message, error } = err as { message?: unknown; error?: unknown }
    if (typeof message === 'string') return message
    if (typeof error === 'string') return error
  }
  return String(err)
}
