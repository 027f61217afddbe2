/**
 * The one error of a bad option (createDevnet, `listen`, the CLI's flags through
 * them): which option, the value given, what is allowed. Thrown before anything
 * starts: no database is opened and no port bound.
 */
import { DualnetError, type DualnetErrorCode } from './base.ts'

/** Extra detail of an {@link InvalidOptionError}. */
export interface InvalidOptionDetail {
  /** Why the value is refused where "not allowed" alone would not say (a BIP-39 checksum, a duplicate key). */
  readonly reason?: string
  /** A known name near an unknown one (an unknown key, a misspelt hardfork). */
  readonly suggestion?: string
  /** The error underneath, when one caused the refusal. */
  readonly cause?: unknown
}

/**
 * An option of createDevnet or `devnet.listen()` that is unknown or holds a value it
 * cannot take. The message names the option, the value and what is allowed:
 * `option chainId: -1 is invalid. Allowed: a whole number from 1 to 9,007,199,254,740,991.`,
 * `option chainID is unknown. Did you mean chainId?`.
 */
export class InvalidOptionError extends DualnetError {
  override name = 'InvalidOptionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_OPTION'
  /** The option's path: `chainId`, `unboundGas.deadline`, `accounts[2].privateKey`; empty when the options themselves are not an object. */
  readonly option: string
  /** The value given. */
  readonly value: unknown
  /** What the option takes, as a phrase (`a whole number from 0 to 65,535`), or for an unknown option the known names. */
  readonly allowed: string
  /** Why the value is refused, beyond not being allowed (see {@link InvalidOptionDetail.reason}). */
  readonly reason: string | undefined
  /** The nearest known name, for an unknown option or value. */
  readonly suggestion: string | undefined
  /** Whether the option itself is unknown (its value is then not looked at). */
  readonly unknown: boolean

  constructor(option: string, value: unknown, allowed: string, detail: InvalidOptionDetail & { unknown?: boolean } = {}) {
    const suggestion = detail.suggestion === undefined ? '' : `Did you mean ${detail.suggestion}? `
    // An unknown option's suggestion is enough (the known names are many); a value gets both.
    const message = detail.unknown
      ? `option ${option} is unknown. ${suggestion === '' ? `Allowed: ${allowed}.` : suggestion.trimEnd()}`
      : `${option === '' ? 'options' : `option ${option}`}: ${describeValue(value)} is invalid${detail.reason === undefined ? '' : ` (${detail.reason})`}. ${suggestion}Allowed: ${allowed}.`
    super(message, detail.cause === undefined ? undefined : { cause: detail.cause })
    this.option = option
    this.value = value
    this.allowed = allowed
    this.reason = detail.reason
    this.suggestion = detail.suggestion
    this.unknown = detail.unknown ?? false
  }
}

/** A value as the message shows it: strings quoted (up to 200 characters), bigints with `n`, objects as JSON (up to 80). */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 200 ? `${value.slice(0, 197)}...` : value)
    case 'bigint':
      return `${value}n`
    case 'function':
      return 'a function'
    case 'symbol':
    case 'undefined':
      return String(value)
    case 'object': {
      if (value === null) return 'null'
      let json: string | undefined
      try {
        json = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
      } catch {
        json = undefined
      }
      if (json === undefined) return Array.isArray(value) ? 'an array' : 'an object'
      return json.length > 80 ? `${json.slice(0, 77)}...` : json
    }
    default:
      return String(value)
  }
}

/**
 * The candidate nearest to `word` by edit distance (case ignored), if near enough to
 * be a slip: at most a third of the word's letters apart (and at least one). As
 * commander suggests a flag, so that `chainID` gets `chainId`.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase()
  let best: string | undefined
  let bestDistance = Math.max(1, Math.floor(w.length / 3)) + 1
  for (const candidate of candidates) {
    const d = editDistance(w, candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

/** Damerau-Levenshtein distance (optimal string alignment): a swap of neighbours counts one. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[a.length]![b.length]!
}
