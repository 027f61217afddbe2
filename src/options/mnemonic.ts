/**
 * The `mnemonic` option checked as BIP-39 defines a mnemonic: 12 to 24 words (a
 * multiple of 3) of the English word list, one space apart, whose last bits are the
 * checksum (the first bits of SHA-256 of the entropy). @scure/bip39 does the check;
 * it is loaded only for a mnemonic other than the default, off the start-up path.
 */
import { DEFAULT_MNEMONIC } from '../chain/devAccounts.ts'
import { InvalidOptionError } from '../errors/invalidOption.ts'

/** What the option takes. */
export const MNEMONIC_ALLOWED = 'a BIP-39 mnemonic: 12, 15, 18, 21 or 24 words of the English word list, one space apart, with a valid checksum'

/** Throws InvalidOptionError naming `path` unless `value` is a BIP-39 mnemonic; the reason names the first bad word or the checksum. */
export async function checkMnemonic(value: unknown, path = 'mnemonic'): Promise<void> {
  if (value === DEFAULT_MNEMONIC) return
  if (typeof value !== 'string') throw new InvalidOptionError(path, value, MNEMONIC_ALLOWED)
  const [{ validateMnemonic }, { wordlist }] = await Promise.all([import('@scure/bip39'), import('@scure/bip39/wordlists/english.js')])
  if (validateMnemonic(value, wordlist)) return
  const words = value.split(' ')
  const known = new Set(wordlist)
  const bad = words.findIndex((w) => !known.has(w))
  const reason = words.includes('')
    ? 'the words must be one space apart, without leading or trailing space'
    : ![12, 15, 18, 21, 24].includes(words.length)
      ? `${words.length} words`
      : bad !== -1
        ? `word ${bad + 1}, ${JSON.stringify(words[bad])}, is not in the word list`
        : 'the checksum does not match'
  throw new InvalidOptionError(path, value, MNEMONIC_ALLOWED, { reason })
}
