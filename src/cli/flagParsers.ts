/**
 * The parsers of the CLI's flag values (cli/flags.ts): a flag that sets a createDevnet or
 * listen option checks its value by that option's rule (optionFlags.ts, `ruleParser`),
 * saying what is allowed in the flag's words where the option's would name the option's
 * own syntax (`--clock N`, not `{ step }`); the others check their own form. A refusal is
 * commander's InvalidArgumentError, which commander prints as
 * `option '--x <v>' argument 'y' is invalid. <why>`.
 */
import { InvalidArgumentError } from 'commander'
import type { ClockMode } from '../chain/clock.ts'
import { DAY, U32_MAX } from '../options/devnetRules.ts'
import { grouped, wholeNumber } from '../options/rules.ts'
import { MNEMONIC_FLAG_ALLOWED, ruleParser } from './optionFlags.ts'

/** Whole gwei in wei. */
const GWEI = 10n ** 9n

/** A parser of a whole number as a bigint in [0, max]. */
export function bigInteger(max: bigint, what: string) {
  return (value: string): bigint => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${what} must be a whole number`)
    const n = BigInt(value)
    if (n > max) throw new InvalidArgumentError(`${what} must be at most ${grouped(max)}`)
    return n
  }
}

/** `--hardfork`: the `hardfork` option's names in any case (Anvil's `Shanghai` too), and Anvil's `merge` for Paris. */
export const hardfork = ruleParser('hardfork', (text) => (text.toLowerCase() === 'merge' ? 'paris' : text.toLowerCase()))

/** `--fork-block-number`: the `fork` option's `blockNumber`, a whole block number. */
export const forkBlockNumber = ruleParser('fork', undefined, wholeNumber(0, Number.MAX_SAFE_INTEGER)) as (text: string) => number

/** A parser of a directory path: any non-empty string. */
export function directory(what: string) {
  return (value: string): string => {
    if (value === '') throw new InvalidArgumentError(`${what} must not be empty`)
    return value
  }
}

/** `--fork-url` and `--fork-rest-url`: an http(s) URL of `what`. */
export function httpUrl(what: string) {
  return (value: string): string => {
    let url: URL | undefined
    try {
      url = new URL(value)
    } catch {
      url = undefined
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new InvalidArgumentError(`the fork URL must be an http(s) URL of ${what}`)
    return value
  }
}

/** A switch of the answer profile: "node" or "ethereum", refused in commander's own words for choices. */
export function answerChoice(value: string): 'node' | 'ethereum' {
  if (value !== 'node' && value !== 'ethereum') throw new InvalidArgumentError('Allowed choices are node, ethereum.')
  return value
}

/**
 * `--mnemonic`: the words, one space apart however they were spaced on the command
 * line (none is refused here); its BIP-39 words and checksum are checked after parsing
 * (checkOptionsOfFlags), as createDevnet checks them.
 */
export function mnemonic(value: string): string {
  const words = value.trim().split(/\s+/).join(' ')
  if (words === '') throw new InvalidArgumentError(`No words. Allowed: ${MNEMONIC_FLAG_ALLOWED}.`)
  return words
}

/** `--cors`: `*`, `none` (the `cors` option's `false`; `--no-cors` too) or origins separated by commas. */
export const cors = ruleParser(
  'cors',
  (text) => (text === 'none' ? false : text === '*' ? '*' : text.split(',').map((origin) => origin.trim())),
  undefined,
  "'*' (any origin), 'none', or origins separated by commas",
) as (text: string) => '*' | string[] | false

/** `--gas-price`, Anvil's flag in wei: a whole number of gwei, as the chain prices gas (reference §1.4.9). */
export function gasPriceWei(value: string): bigint {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('the gas price must be a whole number of wei')
  const wei = BigInt(value)
  if (wei % GWEI !== 0n) throw new InvalidArgumentError('the gas price must be a whole number of gwei (a multiple of 1000000000 wei)')
  return wei / GWEI
}

/** `--vhosts`: `*`, or host names separated by commas. */
export function vhosts(value: string): '*' | string[] {
  const names = value.split(',').map((name) => name.trim())
  if (names.includes('*')) return '*'
  if (names.some((name) => !/^[A-Za-z0-9.-]+$/.test(name))) throw new InvalidArgumentError('the virtual hosts must be "*" or host names separated by commas')
  return names
}

/** `--clock`: `wall`, `frozen`, or a step in seconds between blocks (the `clock` option's `{ step }`, which its refusal does not name). */
export const clock = ruleParser(
  'clock',
  (text) => (/^\d+$/.test(text) ? { step: BigInt(text) } : text),
  undefined,
  `'wall', 'frozen', or N, each block N seconds after its parent, a whole number from 1 to ${grouped(DAY)}`,
) as (text: string) => ClockMode

/** `--bookkeeper-key`: the `bookkeeperKey` option, `0x` optional, any case. */
export const privateKey = ruleParser(
  'bookkeeperKey',
  (text) => `0x${text.replace(/^0x/, '').toLowerCase()}`,
  undefined,
  'a P-256 private key: 64 hex digits (0x optional), not zero, below the curve order',
)

/** `--unbound-gas [deadline]`: the `unboundGas` option's deadline (not the option's `{ deadline }`). */
export const unboundDeadline = (
  (check) => (text: string) =>
    check(text).deadline!
)(
  ruleParser('unboundGas', (text) => ({ deadline: /^\d+$/.test(text) ? BigInt(text) : text }), undefined, `a deadline in seconds after genesis, a whole number from 1 to ${grouped(U32_MAX)}`) as (
    text: string,
  ) => { deadline?: number },
)

/** `--gas-snapshot-tolerance`: the `gasSnapshot` option's `tolerance`, a decimal percentage from 0 to 1,000,000. */
export function percent(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 1_000_000) throw new InvalidArgumentError('Allowed: a percentage from 0 to 1,000,000.')
  return Number(value)
}
