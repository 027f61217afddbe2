/**
 * The answer profile (option `profile`, `--profile`): where go-ethereum, Hardhat and
 * Anvil answer otherwise than the real node, each difference is a named switch whose
 * default is the node's answer; `profile: 'ethereum'` sets every switch to the
 * Ethereum tools' answer, and a switch given alone still wins (docs/differences.md
 * lists them with both answers).
 */
import type { BlockContext } from '../chain/chainTypes.ts'
import type { AnswerProfile, EmptyStorageAnswer } from '../core/answers.ts'

/** Every switch of the profile, resolved. */
export interface AnswerSwitches {
  /** The block environment of calls and estimates at a block (see {@link BlockContext}). */
  blockContext: BlockContext
  /** eth_getStorageAt's answer for an empty slot (see {@link EmptyStorageAnswer}). */
  emptyStorage: EmptyStorageAnswer
}

/** The switches' names, in the docs' order. */
export const ANSWER_SWITCHES = ['blockContext', 'emptyStorage'] as const satisfies readonly (keyof AnswerSwitches)[]

/** Each switch as `options` set it, else as its profile (default `'node'`) sets it. */
export function answerSwitches(options: { profile?: AnswerProfile | undefined } & { [K in keyof AnswerSwitches]?: AnswerSwitches[K] | undefined }): AnswerSwitches {
  const profile = options.profile ?? 'node'
  return { blockContext: options.blockContext ?? profile, emptyStorage: options.emptyStorage ?? profile }
}
