/**
 * Setting an ERC-20 balance or allowance directly in a token's storage, as Anvil's
 * anvil_dealERC20 / anvil_setERC20Allowance do (foundry crates/anvil/src/eth/api.rs):
 * trace the getter (`balanceOf(owner)` / `allowance(owner, spender)`), take the
 * storage slots it reads, and keep the first slot whose new value the getter then
 * answers; every other slot tried is put back. Anvil reads the slots from an access
 * list; the struct logger's SLOAD keys are the same slots of the token's own storage
 * (a proxy's too, since DELEGATECALL reads the caller's storage).
 *
 * The chain's own token contracts hold no EVM storage: the gas token's balance is the
 * account's gas balance (wei, 18 decimals, what eth_getBalance shows) and the main
 * token's is its main balance (9 decimals), so for them the balance is set directly
 * (docs/native-transactions.md, src/core/constants.ts).
 */
import type { Chain } from '../chain/chain.ts'
import { traceCall } from '../chain/replay.ts'
import { EVM_TX_GAS_CAP, GAS_TOKEN_ADDRESS, MAIN_TOKEN_ADDRESS } from '../core/constants.ts'
import { StructLogger } from '../evm/tracing/structLogger.ts'
import type { StructLoggerResult } from '../core/rpcObjects.ts'
import { fromHex, toHexRaw } from '../util/hex.ts'
import { InvalidControlError } from './errors.ts'

/** Most slots tried: a getter reading more is no plain ERC-20 (Anvil tries each of its access list's). */
const MAX_SLOTS = 64

/** `balanceOf(address)` and `allowance(address,address)` selectors. */
const BALANCE_OF = '70a08231'
const ALLOWANCE = 'dd62ed3e'

const word = (bytes: Uint8Array): string => toHexRaw(bytes).padStart(64, '0')
const wordOf = (value: bigint): Uint8Array => fromHex(`0x${value.toString(16).padStart(64, '0')}`)

/** What a storage-writing control needs of the devnet: the chain and how a slot is set (DevnetControls.setStorageAt, which persists). */
export interface StorageWriter {
  chain: Chain
  setStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>
}

/** Calls the getter `data` on `token` at the head; its 32-byte answer as a number, or undefined when it failed or answered otherwise. */
async function read(chain: Chain, token: Uint8Array, data: Uint8Array): Promise<bigint | undefined> {
  try {
    const out = await chain.call({ from: new Uint8Array(20), to: token, data, value: 0n, gasLimit: EVM_TX_GAS_CAP, gasPrice: 0n })
    return out.length === 32 ? BigInt(`0x${toHexRaw(out)}`) : undefined
  } catch {
    return undefined
  }
}

/** The storage keys the getter `data` reads (SLOAD) in trace order, without repeats. */
async function slotsRead(chain: Chain, token: Uint8Array, data: Uint8Array): Promise<Uint8Array[]> {
  const tracer = new StructLogger({ disableStorage: true })
  const result = (await traceCall(chain, { from: new Uint8Array(20), to: token, data, value: 0n, gasLimit: EVM_TX_GAS_CAP, gasPrice: 0n }, chain.height, tracer)) as StructLoggerResult
  const seen = new Set<string>()
  for (const log of result.structLogs) {
    if (log.op !== 'SLOAD' || log.stack === undefined || log.stack.length === 0) continue
    seen.add(log.stack[log.stack.length - 1]!.replace(/^0x/, '').padStart(64, '0'))
    if (seen.size >= MAX_SLOTS) break
  }
  return [...seen].map((key) => fromHex(`0x${key}`))
}

/**
 * Sets the getter `data`'s answer on `token` to `amount` by writing the slot it reads.
 * Throws {@link InvalidControlError} naming `what` when no slot read holds it.
 */
async function setBySlot(writer: StorageWriter, token: Uint8Array, data: Uint8Array, amount: bigint, what: string): Promise<void> {
  const { chain } = writer
  if (chain.code(token).length === 0) throw new InvalidControlError(`${what}: ${'0x' + toHexRaw(token)} has no contract code`)
  const target = wordOf(amount)
  for (const slot of await slotsRead(chain, token, data)) {
    const before = chain.storage(token, slot)
    await writer.setStorage(token, slot, target)
    if ((await read(chain, token, data)) === amount) return
    await writer.setStorage(token, slot, fromHex(`0x${word(before)}`))
  }
  throw new InvalidControlError(`${what}: no storage slot ${'0x' + toHexRaw(token)} reads for it holds the amount (not an ERC-20 that keeps it in its own storage)`)
}

const same = (a: Uint8Array, b: Uint8Array) => toHexRaw(a) === toHexRaw(b)

/**
 * anvil_dealERC20: makes `token`'s `balanceOf(owner)` answer `amount` (the token's
 * base units). The chain's gas and main tokens set the account's balances instead.
 */
export async function dealErc20(
  writer: StorageWriter & { setBalances(address: Uint8Array, change: { gas?: bigint; main?: bigint }): Promise<void> },
  token: Uint8Array,
  owner: Uint8Array,
  amount: bigint,
): Promise<void> {
  if (amount < 0n || amount >= 2n ** 256n) throw new InvalidControlError(`invalid token amount ${amount}`)
  if (same(token, GAS_TOKEN_ADDRESS)) return writer.setBalances(owner, { gas: amount })
  if (same(token, MAIN_TOKEN_ADDRESS)) return writer.setBalances(owner, { main: amount })
  await setBySlot(writer, token, Uint8Array.from(Buffer.from(BALANCE_OF + word(owner), 'hex')), amount, 'balanceOf')
}

/**
 * anvil_setERC20Allowance: makes `token`'s `allowance(owner, spender)` answer
 * `amount`. The chain's own tokens keep allowances in native state, which no control
 * sets: refused for them.
 */
export async function setErc20Allowance(writer: StorageWriter, token: Uint8Array, owner: Uint8Array, spender: Uint8Array, amount: bigint): Promise<void> {
  if (amount < 0n || amount >= 2n ** 256n) throw new InvalidControlError(`invalid token amount ${amount}`)
  if (same(token, GAS_TOKEN_ADDRESS) || same(token, MAIN_TOKEN_ADDRESS)) {
    throw new InvalidControlError("allowance: the chain's own tokens keep allowances in native state, not in EVM storage; send an approve transaction instead")
  }
  await setBySlot(writer, token, Uint8Array.from(Buffer.from(ALLOWANCE + word(owner) + word(spender), 'hex')), amount, 'allowance')
}
