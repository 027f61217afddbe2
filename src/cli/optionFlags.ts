/**
 * The CLI's side of option checking: flag values go through the same rules as
 * createDevnet's and listen's options (src/options/), and a refusal becomes
 * commander's option error naming the flag:
 * `option '--chain-id <id>' argument '0' is invalid. Allowed: a whole number from 1 to …`.
 */
import { type Command, InvalidArgumentError } from 'commander'
import { DEVNET_OPTION_RULES } from '../options/devnetRules.ts'
import type { Rule } from '../options/rules.ts'
import { InvalidOptionError } from '../errors/invalidOption.ts'
import { LISTEN_OPTION_RULES } from '../options/listenRules.ts'
import { checkMnemonic, MNEMONIC_ALLOWED } from '../options/mnemonic.ts'
import { validateDevnetOptions, validateListenOptions } from '../options/validate.ts'
import type { DevnetOptions, ListenOptions } from '../options/types.ts'

/**
 * What follows "is invalid." in the CLI's line: the reason, a suggestion, what is
 * allowed (the option's phrase, or `allowed`, the flag's own where the option's would
 * name the option's syntax, as `clock`'s `{ step }` for `--clock N`).
 */
export function flagReason(err: InvalidOptionError, allowed = err.allowed): string {
  const reason = err.reason === undefined ? undefined : `${err.reason[0]!.toUpperCase()}${err.reason.slice(1)}.`
  return [reason, err.suggestion && `Did you mean ${err.suggestion}?`, `Allowed: ${allowed}.`].filter(Boolean).join(' ')
}

/**
 * A flag's text as the rule sees it: an integer as a bigint (exact at any size; the
 * rules take bigints), a decimal fraction as a number, anything else as written.
 */
const asWritten = (text: string): unknown => (/^-?\d+$/.test(text) ? BigInt(text) : /^-?\d*\.\d+$/.test(text) ? Number(text) : text)

type Rules = typeof DEVNET_OPTION_RULES & typeof LISTEN_OPTION_RULES

/**
 * A commander argument parser checking the flag's value by option `name`'s rule, or
 * by `rule` where the flag takes one form of the option (after `toValue`, default
 * {@link asWritten}); a refusal is commander's InvalidArgumentError with {@link flagReason},
 * saying what is allowed in the flag's words where `allowed` gives them.
 */
export function ruleParser<K extends keyof Rules>(
  name: K,
  toValue: (text: string) => unknown = asWritten,
  rule: Rule = ((DEVNET_OPTION_RULES as Partial<Rules>)[name] ?? (LISTEN_OPTION_RULES as Partial<Rules>)[name])!,
  allowed?: string,
): (text: string) => ReturnType<Rules[K]['check']> {
  return (text) => {
    try {
      return rule.check(toValue(text), name) as ReturnType<Rules[K]['check']>
    } catch (err) {
      if (err instanceof InvalidOptionError) throw new InvalidArgumentError(flagReason(err, allowed))
      throw err
    }
  }
}

/** What `-m, --mnemonic` takes: the option's phrase, but its words may be spaced any way (the flag joins them one space apart). */
export const MNEMONIC_FLAG_ALLOWED = MNEMONIC_ALLOWED.replace(', one space apart', '')

/** What a flag checked after parsing takes, in its words, where its option's phrase would not fit it. */
const FLAG_ALLOWED: Readonly<Record<string, string>> = { mnemonic: MNEMONIC_FLAG_ALLOWED }

/** Options whose flag has another name than the option (commander's attribute name of the flag). */
const FLAG_OF: Readonly<Record<string, string>> = {
  genesisTimestamp: 'timestamp',
  automine: 'mining',
  rpcPort: 'rpcport',
  restPort: 'restport',
  console: 'disableConsoleLog',
}

/**
 * Checks the createDevnet and listen options the flags make, as createDevnet and
 * listen will, before either runs: what the flags' own parsers cannot check (the
 * mnemonic's BIP-39 words and checksum, the accounts' total balances). A refusal goes
 * through `program.error` naming the flag (one line, exit code 1). Resolves to the
 * createDevnet options.
 */
export async function checkOptionsOfFlags(program: Command, devnet: () => Promise<DevnetOptions>, listen: ListenOptions): Promise<DevnetOptions> {
  try {
    // The mnemonic first: with --balance, making the devnet options derives keys from it.
    await checkMnemonic(program.opts().mnemonic)
    const options = await devnet()
    await validateDevnetOptions(options)
    validateListenOptions(listen)
    return options
  } catch (err) {
    if (!(err instanceof InvalidOptionError)) throw err
    const option = err.option.replace(/[.[].*$/, '')
    // Explicit accounts come from --balance; --port stands for --rpcport when given.
    const attribute = option === 'accounts' && Array.isArray(err.value) ? 'balance' : option === 'rpcPort' && program.opts().port !== undefined ? 'port' : (FLAG_OF[option] ?? option)
    const flag = program.options.find((o) => o.attributeName() === attribute)
    const value = program.opts()[attribute]
    return program.error(`option '${flag?.flags ?? attribute}' argument '${String(value)}' is invalid. ${flagReason(err, FLAG_ALLOWED[option])}`, { exitCode: 1 })
  }
}
