/**
 * The answer profile (option `profile`, `--profile`): where go-ethereum, Hardhat and
 * Anvil answer otherwise than the real node, each difference is a named switch whose
 * default is the node's answer; `profile: 'ethereum'` sets every switch to the
 * Ethereum tools' answer, and a switch given alone still wins (docs/differences.md
 * lists them with both answers).
 */
import type { BlockContext } from '../chain/chainTypes.ts'
import type { DevnetOptions } from './types.ts'

/** Whose answers a devnet gives where the node and the Ethereum tools differ: `'node'` (default) or `'ethereum'`. */
export type AnswerProfile = 'node' | 'ethereum'

/** What eth_getStorageAt answers for a slot that holds nothing: `'node'`, `"0x"`; `'ethereum'`, 32 zero bytes. */
export type EmptyStorageAnswer = 'node' | 'ethereum'

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
export function answerSwitches(options: Pick<DevnetOptions, 'profile' | keyof AnswerSwitches>): AnswerSwitches {
  const profile = options.profile ?? 'node'
  return { blockContext: options.blockContext ?? profile, emptyStorage: options.emptyStorage ?? profile }
}
