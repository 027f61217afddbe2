/**
 * The hardforks the devnet runs: the chain's own, Istanbul (reference §6.3), and the
 * later ones whose opcodes and gas rules it runs under the chain's fee rules, each
 * tested (test/hardforks.test.ts). Earlier forks lack what the chain's contracts need
 * and later ones (Osaka, …) are not tested, so neither is offered.
 */
export const HARDFORKS = ['istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague'] as const

/** A hardfork name the `hardfork` option takes (@ethereumjs/common's, lower case). */
export type Hardfork = (typeof HARDFORKS)[number]
