/**
 * Genesis: block 0 as a solo node builds it (reference §5.5), then the devnet's dev
 * accounts funded by ordinary transfers in the same block.
 *
 * Block 0 holds, in order:
 * 1. the node's ten system transactions (native/genesisTransactions.ts): six deploys
 *    (main, gas, params, ONT ID, auth, governance config), then the `init` invokes of
 *    main, gas, params and governance config. Their records are the node's genesis
 *    events (§1.4.6): main `init` notifies the whole main supply from the zero address
 *    to the bookkeeper; gas `init` notifies the whole gas supply to the main-token
 *    contract while a solo node credits it to the bookkeeper (§4.1); the others notify
 *    nothing; every record has State 1 and GasConsumed 0; deploys name the contract
 *    they created (hash160 of the code, §1.4.5).
 * 2. the funding: at most two native `transferV2` calls signed by the bookkeeper (gas
 *    price 0, nonce 0), one per token, with one transfer state per dev account (and,
 *    with unbound-gas accrual on, the unallocated gas to the main-token contract, as
 *    on mainnet, which pays the claims). Their records carry the transfer notifies the
 *    token contract emits (native/tokenContract.ts `transferNotify`).
 *
 * The state written is the end state of those transactions, so both total supplies
 * are conserved at every height, and the block hash depends only on the bookkeeper
 * key, the allocations and the timestamp (fixed clock: reproducible hashes).
 *
 * Start-up cost: hashing two transactions and the TransactionsRoot (the ten system
 * transactions are built once per bookkeeper key and shared). The bookkeeper's signatures of
 * the funding transactions (P-256, which loads @noble/curves) and the records (whose
 * Base58 addresses load the Base58 codec) are made on first use.
 */
import { GAS_TOTAL_SUPPLY, MAIN_TOKEN_ADDRESS, MAIN_TOTAL_SUPPLY, MIN_GAS_LIMIT, ZERO_ADDRESS } from '../core/constants.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import type { ChainBlock } from './block.ts'
import { blockHash, type BlockHeader } from '../native/blockHeader.ts'
import { logsBloom } from './bloom.ts'
import { GENESIS_CONSENSUS_DATA } from './chain.ts'
import { appendLeaf, transactionsRoot } from '../native/merkle.ts'
import type { ExecutionRecord } from './record.ts'
import type { GenesisTransaction, NativeChainTransaction } from './transaction.ts'
import { deployedContractAddress, GENESIS_INIT, nativeGenesisTransactions } from '../native/genesisTransactions.ts'
import { pushBytes } from '../native/script.ts'
import type { Token, TokenCall, TransferState } from '../native/tokenCall.ts'
import { buildTokenCall } from '../native/tokenCallBuilder.ts'
import { transferNotify } from '../native/tokenContract.ts'
import { encodeNativeTransaction, nativeTransactionHash, NativeTxType, type NativeSig, type NativeTransaction } from '../native/transaction.ts'
import type { WorldState } from '../state/worldState.ts'
import { concatBytes, toHex, toHexRaw } from '../util/hex.ts'

/** Initial balances of one address: `main` in 1e-9 units, `gas` in wei. */
export interface GenesisAllocation {
  address: Uint8Array
  main: bigint
  gas: bigint
}

/**
 * Writes the genesis state into `world` at height 0 and returns block 0 (see the
 * module comment for its transactions). `gasReserve` is where the gas not allocated
 * stays: the bookkeeper (solo), or the main-token contract (mainnet, where claims are
 * paid from; a transfer in block 0 moves it there). Throws `RangeError` when the
 * allocations exceed a total supply, are negative, or repeat an address (the
 * bookkeeper's included).
 */
