/**
 * The eth_ read methods of issue 34 item 3 beside the block and transaction getters:
 * raw transactions (eth_getRawTransactionBy*, debug_getRawTransaction) decoded with
 * @ethereumjs/tx and ethers to show they round-trip, headers, block receipts, uncles,
 * eth_getTransactionBySenderAndNonce, eth_getAccount and net_listening; in process and
 * over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBlockFromRLP, createBlockHeaderFromRLP } from '@ethereumjs/block'
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createLegacyTxFromRLP } from '@ethereumjs/tx'
import { JsonRpcProvider, Transaction, Wallet } from 'ethers'
import { createPublicClient, http } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const STRANGER = `0x${'ab'.repeat(20)}`
const EMPTY_TRIE = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'

let devnet: Devnet
let rpcUrl: string
let wallet: Wallet
let raw: string
let txHash: string
let blockNumber: string
let blockHash: string

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  wallet = new Wallet(devnet.accounts[0]!.privateKey)
  raw = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, gasPrice: GWEI, gasLimit: 21_000n, to: STRANGER, value: 5n })
  txHash = (await devnet.rpc('eth_sendRawTransaction', [raw])) as string
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [txHash]))!
  blockNumber = receipt.blockNumber
  blockHash = receipt.blockHash
})

afterAll(async () => {
  await devnet?.close()
})

/** One JSON-RPC call over HTTP: its result, or its error object. */
async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as never
}

describe('raw transactions', () => {
  it('eth_getRawTransactionByHash and debug_getRawTransaction give the signed RLP, which decodes to the same transaction', async () => {
    const served = (await devnet.rpc('eth_getRawTransactionByHash', [txHash]))!
    expect(served).toBe(raw)
    expect(await devnet.rpc('debug_getRawTransaction', [txHash])).toBe(raw)
    expect((await overHttp('eth_getRawTransactionByHash', [txHash])).result).toBe(raw)
    const decoded = createLegacyTxFromRLP(Buffer.from(served.slice(2), 'hex'), { common: createCustomCommon({ chainId: CHAIN_ID }, Mainnet) })
    expect(`0x${Buffer.from(decoded.hash()).toString('hex')}`).toBe(txHash)
    expect(decoded.getSenderAddress().toString()).toBe(wallet.address.toLowerCase())
    expect(Transaction.from(served).hash).toBe(txHash)
    expect(await devnet.rpc('eth_getRawTransactionByHash', [`0x${'11'.repeat(32)}`])).toBeNull()
  })

  it('a pending transaction is found too', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const next = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 1, gasPrice: GWEI, gasLimit: 21_000n, to: STRANGER, value: 1n })
      const hash = (await devnet.rpc('eth_sendRawTransaction', [next])) as string
      expect(await devnet.rpc('eth_getRawTransactionByHash', [hash])).toBe(next)
      const pending = (await devnet.rpc('eth_getTransactionBySenderAndNonce', [wallet.address, '0x1']))!
      expect(pending.hash).toBe(hash)
      expect(pending.blockNumber).toBeNull()
      await devnet.rpc('evm_mine', [])
      const mined = (await devnet.rpc('eth_getTransactionBySenderAndNonce', [wallet.address, '0x1']))!
      expect(mined.hash).toBe(hash)
      expect(mined.blockNumber).not.toBeNull()
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })

  it('by block and index: the RLP, and "0x" out of range or for an unknown block, as go-ethereum answers', async () => {
    expect(await devnet.rpc('eth_getRawTransactionByBlockNumberAndIndex', [blockNumber, '0x0'])).toBe(raw)
    expect(await devnet.rpc('eth_getRawTransactionByBlockHashAndIndex', [blockHash, '0x0'])).toBe(raw)
    expect(await devnet.rpc('eth_getRawTransactionByBlockNumberAndIndex', [blockNumber, '0x5'])).toBe('0x')
    expect(await devnet.rpc('eth_getRawTransactionByBlockHashAndIndex', [`0x${'22'.repeat(32)}`, '0x0'])).toBe('0x')
    expect((await overHttp('eth_getRawTransactionByBlockHashAndIndex', [blockHash, '0x0'])).result).toBe(raw)
  })
})

