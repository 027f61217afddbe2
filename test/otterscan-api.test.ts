/**
 * Otterscan's API (issue 34 item 2; otterscan docs/custom-jsonrpc.md): every ots_ method's
 * shape and erigon_getHeaderByNumber, on a chain with a contract creation, an internal
 * value transfer, a revert with a reason and a native transfer; in process and over HTTP.
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface } from 'ethers'
import { MemoryLevel } from 'memory-level'
import { createDevnet, type Devnet, type OtsSearchResult } from '../src/index.ts'
import { DifferentialChild, DifferentialProbe, Reverter, TraceCallee, TraceCaller } from '../fixtures/index.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

const STRANGER = `0x${'ab'.repeat(20)}`
const GWEI = '0x3b9aca00'

let devnet: Devnet
let rpcUrl: string
let from: string
let reverter: string
let callee: string
let caller: string
let deployHash: string
let revertHash: string
let runHash: string
let nativeHash: string
/** Four transfers to PAGED: one in each of two blocks, then two in one block (mined together). */
let pagedHashes: string[]
const PAGED = `0x${'cd'.repeat(20)}`

/** Sends a transaction from the first dev account and answers its receipt. */
async function send(fields: Record<string, string>): Promise<{ hash: string; blockNumber: string; contractAddress: string | null; status: string }> {
  const hash = await devnet.rpc('eth_sendTransaction', [{ from, gasPrice: GWEI, gas: '0x2dc6c0', ...fields }])
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
  return { hash, blockNumber: receipt.blockNumber, contractAddress: receipt.contractAddress ?? null, status: receipt.status }
}

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  from = devnet.accounts[0]!.address
  const r = await send({ data: Reverter.bytecode })
  reverter = r.contractAddress!
  deployHash = r.hash
  callee = (await send({ data: TraceCallee.bytecode })).contractAddress!
  const args = new Interface(TraceCaller.abi as never).encodeDeploy([callee]).slice(2)
  caller = (await send({ data: TraceCaller.bytecode + args })).contractAddress!
  revertHash = (await send({ to: reverter, data: new Interface(Reverter.abi as never).encodeFunctionData('revertWithReason') })).hash
  runHash = (await send({ to: caller, value: '0x7', data: new Interface(TraceCaller.abi as never).encodeFunctionData('run') })).hash
  // A native gas-token transfer between the native dev accounts.
  const [payer, payee] = devnet.nativeAccounts as [Devnet['nativeAccounts'][number], Devnet['nativeAccounts'][number]]
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONG', new sdk.Crypto.Address(payer.base58), new sdk.Crypto.Address(payee.base58), 1, '2500', '20000')
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(payer.privateKey.slice(2)))
  await devnet.rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: '1.0.0', Data: tx.serialize() })
  nativeHash = `0x${tx.getHash()}`
  pagedHashes = [(await send({ to: PAGED, value: '0x1' })).hash, (await send({ to: PAGED, value: '0x2' })).hash]
  await devnet.rpc('evm_setAutomine', [false])
  const pending = [
    await devnet.rpc('eth_sendTransaction', [{ from, to: PAGED, value: '0x3', gasPrice: GWEI }]),
    await devnet.rpc('eth_sendTransaction', [{ from, to: PAGED, value: '0x4', gasPrice: GWEI, data: '0x12345678aabbccdd' }]),
  ]
  await devnet.rpc('evm_mine')
  await devnet.rpc('evm_setAutomine', [true])
  pagedHashes.push(...pending)
})

afterAll(async () => {
  await devnet?.close()
})

/** One JSON-RPC call over HTTP: its result, or its error object. */
async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as never
}

describe('the start-up probes', () => {
  it('ots_getApiLevel answers 8 and erigon_getHeaderByNumber the header', async () => {
    expect(await devnet.rpc('ots_getApiLevel')).toBe(8)
    expect((await overHttp('ots_getApiLevel', [])).result).toBe(8)
    const header = (await devnet.rpc('erigon_getHeaderByNumber', ['0x1']))!
    expect(header).toEqual(await devnet.rpc('eth_getHeaderByNumber', ['0x1']))
    expect(header.number).toBe('0x1')
    expect(await devnet.rpc('erigon_getHeaderByNumber', ['0xffff'])).toBeNull()
  })
})

