/**
 * Building blocks of the option tables: each rule says in one phrase what it allows
 * and turns an allowed value into the form the devnet uses (a whole number given as a
 * bigint becomes a number where the option is a number, and the other way round),
 * throwing {@link InvalidOptionError} naming the option otherwise.
 */
import { InvalidOptionError, nearest } from '../errors/invalidOption.ts'

/** One option's check. */
export interface Rule<T = unknown> {
  /** What the option takes, as a phrase: `a whole number from 0 to 65,535`. */
  readonly allowed: string
  /** `value` normalised; throws InvalidOptionError naming `path` when it is not allowed. */
  check(value: unknown, path: string): T
}

/**
 * Numbers in messages, grouped as `toLocaleString('en-US')` groups them: `9,007,199,254,740,991`.
 * Whole numbers are grouped here rather than by `toLocaleString`, whose first call in a
 * process sets up ICU's number formatting (about 45 ms of CPU), and the option tables call
 * this at import (docs/performance.md, "Cold start"). Other numbers go to `toLocaleString`.
 */
export function grouped(n: number | bigint): string {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',')
}

/** Throws the error of `rule` refusing `value` at `path`. */
export function refuse(rule: Pick<Rule, 'allowed'>, path: string, value: unknown, reason?: string, cause?: unknown): never {
  throw new InvalidOptionError(path, value, rule.allowed, { reason, cause })
}

/** A whole number in [min, max], given as a number or a bigint; the result is a number. */
export function wholeNumber(min: number, max: number): Rule<number> {
  const rule: Rule<number> = {
    allowed: `a whole number from ${grouped(min)} to ${grouped(max)}`,
    check(value, path) {
      const n = typeof value === 'bigint' && value >= BigInt(min) && value <= BigInt(max) ? Number(value) : value
      if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) refuse(rule, path, value)
      return n
    },
  }
  return rule
}

/** A whole number in [min, max], given as a bigint or a number up to 2^53 - 1 (beyond, a number may have lost digits); the result is a bigint. */
export function wholeBigint(min: bigint, max: bigint): Rule<bigint> {
  const rule: Rule<bigint> = {
    allowed: `a whole number from ${grouped(min)} to ${grouped(max)}`,
    check(value, path) {
      if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        refuse(rule, path, value, 'a number above 2^53 - 1 may have lost digits: give a bigint')
      }
      const n = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value
      if (typeof n !== 'bigint' || n < min || n > max) refuse(rule, path, value)
      return n
    },
  }
  return rule
}

/** One of the strings `values` (exact case); a near miss gets "did you mean". */
export function oneOf<const V extends string>(values: readonly V[]): Rule<V> {
  const allowed = values.map((v) => `'${v}'`)
  const rule: Rule<V> = {
    allowed: allowed.length === 2 ? `${allowed[0]} or ${allowed[1]}` : `one of ${allowed.join(', ')}`,
    check(value, path) {
      if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as V
      const suggestion = typeof value === 'string' ? nearest(value, values) : undefined
      throw new InvalidOptionError(path, value, rule.allowed, { suggestion: suggestion && `'${suggestion}'` })
    },
  }
  return rule
}

/** `true` or `false`. */
export const boolean: Rule<boolean> = {
  allowed: 'true or false',
  check(value, path) {
    if (typeof value !== 'boolean') refuse(boolean, path, value)
    return value
  },
}

/** A function (a callback option). */
export function func<F extends (...args: never[]) => unknown>(what: string): Rule<F> {
  const rule: Rule<F> = {
    allowed: what,
    check(value, path) {
      if (typeof value !== 'function') refuse(rule, path, value)
      return value as F
    },
  }
  return rule
}

/** The first of `rules` that takes the value; the phrases joined by "or". */
export function either<T>(...rules: Rule<T>[]): Rule<T> {
  const rule: Rule<T> = {
    allowed: rules.map((r) => r.allowed).join(', or '),
    check(value, path) {
      for (const r of rules) {
        try {
          return r.check(value, path)
        } catch (err) {
          // A value of the right shape with a bad part (a list with a bad item) keeps its own error.
          if (err instanceof InvalidOptionError && err.option !== path) throw err
        }
      }
      return refuse(rule, path, value)
    },
  }
  return rule
}

/** Rules of the keys of an options object (each key optional). */
export type RuleTable = Readonly<Record<string, Rule>>

/**
 * A plain object whose keys are all in `table`, each checked by its rule (`undefined`
 * counts as absent); the result holds the normalised values. An unknown key is refused
 * with the nearest known name.
 */
export function checkObject(table: RuleTable, value: unknown, path: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidOptionError(path, value, what)
  const known = Object.keys(table)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`
    const rule = Object.hasOwn(table, key) ? table[key] : undefined
    if (rule === undefined) {
      const near = nearest(key, known)
      throw new InvalidOptionError(at, (value as Record<string, unknown>)[key], known.join(', '), {
        unknown: true,
        suggestion: near === undefined ? undefined : path === '' ? near : `${path}.${near}`,
      })
    }
    const v = (value as Record<string, unknown>)[key]
    if (v !== undefined) out[key] = rule.check(v, at)
  }
  return out
}

/** An object of the keys in `table` (see {@link checkObject}). */
export function objectOf<T>(table: RuleTable, allowed: string): Rule<T> {
  return { allowed, check: (value, path) => checkObject(table, value, path, allowed) as T }
}

/** A list of at most `max` items, each checked by `item` (paths `name[i]`). */
export function listOf<T>(item: Rule<T>, min: number, max: number, allowed: string): Rule<T[]> {
  const rule: Rule<T[]> = {
    allowed,
    check(value, path) {
      if (!Array.isArray(value) || value.length < min || value.length > max) refuse(rule, path, value)
      return value.map((v, i) => item.check(v, `${path}[${i}]`))
    },
  }
  return rule
}

/** 0x and 64 hex digits holding a scalar in [1, order - 1]: a private key of the curve of that order. */
export function privateKeyOf(curve: string, order: bigint): Rule<`0x${string}`> {
  const rule: Rule<`0x${string}`> = {
    allowed: `a ${curve} private key: 0x and 64 hex digits, not zero, below the curve order`,
    check(value, path) {
      if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) refuse(rule, path, value)
      const k = BigInt(value)
      if (k === 0n || k >= order) refuse(rule, path, value)
      return value as `0x${string}`
    },
  }
  return rule
}