describe('blocks', () => {
  it('eth_getHeaderByNumber / ByHash: the block object less transactions, uncles, size and totalDifficulty', async () => {
    const block = (await devnet.rpc('eth_getBlockByNumber', [blockNumber, false]))!
    const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, ...expected } = block
    expect(await devnet.rpc('eth_getHeaderByNumber', [blockNumber])).toEqual(expected)
    expect(await devnet.rpc('eth_getHeaderByHash', [blockHash])).toEqual(expected)
    expect((await overHttp('eth_getHeaderByHash', [blockHash])).result).toEqual(expected)
    expect(await devnet.rpc('eth_getHeaderByNumber', ['0xffff'])).toBeNull()
    expect(await devnet.rpc('eth_getHeaderByHash', [`0x${'33'.repeat(32)}`])).toBeNull()
  })

  it('eth_getBlockReceipts: the receipts eth_getTransactionReceipt gives, in block order; null for no block', async () => {
    const receipt = await devnet.rpc('eth_getTransactionReceipt', [txHash])
    expect(await devnet.rpc('eth_getBlockReceipts', [blockNumber])).toEqual([receipt])
    expect(await devnet.rpc('eth_getBlockReceipts', ['0x0'])).toEqual([])
    expect(await devnet.rpc('eth_getBlockReceipts', ['0xffff'])).toBeNull()
    const provider = new JsonRpcProvider(rpcUrl, CHAIN_ID, { staticNetwork: true })
    try {
      expect(await provider.send('eth_getBlockReceipts', [blockNumber])).toEqual([receipt])
    } finally {
      provider.destroy()
    }
  })

  it('debug_getRawReceipts: each receipt as go-ethereum encodes a legacy one, decoding to eth_getBlockReceipts', async () => {
    const receipts = (await devnet.rpc('eth_getBlockReceipts', [blockNumber]))!
    const raws = (await devnet.rpc('debug_getRawReceipts', [blockNumber]))!
    expect(raws).toHaveLength(receipts.length)
    expect((await overHttp('debug_getRawReceipts', [blockHash])).result).toEqual(raws)
    const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
    const quantity = (b: Uint8Array) => `0x${BigInt(b.length === 0 ? 0 : hex(b)).toString(16)}`
    for (const [i, raw] of raws.entries()) {
      const [status, cumulative, bloom, logs] = RLP.decode(Buffer.from(raw.slice(2), 'hex')) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][]]
      const receipt = receipts[i]!
      expect([quantity(status), quantity(cumulative), hex(bloom)]).toEqual([receipt.status, receipt.cumulativeGasUsed, receipt.logsBloom])
      expect(logs.map(([address, topics, data]) => ({ address: hex(address as Uint8Array), topics: (topics as unknown as Uint8Array[]).map(hex), data: hex(data as Uint8Array) }))).toEqual(
        receipt.logs.map((log) => ({ address: log.address, topics: log.topics, data: log.data })),
      )
    }
    expect(await devnet.rpc('debug_getRawReceipts', ['0xffff'])).toBeNull()
  })

  it('debug_getRawHeader / debug_getRawBlock: the EVM view in go-ethereum’s layout, which @ethereumjs/block decodes', async () => {
    const view = (await devnet.rpc('eth_getBlockByNumber', [blockNumber, false]))!
    const rawHeader = (await devnet.rpc('debug_getRawHeader', [blockNumber]))!
    const rawBlock = (await devnet.rpc('debug_getRawBlock', [blockHash]))!
    expect((await overHttp('debug_getRawHeader', [blockHash])).result).toBe(rawHeader)
    const common = createCustomCommon({ chainId: CHAIN_ID }, Mainnet, { hardfork: Hardfork.Istanbul })
    const header = createBlockHeaderFromRLP(Buffer.from(rawHeader.slice(2), 'hex'), { common })
    const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
    expect([header.number, header.timestamp, header.gasLimit, header.gasUsed]).toEqual([BigInt(view.number), BigInt(view.timestamp), BigInt(view.gasLimit), BigInt(view.gasUsed)])
    expect([hex(header.parentHash), hex(header.transactionsTrie), hex(header.logsBloom)]).toEqual([view.parentHash, view.transactionsRoot, view.logsBloom])
    // The chain's block hash is the native header's: the EVM view's RLP hashes to something else.
    expect(hex(header.hash())).not.toBe(view.hash)
    const block = createBlockFromRLP(Buffer.from(rawBlock.slice(2), 'hex'), { common })
    expect(block.transactions.map((tx) => hex(tx.hash()))).toEqual(view.transactions)
    expect(hex(block.header.serialize())).toBe(rawHeader)
    expect(await devnet.rpc('debug_getRawBlock', ['0xffff'])).toBeNull()
  })

  it('uncles: null, with no uncles to give', async () => {
    expect(await devnet.rpc('eth_getUncleByBlockNumberAndIndex', [blockNumber, '0x0'])).toBeNull()
    expect(await devnet.rpc('eth_getUncleByBlockHashAndIndex', [blockHash, '0x0'])).toBeNull()
    const client = createPublicClient({ transport: http(rpcUrl) })
    expect(await client.request({ method: 'eth_getUncleByBlockHashAndIndex' as never, params: [blockHash, '0x0'] as never })).toBeNull()
  })
})

describe('accounts and the node', () => {
  it('eth_getAccount: balance, nonce, the empty code hash and the empty storage root of an account without storage', async () => {
    const account = await devnet.rpc('eth_getAccount', [STRANGER, 'latest'])
    expect(account).toEqual({ balance: await devnet.rpc('eth_getBalance', [STRANGER, 'latest']), nonce: '0x0', codeHash: EMPTY_CODE_HASH, storageRoot: EMPTY_TRIE })
    expect((await devnet.rpc('eth_getAccount', [wallet.address, blockNumber])).nonce).toBe('0x1')
  })

  it('eth_getAccount refuses an account with storage: the devnet keeps no storage trie', async () => {
    await devnet.rpc('hardhat_setStorageAt', [STRANGER, '0x0', `0x${'00'.repeat(31)}01`])
    const answer = await overHttp('eth_getAccount', [STRANGER, 'latest'])
    expect(answer.error?.code).toBe(-32000)
    expect(answer.error?.message).toMatch(/storageRoot/)
  })

  it('net_listening: true', async () => {
    expect(await devnet.rpc('net_listening')).toBe(true)
    expect((await overHttp('net_listening', [])).result).toBe(true)
  })
})