describe('blocks, code and errors', () => {
  it('ots_getBlockDetails and ByHash: the block without transactions, its count, zero issuance and fees', async () => {
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!
    const block = (await devnet.rpc('eth_getBlockByNumber', [receipt.blockNumber, false]))!
    const details = (await devnet.rpc('ots_getBlockDetails', [receipt.blockNumber]))!
    const { transactions, logsBloom: _bloom, ...rest } = block
    expect(details.block).toEqual({ ...rest, logsBloom: null, transactionCount: transactions.length })
    expect(details.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' })
    expect(BigInt(details.totalFees)).toBe(BigInt(receipt.gasUsed) * 1_000_000_000n)
    expect(await devnet.rpc('ots_getBlockDetailsByHash', [block.hash])).toEqual(details)
    expect((await overHttp('ots_getBlockDetails', [receipt.blockNumber])).result).toEqual(details)
    expect(await devnet.rpc('ots_getBlockDetails', ['0xffff'])).toBeNull()
    expect(await devnet.rpc('ots_getBlockDetailsByHash', [`0x${'11'.repeat(32)}`])).toBeNull()
  })

  it('ots_hasCode: true for a contract, false for an account without code', async () => {
    expect(await devnet.rpc('ots_hasCode', [reverter, 'latest'])).toBe(true)
    expect(await devnet.rpc('ots_hasCode', [STRANGER, 'latest'])).toBe(false)
    const deployedAt = BigInt((await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!.blockNumber)
    expect(await devnet.rpc('ots_hasCode', [reverter, `0x${(deployedAt - 1n).toString(16)}`])).toBe(false)
  })

  it('ots_getTransactionError: the revert data of a failed transaction, 0x otherwise', async () => {
    const data = await devnet.rpc('ots_getTransactionError', [revertHash])
    expect(data.startsWith('0x08c379a0')).toBe(true)
    const [reason] = new Interface(['error Error(string)']).decodeErrorResult('Error', data)
    expect(reason).toMatch(/./)
    expect(await devnet.rpc('ots_getTransactionError', [runHash])).toBe('0x')
    expect(await devnet.rpc('ots_getTransactionError', [`0x${'11'.repeat(32)}`])).toBe('0x')
  })
})

/** The hashes of a search page. */
const hashes = (page: OtsSearchResult) => page.txs.map((t) => t.hash)

describe('ots_getBlockTransactions', () => {
  it("pages a block's transactions with input cut to the selector, receipts without logs, the block's count", async () => {
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [pagedHashes[3]!]))!
    const block = (await devnet.rpc('eth_getBlockByNumber', [receipt.blockNumber, true]))!
    expect(block.transactions).toHaveLength(2)
    const first = (await devnet.rpc('ots_getBlockTransactions', [receipt.blockNumber, 0, 1]))!
    const second = (await devnet.rpc('ots_getBlockTransactions', [receipt.blockNumber, 1, 1]))!
    const { transactions: _t, logsBloom: _b, ...rest } = block
    expect(first.fullblock).toMatchObject({ ...rest, logsBloom: null, transactionCount: 2 })
    expect(first.fullblock.transactions.map((t) => t.hash)).toEqual([pagedHashes[2]])
    expect(second.fullblock.transactions.map((t) => t.hash)).toEqual([pagedHashes[3]])
    expect(second.fullblock.transactions[0]!.input).toBe('0x12345678')
    const full = (await devnet.rpc('eth_getTransactionReceipt', [pagedHashes[3]!]))!
    const { logs: _l, logsBloom: _lb, ...receiptRest } = full
    expect(second.receipts).toEqual([{ ...receiptRest, logs: null, logsBloom: null, timestamp: block.timestamp }])
    expect((await devnet.rpc('ots_getBlockTransactions', [receipt.blockNumber, 2, 1]))!.fullblock.transactions).toEqual([])
    expect((await overHttp('ots_getBlockTransactions', [receipt.blockNumber, 0, 5])).result).toEqual(await devnet.rpc('ots_getBlockTransactions', [receipt.blockNumber, 0, 5]))
    expect(await devnet.rpc('ots_getBlockTransactions', ['0xffff', 0, 5])).toBeNull()
  })
})

