/**
 * The rule of every `devnet.listen()` option (ListenOptions, src/options/types.ts). The
 * table's type lists every key of ListenOptions, so an option added there without a
 * rule here does not compile.
 */
import { existsSync } from 'node:fs'
import type { ListenOptions } from './types.ts'
import { boolean, either, func, listOf, objectOf, refuse, type Rule, wholeNumber } from './rules.ts'

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

/** A path that exists when the devnet listens (what it holds is read later, when the page asks). */
const existingPath: Rule<string> = {
  allowed: 'the path of an existing file or directory',
  check(value, path) {
    if (typeof value !== 'string' || value === '' || value.includes('\0')) refuse(existingPath, path, value)
    if (!existsSync(value)) refuse(existingPath, path, value, 'no such file or directory')
    return value
  },
}

/** The explorer's `artifacts`: one existing path or a list of 1 to 100, each refused with its own reason. */
const artifactPaths: Rule<string | string[]> = {
  allowed: 'an existing path (a Hardhat or Foundry project, an artifacts or build-info directory, or solc standard-JSON output), or a list of 1 to 100 such paths',
  check(value, path) {
    if (typeof value === 'string') return existingPath.check(value, path)
    return listOf(existingPath, 1, 100, artifactPaths.allowed).check(value, path)
  },
}

/** The rule of the `explorer.artifacts` option (ExplorerOptions in types.ts), which the CLI's `--artifacts` checks by. */
export const EXPLORER_ARTIFACTS_RULE: Rule<string | string[]> = artifactPaths

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
  explorer: either<unknown>(boolean, objectOf({ artifacts: artifactPaths }, `{ artifacts? } with artifacts ${artifactPaths.allowed}`)),
} satisfies { readonly [K in keyof Required<ListenOptions>]: Rule }
