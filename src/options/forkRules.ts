/**
 * The rule of the `fork` option (ForkOptions, fork/connect.ts) and of its fields, and
 * {@link ForkOptionError}, the {@link InvalidOptionError} of a fork: a malformed field,
 * or a block the remote or the database cannot serve. createDevnet checks the option
 * with the others; a reset (`devnet.reset({ fork })`, hardhat_reset) checks it here too.
 */
import { InvalidOptionError } from '../errors/invalidOption.ts'
import { ForkOptionError } from '../fork/optionError.ts'
import type { ForkOptions } from '../fork/connect.ts'
import { MAX_FORK_RESPONSE_LIMIT } from '../core/limits.ts'
import { checkObject, grouped, objectOf, refuse, type Rule, wholeNumber } from './rules.ts'

/** Longest timer Node keeps: 2^31 - 1 ms. */
const I32_MAX = 2 ** 31 - 1

/** An http: or https: URL (`what` names the interface). */
function httpUrl(what: string): Rule<string> {
  const rule: Rule<string> = {
    allowed: `an http(s) URL of ${what}`,
    check(value, path) {
      let protocol = ''
      try {
        protocol = typeof value === 'string' ? new URL(value).protocol : ''
      } catch {
        // Not a URL: refused below.
      }
      if (protocol !== 'http:' && protocol !== 'https:') refuse(rule, path, value)
      return value as string
    },
  }
  return rule
}

/** `fork.cache`: a directory, or false for none. */
const cache: Rule<string | false> = {
  allowed: 'a directory (a non-empty string), or false for no disk cache',
  check(value, path) {
    if (value !== false && (typeof value !== 'string' || value === '')) refuse(cache, path, value)
    return value as string | false
  },
}

/** `rule`, its InvalidOptionErrors made ForkOptionErrors. */
function forkRule<T>(rule: Rule<T>): Rule<T> {
  return {
    allowed: rule.allowed,
    check(value, path) {
      try {
        return rule.check(value, path)
      } catch (err) {
        if (err instanceof InvalidOptionError && !(err instanceof ForkOptionError)) {
          throw new ForkOptionError(err.option, err.value, err.allowed, { reason: err.reason, suggestion: err.suggestion, unknown: err.unknown, cause: err.cause })
        }
        throw err
      }
    },
  }
}

/** The fields of `fork`. */
const FORK_FIELDS = {
  url: httpUrl('a JSON-RPC node'),
  restUrl: httpUrl("the node's REST interface"),
  blockNumber: wholeNumber(0, Number.MAX_SAFE_INTEGER),
  cache,
  historyLimit: wholeNumber(1, Number.MAX_SAFE_INTEGER),
  remote: objectOf(
    {
      timeout: wholeNumber(1, I32_MAX),
      retries: wholeNumber(0, 100),
      backoff: wholeNumber(0, I32_MAX),
      retryWaitLimit: wholeNumber(0, I32_MAX),
      retryBudget: wholeNumber(0, I32_MAX),
      responseLimit: wholeNumber(1, MAX_FORK_RESPONSE_LIMIT),
    },
    `{ timeout?, retries?, backoff?, retryWaitLimit?, retryBudget?, responseLimit? }: milliseconds from 1 to ${grouped(I32_MAX)}, retries from 0 to 100, milliseconds from 0 to ${grouped(I32_MAX)} (three times), bytes from 1 to ${grouped(MAX_FORK_RESPONSE_LIMIT)}`,
  ),
} satisfies Record<string, Rule>

/** What `fork` takes, as the option tables say it. */
export const FORK_ALLOWED = '{ url, restUrl?, blockNumber?, cache?, historyLimit?, remote? } (docs/fork.md)'

/**
 * `fork`: an object of the fields above, `url` required; the result holds the values
 * normalised (a bigint block number becomes a number). Throws {@link ForkOptionError}
 * naming the field (`fork.url`, `fork.remote.timeout`), or an unknown one with the
 * nearest name.
 */
export const FORK_RULE: Rule = forkRule({
  allowed: FORK_ALLOWED,
  check(value, path) {
    const fork = checkObject(FORK_FIELDS, value, path, FORK_ALLOWED)
    if (fork.url === undefined) refuse(FORK_FIELDS.url, `${path}.url`, undefined)
    return fork
  },
})

/**
 * Checks the `fork` option's shape and returns it normalised (a bigint block number
 * as a number); throws {@link ForkOptionError} (an InvalidOptionError) naming the
 * field. (No I/O: the remote is contacted by fork/connect.ts `connectFork`.)
 */
export function checkForkOptions(fork: unknown): ForkOptions {
  return FORK_RULE.check(fork, 'fork') as ForkOptions
}