describe('address search', () => {
  it('ots_searchTransactionsBefore pages back from the newest, whole blocks at a time', async () => {
    const newest = await devnet.rpc('ots_searchTransactionsBefore', [PAGED, 0, 1])
    // The newest block holds two: a page ends at a block boundary.
    expect(hashes(newest)).toEqual([pagedHashes[3], pagedHashes[2]])
    expect(newest).toMatchObject({ firstPage: true, lastPage: false })
    expect(newest.receipts.map((r) => r.transactionHash)).toEqual(hashes(newest))
    // Whole receipts, logs included (Erigon, Anvil): Otterscan's search page hands them to ethers' formatter, which needs the array.
    for (const receipt of newest.receipts) {
      const { timestamp, ...rest } = receipt
      expect(rest).toEqual(await devnet.rpc('eth_getTransactionReceipt', [receipt.transactionHash]))
      expect(timestamp).toBe((await devnet.rpc('eth_getBlockByNumber', [receipt.blockNumber, false]))!.timestamp)
    }
    expect(newest.receipts[0]!.logs.length).toBeGreaterThan(0)
    const oldestBlockOfPage = Number(newest.txs[1]!.blockNumber)
    const older = await devnet.rpc('ots_searchTransactionsBefore', [PAGED, oldestBlockOfPage, 1])
    expect(hashes(older)).toEqual([pagedHashes[1]])
    expect(older).toMatchObject({ firstPage: false, lastPage: false })
    const oldest = await devnet.rpc('ots_searchTransactionsBefore', [PAGED, Number(older.txs[0]!.blockNumber), 1])
    expect(hashes(oldest)).toEqual([pagedHashes[0]])
    expect(oldest).toMatchObject({ firstPage: false, lastPage: true })
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [PAGED, 0, 10]))).toEqual([...pagedHashes].reverse())
  })

  it('ots_searchTransactionsAfter pages forward from the oldest, answering newest first', async () => {
    const oldest = await devnet.rpc('ots_searchTransactionsAfter', [PAGED, 0, 1])
    expect(hashes(oldest)).toEqual([pagedHashes[0]])
    expect(oldest).toMatchObject({ firstPage: false, lastPage: true })
    const next = await devnet.rpc('ots_searchTransactionsAfter', [PAGED, Number(oldest.txs[0]!.blockNumber), 2])
    expect(hashes(next)).toEqual([pagedHashes[3], pagedHashes[2], pagedHashes[1]])
    expect(next).toMatchObject({ firstPage: true, lastPage: false })
    expect((await overHttp('ots_searchTransactionsAfter', [PAGED, 0, 10])).result).toEqual(await devnet.rpc('ots_searchTransactionsAfter', [PAGED, 0, 10]))
  })

  it('finds the sender, the created contract, a contract called with value inside a transaction, and a native transfer', async () => {
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [reverter, 0, 10]))).toEqual([revertHash, deployHash])
    // The callee is reached only by an internal call with value.
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [callee, 0, 10]))).toContain(runHash)
    const sent = hashes(await devnet.rpc('ots_searchTransactionsBefore', [from, 0, 100]))
    expect(sent).toContain(runHash)
    expect(sent).toContain(deployHash)
    const payee = devnet.nativeAccounts[1]!.address
    const found = await devnet.rpc('ots_searchTransactionsBefore', [payee, 0, 10])
    // The eth form of a native hash: its raw bytes, as the SDK's getHash gives them.
    const native = found.txs.find((t) => t.hash === nativeHash)
    expect(native).toMatchObject({ from: devnet.nativeAccounts[0]!.address.toLowerCase(), to: `0x${'00'.repeat(19)}02`, value: '0x0', input: '0x' })
    expect(found.receipts[found.txs.indexOf(native!)]).toMatchObject({ status: '0x1', type: '0x0', logs: [], logsBloom: `0x${'00'.repeat(256)}` })
  })

  it('ots_getContractCreator: the creating transaction and its sender; null for an account', async () => {
    expect(await devnet.rpc('ots_getContractCreator', [reverter])).toEqual({ hash: deployHash, creator: from.toLowerCase() })
    expect(await devnet.rpc('ots_getContractCreator', [STRANGER])).toBeNull()
  })

  it('the index follows a revert, and a reopened database', async () => {
    const target = `0x${'ef'.repeat(20)}`
    const id = await devnet.rpc('evm_snapshot')
    const hash = (await send({ to: target, value: '0x5' })).hash
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [target, 0, 10]))).toEqual([hash])
    await devnet.rpc('evm_revert', [id])
    expect(await devnet.rpc('ots_searchTransactionsBefore', [target, 0, 10])).toEqual({ txs: [], receipts: [], firstPage: true, lastPage: true })
    const again = (await send({ to: target, value: '0x6' })).hash
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [target, 0, 10]))).toEqual([again])

    const db = new MemoryLevel<string, string>()
    const first = await createDevnet({ accounts: 1, console: false, db })
    const account = first.accounts[0]!.address
    const sentHash = await first.rpc('eth_sendTransaction', [{ from: account, to: target, value: '0x1', gasPrice: GWEI }])
    const before = await first.rpc('ots_searchTransactionsBefore', [target, 0, 10])
    await first.close()
    const second = await createDevnet({ accounts: 1, console: false, db })
    try {
      expect(second.resumed).toBe(true)
      expect(hashes(await second.rpc('ots_searchTransactionsBefore', [target, 0, 10]))).toEqual([sentHash])
      expect(await second.rpc('ots_searchTransactionsBefore', [target, 0, 10])).toEqual(before)
    } finally {
      await second.close()
    }
  })
})

