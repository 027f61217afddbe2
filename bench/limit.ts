/**
 * The limit line of `npm run bench` (issue 8, deliverable 6): the same raw ERC20
 * transfers the in-process line sends (Token fixture deployed by dev account 0 at
 * nonce 0, then transfers of 1 unit to dev account 1, 1 gwei, gas limit 100,000),
 * run with nothing around the EVM: @ethereumjs/evm's `runCall` over a minimal state
 * manager on plain `Map`s, each raw transaction RLP-decoded once, its sender recovered
 * once with the native secp256k1 the devnet uses, its hash computed once, then the
 * legacy rules (intrinsic gas, nonce and up-front balance, refund capped at half the
 * gas used, fee to governance). No pool, blocks, records, logs or JSON: what is left
 * is the floor a devnet built on this EVM (with dualnet's interpreter patches) can
 * approach, and `dualnet cost / limit` says how far above it dualnet's in-process
 * transfer is.
 */
import { Mainnet, createCustomCommon, type AccountFields, type StateManagerInterface } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import { Account, Address, KECCAK256_NULL, bytesToUnprefixedHex } from '@ethereumjs/util'
import { HDNodeWallet, Interface } from 'ethers'
import { Token } from '../fixtures/index.ts'
import { DEFAULT_MNEMONIC } from '../src/index.ts'
import { WorldState } from '../src/state/worldState.ts'
import { EvmEngine } from '../src/evm/engine.ts'
import { intrinsicGas } from '../src/evm/transactionGas.ts'
import { installWordOpcodes } from '../src/evm/patches/wordOpcodes.ts'
import { nativeCrypto } from '../src/evm/nativeSecp256k1.ts'
import { keccak256 } from '../src/util/hash.ts'
import { bigIntToMinimalBytes, bytesToBigInt } from '../src/util/hex.ts'
import { UndoLog } from '../src/evm/undoLog.ts'

const CHAIN_ID = 12345n
const GWEI = 1_000_000_000n
/** A dev account's gas balance at genesis (10,000 tokens of 18 decimals), as in the devnet. */
const FUNDS = 10_000n * 10n ** 18n
const EMPTY = new Uint8Array(0)
const GOVERNANCE = '0000000000000000000000000000000000000007'

/** What the Map holds per address. */
interface Entry {
  nonce: bigint
  balance: bigint
  codeHash: Uint8Array
}

