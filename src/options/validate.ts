/**
 * Options checked up front: createDevnet's before any database is opened or key
 * derived, listen's before fastify loads or a port is bound. Every refusal is an
 * {@link InvalidOptionError} naming the option, the value and what is allowed
 * (tables: devnetRules.ts, listenRules.ts).
 */
import type { AccountSpec, DevnetOptions, ListenOptions } from './types.ts'
import { DEV_ACCOUNT_GAS, DEV_ACCOUNT_MAIN, GAS_TOTAL_SUPPLY, MAIN_TOTAL_SUPPLY } from '../core/constants.ts'
import { DEVNET_OPTION_RULES } from './devnetRules.ts'
import { InvalidOptionError } from '../errors/invalidOption.ts'
import { LISTEN_OPTION_RULES } from './listenRules.ts'
import { checkMnemonic } from './mnemonic.ts'
import { checkObject, grouped } from './rules.ts'

/** An explicit dev account after checking: balances as bigints. */
export interface ValidAccountSpec extends AccountSpec {
  main?: bigint
  gas?: bigint
}

/** createDevnet options after checking: whole numbers in the type the devnet uses (numbers, or bigints for balances and prices). */
export interface ValidDevnetOptions extends Omit<DevnetOptions, 'chainId' | 'genesisTimestamp' | 'minGasPrice' | 'accounts' | 'blockTime' | 'unboundGas'> {
  chainId?: number
  genesisTimestamp?: number
  minGasPrice?: bigint
  blockTime?: number
  accounts?: number | ValidAccountSpec[]
  unboundGas?: { deadline?: number }
}

/**
 * `options` checked against every createDevnet rule, then the checks that span
 * options: explicit accounts with distinct keys whose balances, with the native
 * accounts' default ones, fit in each token's supply. Throws InvalidOptionError.
 */
export function checkDevnetOptions(options: unknown): ValidDevnetOptions {
  const valid = checkObject(DEVNET_OPTION_RULES, options === undefined ? {} : options, '', 'an object of createDevnet options') as ValidDevnetOptions
  if (Array.isArray(valid.accounts)) checkAllocations(valid.accounts, valid.nativeAccounts ?? 5)
  return valid
}

/** {@link checkDevnetOptions}, and the mnemonic's words and checksum (BIP-39). */
export async function validateDevnetOptions(options: unknown): Promise<ValidDevnetOptions> {
  const valid = checkDevnetOptions(options)
  if (valid.mnemonic !== undefined) await checkMnemonic(valid.mnemonic)
  return valid
}

/** `options` checked against every listen rule. Throws InvalidOptionError. */
export function validateListenOptions(options: unknown): ListenOptions {
  return checkObject(LISTEN_OPTION_RULES, options === undefined ? {} : options, '', 'an object of listen options') as ListenOptions
}

/** Explicit accounts: distinct keys, and the genesis allocations within each token's supply. */
function checkAllocations(accounts: readonly ValidAccountSpec[], nativeAccounts: number): void {
  const seen = new Map<string, number>()
  let main = BigInt(nativeAccounts) * DEV_ACCOUNT_MAIN
  let gas = BigInt(nativeAccounts) * DEV_ACCOUNT_GAS
  accounts.forEach((account, i) => {
    const key = account.privateKey.toLowerCase()
    const first = seen.get(key)
    if (first !== undefined) {
      throw new InvalidOptionError(`accounts[${i}].privateKey`, account.privateKey, 'a key no other account has', { reason: `the key of accounts[${first}]` })
    }
    seen.set(key, i)
    main += account.main ?? DEV_ACCOUNT_MAIN
    gas += account.gas ?? DEV_ACCOUNT_GAS
  })
  const over = main > MAIN_TOTAL_SUPPLY ? `main balances of ${grouped(main)}` : gas > GAS_TOTAL_SUPPLY ? `gas balances of ${grouped(gas)}` : undefined
  if (over !== undefined) {
    throw new InvalidOptionError(
      'accounts',
      accounts,
      `balances that, with the native accounts' 10,000 tokens each, fit in the supplies: ${grouped(MAIN_TOTAL_SUPPLY)} main units and ${grouped(GAS_TOTAL_SUPPLY)} wei of gas`,
      {
        reason: `${over} in all`,
      },
    )
  }
}