export function buildGenesis(world: WorldState, allocations: readonly GenesisAllocation[], bookkeeper: Bookkeeper, timestamp: number, gasReserve: Uint8Array = bookkeeper.address): ChainBlock {
  let main = 0n
  let gas = 0n
  const seen = new Set<string>()
  for (const a of allocations) {
    const key = toHexRaw(a.address)
    if (seen.has(key) || key === toHexRaw(bookkeeper.address)) {
      throw new RangeError(`genesis allocates ${toHex(a.address)} twice`)
    }
    seen.add(key)
    if (a.main < 0n || a.gas < 0n) throw new RangeError(`negative genesis balance for ${toHex(a.address)}`)
    main += a.main
    gas += a.gas
  }
  if (main > MAIN_TOTAL_SUPPLY) throw new RangeError(`genesis allocates ${main} main units, above the supply ${MAIN_TOTAL_SUPPLY}`)
  if (gas > GAS_TOTAL_SUPPLY) throw new RangeError(`genesis allocates ${gas} gas units, above the supply ${GAS_TOTAL_SUPPLY}`)

  const payouts = (token: Token): TransferState[] => allocations.filter((a) => a[token] > 0n).map((a) => ({ from: bookkeeper.address, to: a.address, amount: a[token] }))
  const gasPayouts = payouts('gas')
  const reserve = toHexRaw(gasReserve)
  const reserveIsBookkeeper = reserve === toHexRaw(bookkeeper.address)
  if (!reserveIsBookkeeper && gas < GAS_TOTAL_SUPPLY) gasPayouts.push({ from: bookkeeper.address, to: gasReserve, amount: GAS_TOTAL_SUPPLY - gas })
  const funding = [fundingTransaction('main', payouts('main'), bookkeeper), fundingTransaction('gas', gasPayouts, bookkeeper)].filter((tx): tx is FundingTransaction => tx !== undefined)

  // The end state of the transactions above.
  for (const a of allocations) world.setAccount(toHexRaw(a.address), { nonce: 0n, gas: a.gas, main: a.main, codeHash: undefined }, 0)
  if (reserveIsBookkeeper) {
    world.setAccount(reserve, { nonce: 0n, gas: GAS_TOTAL_SUPPLY - gas, main: MAIN_TOTAL_SUPPLY - main, codeHash: undefined }, 0)
  } else {
    world.setAccount(toHexRaw(bookkeeper.address), { nonce: 0n, gas: 0n, main: MAIN_TOTAL_SUPPLY - main, codeHash: undefined }, 0)
    world.setAccount(reserve, { nonce: 0n, gas: GAS_TOTAL_SUPPLY - gas, main: 0n, codeHash: undefined }, 0)
  }

  const system = systemTransactions(bookkeeper.address)
  const transactions = [...system, ...funding]
  const txRoot = transactionsRoot(transactions.map((tx) => tx.hash))
  const header: BlockHeader = {
    version: 0,
    prevHash: new Uint8Array(32),
    transactionsRoot: txRoot,
    // The genesis header's BlockRoot is all zero; the tree still holds its TransactionsRoot (§5.3).
    blockRoot: new Uint8Array(32),
    timestamp,
    height: 0,
    consensusData: GENESIS_CONSENSUS_DATA,
    // Solo's genesis has no consensus payload (vconfig.GenesisConsensusPayload is VBFT-only).
    consensusPayload: new Uint8Array(0),
    nextBookkeeper: bookkeeper.address,
    bookkeepers: [],
  }
  return new GenesisBlock(header, transactions, appendLeaf([], 0, txRoot), () => [...system.map((tx, i) => systemRecord(tx, i, bookkeeper.address)), ...funding.map(fundingRecord)])
}

/** The system transactions of each bookkeeper address seen (a few at most): they never change, and devnets share them. */
const systemMemo = new Map<string, readonly GenesisTransaction[]>()

function systemTransactions(bookkeeper: Uint8Array): readonly GenesisTransaction[] {
  const key = toHexRaw(bookkeeper)
  let txs = systemMemo.get(key)
  if (txs === undefined) {
    if (systemMemo.size >= 16) systemMemo.clear()
    txs = Object.freeze(nativeGenesisTransactions(bookkeeper).map(systemTransaction))
    systemMemo.set(key, txs)
  }
  return txs
}

function systemTransaction(tx: NativeTransaction): GenesisTransaction {
  return { kind: 'genesis', hash: nativeTransactionHash(tx), raw: encodeNativeTransaction(tx), tx, from: ZERO_ADDRESS, signers: [] }
}

const TRUE = Uint8Array.of(1)
const EMPTY = new Uint8Array(0)

/** A record as the node writes it for a genesis transaction: State 1, no fee, no gas steps (gas price 0). */
function record(fields: Pick<ExecutionRecord, 'contractAddress' | 'returnValue' | 'notify'>): ExecutionRecord {
  return { state: 1, gasUsed: 0n, gasConsumed: 0n, cumulativeGasUsed: 0n, logs: [], firstLogIndex: 0, ...fields }
}

/**
 * The record of the system transaction at `index` (reference §1.4.6 genesis events):
 * a deploy names the contract it stored; main `init` notifies the main supply (v1 1e9)
 * from the zero address to the bookkeeper, gas `init` the gas supply (v1 1e18) to the
 * main-token contract (ong.go `OngInit`: the notify's `to` even where solo credits the
 * bookkeeper); params and governance `init` notify nothing.
 */