describe('calls inside a transaction', () => {
  const run = new Interface(TraceCaller.abi as never)
  const callee_ = new Interface(TraceCallee.abi as never)

  it("ots_getInternalOperations: the value transfers, the transaction's own included as Anvil lists it; the fee is none", async () => {
    expect(await devnet.rpc('ots_getInternalOperations', [runHash])).toEqual([
      { type: 0, from: from.toLowerCase(), to: caller.toLowerCase(), value: '0x7' },
      { type: 0, from: caller.toLowerCase(), to: callee.toLowerCase(), value: '0x7' },
    ])
    expect(await devnet.rpc('ots_getInternalOperations', [revertHash])).toEqual([])
    expect((await overHttp('ots_getInternalOperations', [runHash])).result).toEqual(await devnet.rpc('ots_getInternalOperations', [runHash]))
  })

  it('ots_traceTransaction: every frame with its depth, value null where none moves', async () => {
    const entries = await devnet.rpc('ots_traceTransaction', [runHash])
    expect(entries.map(({ type, depth, from: f, to, value }) => ({ type, depth, from: f, to, value }))).toEqual([
      { type: 'CALL', depth: 0, from: from.toLowerCase(), to: caller.toLowerCase(), value: '0x7' },
      { type: 'CALL', depth: 1, from: caller.toLowerCase(), to: callee.toLowerCase(), value: '0x7' },
      // fail() is pure: Solidity calls it with STATICCALL.
      { type: 'STATICCALL', depth: 1, from: caller.toLowerCase(), to: callee.toLowerCase(), value: null },
    ])
    expect(entries[0]!.input).toBe(run.encodeFunctionData('run'))
    expect(entries[1]!.input).toBe(callee_.encodeFunctionData('ping', [21]))
    expect(BigInt(entries[1]!.output)).toBe(42n)
    expect(entries[2]!.output.startsWith('0x08c379a0')).toBe(true)
    await expect(devnet.rpc('ots_traceTransaction', [`0x${'11'.repeat(32)}`])).rejects.toMatchObject({ code: -32000 })
  })

  it('a contract created by a contract: a CREATE2 operation, and ots_getContractCreator names the creating contract', async () => {
    const deployed = await send({ data: DifferentialProbe.bytecode + new Interface(DifferentialProbe.abi as never).encodeDeploy([0]).slice(2), gas: '0x5b8d80' })
    expect(deployed.status).toBe('0x1')
    const probe = deployed.contractAddress!
    const init = DifferentialChild.bytecode + new Interface(DifferentialChild.abi as never).encodeDeploy([5]).slice(2)
    const data = new Interface(DifferentialProbe.abi as never).encodeFunctionData('create2', [init, `0x${'01'.repeat(32)}`, 3])
    const hash = (await send({ to: probe, value: '0x3', data })).hash
    const operations = await devnet.rpc('ots_getInternalOperations', [hash])
    expect(operations).toHaveLength(2)
    expect(operations[0]).toEqual({ type: 0, from: from.toLowerCase(), to: probe.toLowerCase(), value: '0x3' })
    const child = operations[1]!
    expect(child).toMatchObject({ type: 3, from: probe.toLowerCase(), value: '0x3' })
    expect(await devnet.rpc('ots_getContractCreator', [child.to])).toEqual({ hash, creator: probe.toLowerCase() })
    expect(hashes(await devnet.rpc('ots_searchTransactionsBefore', [child.to, 0, 10]))).toEqual([hash])
  })
})