/** StateManagerInterface over `Map`s with an undo log for the EVM's checkpoints: the least a state can be. */
class MapState implements StateManagerInterface {
  readonly accounts = new Map<string, Entry>()
  readonly #code = new Map<string, Uint8Array>()
  readonly #storage = new Map<string, Map<string, Uint8Array>>()
  /** Storage as of the start of the transaction, for EIP-2200: first value read or overwritten per slot. */
  readonly #original = new Map<string, Uint8Array>()
  readonly #undo = new UndoLog()

  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const id = `${bytesToUnprefixedHex(address.bytes)}${bytesToUnprefixedHex(key)}`
      return this.#original.get(id) ?? (await this.getStorage(address, key))
    },
    clear: (): void => {},
  }

  /** Ends a transaction: nothing can be reverted past here. */
  settle(): void {
    this.#undo.clear()
    this.#original.clear()
  }

  #set(key: string, entry: Entry | undefined): void {
    const previous = this.accounts.get(key)
    if (entry === undefined) this.accounts.delete(key)
    else this.accounts.set(key, entry)
    this.#undo.push(() => {
      if (previous === undefined) this.accounts.delete(key)
      else this.accounts.set(key, previous)
    })
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const e = this.accounts.get(bytesToUnprefixedHex(address.bytes))
    return e === undefined ? undefined : new Account(e.nonce, e.balance, undefined, e.codeHash)
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    this.#set(bytesToUnprefixedHex(address.bytes), { nonce: account.nonce, balance: account.balance, codeHash: account.codeHash })
  }

  async deleteAccount(address: Address): Promise<void> {
    this.#set(bytesToUnprefixedHex(address.bytes), undefined)
    await this.clearStorage(address)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    await this.putAccount(address, account)
  }

  async putCode(address: Address, code: Uint8Array): Promise<void> {
    const codeHash = keccak256(code)
    this.#code.set(bytesToUnprefixedHex(codeHash), code)
    await this.modifyAccountFields(address, { codeHash })
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const e = this.accounts.get(bytesToUnprefixedHex(address.bytes))
    return e === undefined ? EMPTY : (this.#code.get(bytesToUnprefixedHex(e.codeHash)) ?? EMPTY)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.#storage.get(bytesToUnprefixedHex(address.bytes))?.get(bytesToUnprefixedHex(key)) ?? EMPTY
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const addr = bytesToUnprefixedHex(address.bytes)
    const slot = bytesToUnprefixedHex(key)
    let slots = this.#storage.get(addr)
    if (slots === undefined) this.#storage.set(addr, (slots = new Map()))
    const owner = slots
    const previous = owner.get(slot)
    const id = `${addr}${slot}`
    if (!this.#original.has(id)) this.#original.set(id, previous ?? EMPTY)
    let i = 0
    while (i < value.length && value[i] === 0) i++
    if (i === value.length) owner.delete(slot)
    else owner.set(slot, value.subarray(i))
    this.#undo.push(() => {
      if (previous === undefined) owner.delete(slot)
      else owner.set(slot, previous)
    })
  }

  async clearStorage(address: Address): Promise<void> {
    const addr = bytesToUnprefixedHex(address.bytes)
    const previous = this.#storage.get(addr)
    if (previous === undefined) return
    this.#storage.delete(addr)
    this.#undo.push(() => this.#storage.set(addr, previous))
  }

  async checkpoint(): Promise<void> {
    this.#undo.checkpoint()
  }

  async commit(): Promise<void> {
    this.#undo.commit()
  }

  async revert(): Promise<void> {
    this.#undo.revert()
  }

  async getStateRoot(): Promise<Uint8Array> {
    return new Uint8Array(32)
  }

  async setStateRoot(): Promise<void> {}

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return this
  }
}

/** The least machinery that runs one signed legacy transaction. */
async function makeRunner() {
  // dualnet patches ethereumjs' interpreter process-wide when its engine is built
  // (README, Design notes); build one, unused, so that the limit runs the same
  // interpreter as the devnet whatever ran before it, and give this EVM the per-EVM
  // opcode functions the devnet's EVM has.
  await EvmEngine.create({ chainId: Number(CHAIN_ID), hardfork: 'istanbul', world: new WorldState(), blockHash: () => undefined })
  const common = createCustomCommon({ chainId: Number(CHAIN_ID) }, Mainnet, { hardfork: 'istanbul', customCrypto: nativeCrypto })
  const state = new MapState()
  const evm = await createEVM({ common, stateManager: state })
  installWordOpcodes(evm)
  const block = {
    header: {
      number: 1n,
      timestamp: 1_700_000_000n,
      coinbase: new Address(new Uint8Array(20)),
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 2n ** 64n - 1n,
      baseFeePerGas: undefined,
      getBlobGasPrice: () => undefined,
    },
  }
  const chainIdBytes = bigIntToMinimalBytes(CHAIN_ID)
  const hashes: Uint8Array[] = []

  async function run(raw: Uint8Array): Promise<{ createdAddress: Address | undefined }> {
    const [nonceB, gasPriceB, gasLimitB, to, valueB, data, vB, rB, sB] = RLP.decode(raw) as Uint8Array[] as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ]
    const signing = keccak256(RLP.encode([nonceB, gasPriceB, gasLimitB, to, valueB, data, chainIdBytes, EMPTY, EMPTY]))
    const caller = new Address(keccak256(nativeCrypto.ecrecover!(signing, bytesToBigInt(vB), rB, sB, CHAIN_ID)).subarray(12))
    hashes.push(keccak256(raw))
    const gasLimit = bytesToBigInt(gasLimitB)
    const gasPrice = bytesToBigInt(gasPriceB)
    const value = bytesToBigInt(valueB)
    const intrinsic = intrinsicGas(to.length === 0 ? undefined : to, data)
    const sender = (await state.getAccount(caller)) ?? new Account()
    const upfront = gasLimit * gasPrice
    if (gasLimit < intrinsic || sender.nonce !== bytesToBigInt(nonceB) || sender.balance < upfront + value) {
      throw new Error('limit: transaction cannot run (intrinsic gas, nonce or funds)')
    }
    sender.nonce += 1n
    sender.balance -= upfront
    await state.putAccount(caller, sender)
    const result = await evm.runCall({
      block: block as never,
      gasPrice,
      caller,
      gasLimit: gasLimit - intrinsic,
      to: to.length === 0 ? undefined : new Address(to),
      value,
      data,
      skipNonceIncrement: true,
    })
    const exec = result.execResult
    if (exec.exceptionError !== undefined) throw new Error(`limit: transaction failed (${exec.exceptionError.error})`)
    let gasUsed = intrinsic + exec.executionGasUsed
    const refund = exec.gasRefund ?? 0n
    gasUsed -= refund < gasUsed / 2n ? refund : gasUsed / 2n
    const fee = gasUsed * gasPrice
    const after = (await state.getAccount(caller))!
    after.balance += upfront - fee
    await state.putAccount(caller, after)
    const governance = state.accounts.get(GOVERNANCE)
    state.accounts.set(GOVERNANCE, { nonce: governance?.nonce ?? 0n, balance: (governance?.balance ?? 0n) + fee, codeHash: governance?.codeHash ?? KECCAK256_NULL })
    await evm.journal.cleanup()
    state.settle()
    return { createdAddress: result.createdAddress }
  }
  return { state, run, hashes }
}

