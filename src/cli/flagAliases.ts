/**
 * Other spellings of the CLI's flags, taken as well: Anvil's (its visible aliases in
 * foundry's crates/anvil/src/cmd.rs and crates/anvil/server/src/config.rs), and those of
 * the Hardhat tasks a user comes from (dualnet's own Hardhat task, `--rest-port`;
 * Hardhat's `node` task, `--hostname`, `--fork`). The CLI's names stay the node's
 * (`--rest`, `--restport`, `--rpcport`, reference §0) and Anvil's, as `--help` lists them;
 * an alias is hidden from the list, and the flag it stands for names it in its description.
 */
import { type Command, Option } from 'commander'

/**
 * A flag that sets another flag's value: the same attribute (so `program.opts()` and
 * the flags' conflicts see one flag), the same parser, and an error names the spelling
 * given (`option '--rest-port <port>' argument 'x' is invalid. …`). A flag without a
 * value stands for `preset`: the other flag's switch (`--no-mine` for `--no-mining`) or
 * one of its values (`--no-cors` for `--cors none`).
 */
class AliasOption extends Option {
  readonly #of: Option

  constructor(alias: string, of: Option, description: string, preset?: unknown) {
    const argument = preset === undefined ? /\s[<[].*$/.exec(of.flags)?.[0] : undefined
    super(`${alias}${argument ?? ''}`, description)
    this.#of = of
    this.hideHelp()
    if (argument !== undefined) {
      if (of.parseArg !== undefined) this.argParser(of.parseArg)
    } else {
      // A switch: never commander's --no- negation (it would give the attribute a default of its own).
      this.negate = false
      this.preset(preset ?? !of.negate)
    }
  }

  /** The attribute of the flag it stands for, where commander keeps the value. */
  override attributeName(): string {
    return this.#of.attributeName()
  }
}

/** An alias: its spelling, the CLI's flag it stands for (long name), whose name it is (its own description), and for a switch standing for a value, that value (as parsed). */
interface FlagAlias {
  alias: string
  of: string
  whose: string
  preset?: unknown
  /** The value `preset` stands for, as the flag it stands for is given it. */
  shown?: string
}

/** Every alias the CLI takes. */
export const FLAG_ALIASES: readonly FlagAlias[] = [
  { alias: '--rpc-port', of: '--rpcport', whose: 'the kebab-case (as --rest-port)' },
  { alias: '--rest-port', of: '--restport', whose: "dualnet's Hardhat task's" },
  { alias: '--hostname', of: '--host', whose: "Hardhat's node task's" },
  { alias: '--allow-origin', of: '--cors', whose: "Anvil's" },
  { alias: '--no-cors', of: '--cors', whose: "Anvil's", preset: false, shown: 'none' },
  { alias: '--blockTime', of: '--block-time', whose: "Anvil's" },
  { alias: '--no-mine', of: '--no-mining', whose: "Anvil's" },
  { alias: '--no-console-log', of: '--disable-console-log', whose: "Anvil's" },
  { alias: '--rpc-url', of: '--fork-url', whose: "Anvil's" },
  { alias: '--fork', of: '--fork-url', whose: "Hardhat's node task's" },
  { alias: '--no-storage-caching', of: '--no-fork-cache', whose: "Anvil's" },
]

/**
 * Adds {@link FLAG_ALIASES} to `program`, whose flags they stand for must all be
 * defined, and names each in the description of its flag (`… (also --rest-port)`).
 */
export function addFlagAliases(program: Command): Command {
  const named = new Map<Option, string[]>()
  for (const { alias, of, whose, preset, shown } of FLAG_ALIASES) {
    const target = program.options.find((option) => option.long === of)
    if (target === undefined) throw new Error(`flag alias ${alias}: no flag ${of}`)
    program.addOption(new AliasOption(alias, target, `${whose} name for ${of}${shown === undefined ? '' : ` ${shown}`}`, preset))
    named.set(target, [...(named.get(target) ?? []), preset === undefined ? alias : `${alias} for ${of} ${shown}`])
  }
  // Before a default the description states itself (`… (default: automine on)`): commander's own comes last too.
  for (const [target, aliases] of named) target.description = target.description.replace(/(?= \(default: [^)]*\)$)|$/, ` (also ${aliases.join(', ')})`)
  return program
}