function systemRecord(tx: GenesisTransaction, index: number, bookkeeper: Uint8Array): ExecutionRecord {
  const p = tx.tx.payload
  if (p.kind === 'deploy') return record({ contractAddress: deployedContractAddress(p.code), returnValue: EMPTY, notify: [] })
  const notify =
    index === GENESIS_INIT.main
      ? [transferNotify('main', ZERO_ADDRESS, bookkeeper, MAIN_TOTAL_SUPPLY)]
      : index === GENESIS_INIT.gas
        ? [transferNotify('gas', ZERO_ADDRESS, MAIN_TOKEN_ADDRESS, GAS_TOTAL_SUPPLY)]
        : []
  return record({ contractAddress: undefined, returnValue: TRUE, notify })
}

function fundingRecord(tx: FundingTransaction): ExecutionRecord {
  const call = tx.call as Extract<TokenCall, { method: 'transfer' }>
  return record({ contractAddress: undefined, returnValue: TRUE, notify: call.states.map((s) => transferNotify(call.token, s.from, s.to, s.amount)) })
}

/**
 * A `transferV2` of `token` from the bookkeeper with `states` (v2 units), or
 * `undefined` when there is nothing to transfer.
 */
function fundingTransaction(token: Token, states: TransferState[], bookkeeper: Bookkeeper): FundingTransaction | undefined {
  if (states.length === 0) return undefined
  const call: TokenCall = { token, method: 'transfer', v2: true, states }
  const unsigned: NativeTransaction = {
    version: 0,
    txType: NativeTxType.InvokeNeo,
    nonce: 0,
    gasPrice: 0n,
    gasLimit: MIN_GAS_LIMIT,
    payer: bookkeeper.address,
    payload: { kind: 'invoke', code: buildTokenCall(call) },
    sigs: [],
  }
  return new FundingTransaction(unsigned, call, bookkeeper)
}

/**
 * A funding transfer: an ordinary native transaction, signed by the bookkeeper as the
 * SDK signs (`0x01` ‖ r ‖ s over SHA-256 of the hash, single-key program; §2.2) when
 * its bytes are first needed. The hash covers only the unsigned part.
 */
class FundingTransaction implements NativeChainTransaction {
  readonly kind = 'native' as const
  readonly hash: Uint8Array
  readonly from: Uint8Array
  readonly signers: readonly Uint8Array[]
  readonly call: TokenCall
  readonly #unsigned: NativeTransaction
  readonly #bookkeeper: Bookkeeper
  #signed: NativeTransaction | undefined
  #raw: Uint8Array | undefined

  constructor(unsigned: NativeTransaction, call: TokenCall, bookkeeper: Bookkeeper) {
    this.#unsigned = unsigned
    this.#bookkeeper = bookkeeper
    this.hash = nativeTransactionHash(unsigned)
    this.from = bookkeeper.address
    this.signers = [bookkeeper.address]
    this.call = call
  }

  get tx(): NativeTransaction {
    if (this.#signed === undefined) {
      const sig: NativeSig = {
        invocation: pushBytes(concatBytes(Uint8Array.of(0x01), this.#bookkeeper.sign(this.hash))),
        verification: concatBytes(pushBytes(this.#bookkeeper.publicKey), Uint8Array.of(0xac)),
      }
      this.#signed = { ...this.#unsigned, sigs: [sig] }
    }
    return this.#signed
  }

  get raw(): Uint8Array {
    this.#raw ??= encodeNativeTransaction(this.tx)
    return this.#raw
  }
}

/** Block 0: no signatures, records made on first read. */
class GenesisBlock implements ChainBlock {
  readonly header: BlockHeader
  readonly hash: Uint8Array
  readonly transactions: ChainBlock['transactions']
  readonly peaks: Uint8Array[]
  readonly gasUsed = 0n
  #records: ExecutionRecord[] | undefined
  readonly #makeRecords: () => ExecutionRecord[]

  constructor(header: BlockHeader, transactions: ChainBlock['transactions'], peaks: Uint8Array[], makeRecords: () => ExecutionRecord[]) {
    this.header = header
    this.hash = blockHash(header)
    this.transactions = transactions
    this.peaks = peaks
    this.#makeRecords = makeRecords
  }

  get records(): ExecutionRecord[] {
    this.#records ??= this.#makeRecords()
    return this.#records
  }

  logsBloom(): Uint8Array {
    return logsBloom(this, () => this.records.flatMap((r) => r.logs))
  }

  signatures(): Uint8Array[] {
    return []
  }
}