/**
 * Runs the limit and reports it and dualnet's cost relative to it: `dualnetPerSecond`
 * is the in-process line's transfers per second, and the ratio is dualnet's time per
 * transfer over the limit's (the issue aims at 1.25x or less). Returns the limit's
 * transfers per second.
 */
export async function benchLimit(transfers: number, dualnetPerSecond: number, report: (name: string, value: string) => void): Promise<number> {
  const path = (i: number) => `m/44'/60'/0'/0/${i}`
  const owner = HDNodeWallet.fromPhrase(DEFAULT_MNEMONIC, undefined, path(0))
  const recipient = HDNodeWallet.fromPhrase(DEFAULT_MNEMONIC, undefined, path(1)).address
  const token = new Interface(Token.abi as never)
  const { state, run } = await makeRunner()
  await state.putAccount(new Address(Buffer.from(owner.address.slice(2), 'hex')), new Account(0n, FUNDS))
  state.settle()
  const deploy = await owner.signTransaction({
    type: 0,
    chainId: 12345,
    nonce: 0,
    gasPrice: GWEI,
    gasLimit: 3_000_000n,
    data: Token.bytecode + token.encodeDeploy(['Bench', 'BEN', 10n ** 30n]).slice(2),
  })
  const { createdAddress } = await run(Buffer.from(deploy.slice(2), 'hex'))
  const data = token.encodeFunctionData('transfer', [recipient, 1n])
  const raws: Uint8Array[] = []
  for (let i = 0; i < transfers; i++) {
    const raw = await owner.signTransaction({ type: 0, chainId: 12345, nonce: 1 + i, gasPrice: GWEI, gasLimit: 100_000n, to: createdAddress!.toString(), data })
    raws.push(Buffer.from(raw.slice(2), 'hex'))
  }
  const start = performance.now()
  for (const raw of raws) await run(raw)
  const ms = performance.now() - start
  const perSecond = (transfers / ms) * 1000
  report('limit: evm.runCall on a Map state, the same raw transfers', `${Math.round(perSecond).toLocaleString('en-US')}/s`)
  report('dualnet cost / limit (in-process time per transfer)', `${(perSecond / dualnetPerSecond).toFixed(2)}x`)
  return perSecond
}
