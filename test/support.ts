/**
 * Constants of the chain rules shared by the client-library tests (ethers, viem,
 * web3.js). Not a test file itself: vitest only collects `*.test.ts`.
 */

import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import type { Devnet } from '../src/index.ts'

/** The solo node's EIP-155 chain id. */
export const CHAIN_ID = 12345
/** 1 gwei in wei. */
export const GWEI = 1_000_000_000n
/** Gas-token balance of every dev account at genesis: 10,000 tokens of 18 decimals. */
export const INITIAL_BALANCE = 10_000n * 10n ** 18n
/** Emitter of the synthetic gas-token Transfer logs. */
export const GAS_TOKEN = '0x0000000000000000000000000000000000000002'
/** Receiver of every fee. */
export const GOVERNANCE = '0x0000000000000000000000000000000000000007'
/** keccak256('Transfer(address,address,uint256)'). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Initial supply the tests deploy Token with. */
export const SUPPLY = 1_000_000n * 10n ** 18n

/** `address` (0x + 40 hex) left-padded to a 32-byte topic, lower case. */
export function addressTopic(address: string): string {
  return `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
}

/** `value` as a 32-byte big-endian 0x-hex word (log data of a Transfer). */
export function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`
}

/** Every message in an error's chain (`message`, `shortMessage`, `details`, nested `info.error`, `cause`, `error`). */
export function errorMessages(err: unknown): string {
  const seen = new Set<unknown>()
  const out: string[] = []
  const visit = (e: unknown): void => {
    if (typeof e !== 'object' || e === null || seen.has(e)) return
    seen.add(e)
    const o = e as Record<string, unknown>
    for (const key of ['message', 'shortMessage', 'details']) if (typeof o[key] === 'string') out.push(o[key] as string)
    visit(o.cause)
    visit(o.error)
    visit((o.info as Record<string, unknown> | undefined)?.error)
  }
  visit(err)
  return out.join('\n')
}

/**
 * Sends a native `main` transfer of 1 from native dev account 0 to itself, built and
 * signed by ontology-ts-sdk and posted through `devnet.rest`; resolves to its REST
 * (byte-reversed) hash. Fails the test when the node refuses it.
 */
export async function sendNativeTransfer(devnet: Devnet): Promise<string> {
  const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
  const account = devnet.nativeAccounts[0]!
  const from = new sdk.Crypto.Address(account.base58)
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONT', from, from, 1, '0', '20000')
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(account.privateKey.slice(2)))
  const answer = await devnet.rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: '1.0.0', Data: tx.serialize() })
  if (answer.Error !== 0) throw new Error(`native transfer refused: ${JSON.stringify(answer)}`)
  return answer.Result as string
}

/**
 * Options of `vi.waitFor` for something that happens soon after an event (a
 * notification, a poll): its default of 1 s is too short on a busy CI machine, and a
 * wait that succeeds returns as soon as the condition holds.
 */
export const EVENTUALLY = { timeout: 15_000, interval: 20 }
