/**
 * The rule of every `devnet.listen()` option (ListenOptions, src/options/types.ts). The
 * table's type lists every key of ListenOptions, so an option added there without a
 * rule here does not compile.
 */
import type { ListenOptions } from './types.ts'
import { boolean, either, func, listOf, refuse, type Rule, wholeNumber } from './rules.ts'

/** A non-empty string without spaces: a host name, an IP address or an origin. */
function word(allowed: string): Rule<string> {
  const rule: Rule<string> = {
    allowed,
    check(value, path) {
      if (typeof value !== 'string' || !/^\S+$/.test(value)) refuse(rule, path, value)
      return value
    },
  }
  return rule
}

const port = wholeNumber(0, 65_535)

/** Every listen option's rule. */
export const LISTEN_OPTION_RULES = {
  host: word('an interface address or name to bind (127.0.0.1, ::1, 0.0.0.0, localhost, ...)'),
  rpcPort: port,
  restPort: port,
  rest: boolean,
  log: func('a function of one line'),
  cors: either<unknown>(word("'*' (any origin) or an origin"), listOf(word('an origin'), 0, Number.MAX_SAFE_INTEGER, 'a list of origins'), {
    allowed: 'false',
    check: (value, path) => (value === false ? false : refuse({ allowed: 'false' }, path, value)),
  }),
  vhosts: either<unknown>(word("'*' or a host name"), listOf(word('a host name'), 1, Number.MAX_SAFE_INTEGER, 'a non-empty list of host names')),
  explorer: boolean,
} satisfies { readonly [K in keyof Required<ListenOptions>]: Rule }