describe('ots_getTransactionBySenderAndNonce', () => {
  it('the hash of a mined transaction by its sender and nonce; null past the last, pending, or for another sender', async () => {
    const tx = (await devnet.rpc('eth_getTransactionByHash', [runHash]))!
    expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [from, tx.nonce])).toBe(runHash)
    expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [from, '0x0'])).toBe(deployHash)
    expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [STRANGER, '0x0'])).toBeNull()
    const next = await devnet.rpc('eth_getTransactionCount', [from, 'latest'])
    expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [from, next])).toBeNull()
    await devnet.rpc('evm_setAutomine', [false])
    try {
      await devnet.rpc('eth_sendTransaction', [{ from, to: STRANGER, value: '0x1', gasPrice: GWEI }])
      expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [from, next])).toBeNull()
    } finally {
      await devnet.rpc('evm_mine')
      await devnet.rpc('evm_setAutomine', [true])
    }
    expect((await overHttp('ots_getTransactionBySenderAndNonce', [from, next])).result).toMatch(/^0x[0-9a-f]{64}$/)
  })
})

describe("Otterscan's plain JSON numbers", () => {
  it('block numbers and nonces as JSON numbers, as Otterscan sends them (Erigon rpc.BlockNumber, Anvil lenient_block_number); a negative or fractional one refused', async () => {
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!
    const height = Number(receipt.blockNumber)
    expect(await devnet.rpc('ots_getBlockDetails', [height])).toEqual(await devnet.rpc('ots_getBlockDetails', [receipt.blockNumber]))
    expect((await overHttp('ots_getBlockDetails', [height])).result).toEqual(await devnet.rpc('ots_getBlockDetails', [receipt.blockNumber]))
    expect(await devnet.rpc('erigon_getHeaderByNumber', [height])).toEqual(await devnet.rpc('erigon_getHeaderByNumber', [receipt.blockNumber]))
    expect((await overHttp('erigon_getHeaderByNumber', [0])).result).toMatchObject({ number: '0x0' })
    expect(await devnet.rpc('ots_getBlockTransactions', [height, 0, 25])).toEqual(await devnet.rpc('ots_getBlockTransactions', [receipt.blockNumber, 0, 25]))
    expect(await devnet.rpc('ots_hasCode', [reverter, height])).toBe(true)
    expect((await overHttp('ots_hasCode', [reverter, height - 1])).result).toBe(false)
    expect(await devnet.rpc('ots_getTransactionBySenderAndNonce', [from, 0])).toBe(deployHash)
    for (const bad of [-1, 1.5]) {
      expect((await overHttp('ots_getBlockDetails', [bad])).error).toMatchObject({ code: -32602 })
      expect((await overHttp('ots_hasCode', [reverter, bad])).error).toMatchObject({ code: -32602 })
    }
    // go-ethereum's eth_ methods still refuse a plain number, as the real node does.
    expect((await overHttp('eth_getBlockByNumber', [height, false])).error).toMatchObject({ code: -32602 })
  })
})
