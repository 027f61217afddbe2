/**
 * The names of the answer profile's values (options/profile.ts resolves them; the
 * surfaces read them): types only, at the bottom of the layers, so that a surface and
 * the options can both name them.
 */

/** Whose answers a devnet gives where the node and the Ethereum tools differ: `'node'` (default) or `'ethereum'`. */
export type AnswerProfile = 'node' | 'ethereum'

/** What eth_getStorageAt answers for a slot that holds nothing: `'node'`, `"0x"`; `'ethereum'`, 32 zero bytes. */
export type EmptyStorageAnswer = 'node' | 'ethereum'
