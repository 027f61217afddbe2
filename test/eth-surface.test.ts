/**
 * The first batch of issue 34's eth_ surface, in process (EIP-1193 `devnet.request`)
 * and over HTTP: eth_getBlockReceipts, eth_getHeaderByNumber / ByHash, net_listening,
 * eth_getUncleBy*AndIndex, eth_getTransactionBySenderAndNonce and the
 * eth_getRawTransactionBy* methods, with viem and ethers where they have the call.
 * The chain: block 1 deploys a token; block 2 holds a token transfer, a native
 * transfer and a value transfer, so indices count a native transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserProvider, ContractFactory, Interface, JsonRpcProvider, Transaction, Wallet, type InterfaceAbi, type JsonRpcApiProvider } from 'ethers'
import { BlockNotFoundError, createPublicClient, http, type Hash, type PublicClient } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { devnetTransport } from '../src/viem.ts'
import { chainOf } from '../src/devnet/provider.ts'
import { Token } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GWEI, sendNativeTransfer } from './support.ts'
import { forkedHistory } from './fork-support.ts'

/** One way of calling the devnet: raw JSON-RPC, a viem client and an ethers provider over the same transport. */
interface Transport {
  rpc: (method: string, params: unknown[]) => Promise<unknown>
  viem: PublicClient
  ethers: JsonRpcApiProvider
}

/** The keys of go-ethereum's RPCMarshalHeader for a pre-London header (internal/ethapi/api.go). */
const HEADER_KEYS = [
  'difficulty',
  'extraData',
  'gasLimit',
  'gasUsed',
  'hash',
  'logsBloom',
  'miner',
  'mixHash',
  'nonce',
  'number',
  'parentHash',
  'receiptsRoot',
  'sha3Uncles',
  'stateRoot',
  'timestamp',
  'transactionsRoot',
]
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`
/** An address no dev key holds. */
const STRANGER_ADDRESS = '0x00000000000000000000000000000000c0ffee01'

let devnet: Devnet
let rpcUrl: string
/** The signed bytes sent, by transaction hash. */
const raws = new Map<string, string>()
let deployHash: string
/** Block 2's EVM transactions in block order, and the eth hash of its native transaction. */
let block2Txs: string[]
let nativeHash: string
let block2Hash: string
let nativeIndex: number

async function sendSigned(privateKey: string, fields: { nonce: number; to?: string; data?: string; value?: bigint; gasLimit: bigint }): Promise<string> {
  const raw = await new Wallet(privateKey).signTransaction({ type: 0, chainId: CHAIN_ID, gasPrice: GWEI, ...fields })
  const hash = (await devnet.request({ method: 'eth_sendRawTransaction', params: [raw] })) as string
  raws.set(hash, raw)
  return hash
}

/** JSON-RPC over HTTP, answering the result or throwing `{ code, message }` as the server sent them. */
async function httpRpc(method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
  if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { code: body.error.code })
  return body.result
}

const transports: { name: string; make: () => Transport }[] = [
  {
    name: 'in process',
    make: () => ({
      rpc: (method, params) => devnet.rpcUntyped(method, params),
      viem: createPublicClient({ transport: devnetTransport(devnet) }) as PublicClient,
      ethers: new BrowserProvider(devnet, undefined, { cacheTimeout: -1 }),
    }),
  },
  {
    name: 'HTTP',
    make: () => ({
      rpc: httpRpc,
      viem: createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient,
      ethers: new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1, batchStallTime: 0 }),
    }),
  },
]

beforeAll(async () => {
  devnet = await createDevnet({ console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  const [a, b] = devnet.accounts
  const tokenAbi = new Interface(Token.abi as InterfaceAbi)
  const deploy = (await new ContractFactory(tokenAbi, Token.bytecode).getDeployTransaction('Surface', 'SRF', 1_000_000n)).data
  deployHash = await sendSigned(a!.privateKey, { nonce: 0, data: deploy, gasLimit: 3_000_000n })
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!
  const token = receipt.contractAddress!
  await devnet.rpc('evm_setAutomine', [false])
  const transfer = await sendSigned(a!.privateKey, { nonce: 1, to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER_ADDRESS, 7n]), gasLimit: 200_000n })
  nativeHash = `0x${Buffer.from(await sendNativeTransfer(devnet), 'hex')
    .reverse()
    .toString('hex')}`
  const value = await sendSigned(b!.privateKey, { nonce: 0, to: STRANGER_ADDRESS, value: 5n, gasLimit: 21_000n })
  await devnet.mine()
  await devnet.rpc('evm_setAutomine', [true])
  const block = (await devnet.rpc('eth_getBlockByNumber', ['0x2', false]))!
  block2Hash = block.hash
  block2Txs = block.transactions as string[]
  expect(new Set(block2Txs)).toEqual(new Set([transfer, value]))
  const count = Number(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x2']))
  expect(count).toBe(3)
  const positions = await Promise.all([0, 1, 2].map((i) => devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', `0x${i.toString(16)}`])))
  nativeIndex = positions.indexOf(null)
  expect(nativeIndex).toBeGreaterThanOrEqual(0)
})

afterAll(() => devnet?.close())

describe.each(transports)('$name', ({ make }) => {
  let t: Transport
  beforeAll(() => {
    t = make()
  })

  describe('eth_getBlockReceipts', () => {
    it('answers the receipts of the block’s EVM transactions in block order, as eth_getTransactionReceipt renders them', async () => {
      const receipts = (await t.rpc('eth_getBlockReceipts', ['0x2'])) as { transactionHash: string; logs: { address: string }[] }[]
      const one = await Promise.all(block2Txs.map((h) => t.rpc('eth_getTransactionReceipt', [h])))
      expect(receipts).toEqual(one)
      expect(receipts.map((r) => r.transactionHash)).toEqual(block2Txs)
      // The chain's gas-token fee logs are part of each receipt.
      for (const r of receipts) expect(r.logs.some((log) => log.address === GAS_TOKEN)).toBe(true)
      expect(await t.rpc('eth_getBlockReceipts', ['latest'])).toEqual(receipts)
      expect(await t.rpc('eth_getBlockReceipts', [{ blockHash: block2Hash }])).toEqual(receipts)
      expect(await t.rpc('eth_getBlockReceipts', ['0x1'])).toEqual([await t.rpc('eth_getTransactionReceipt', [deployHash])])
      expect(await t.rpc('eth_getBlockReceipts', ['0x0'])).toEqual([])
    })

    it('answers null for an unknown block', async () => {
      expect(await t.rpc('eth_getBlockReceipts', ['0x3e8'])).toBeNull()
      expect(await t.rpc('eth_getBlockReceipts', [{ blockHash: UNKNOWN_HASH }])).toBeNull()
    })

    it('viem getBlockReceipts by number and by tag', async () => {
      const byNumber = await t.viem.getBlockReceipts({ blockNumber: 2n })
      expect(byNumber.map((r) => r.transactionHash)).toEqual(block2Txs)
      expect(byNumber.map((r) => r.status)).toEqual(['success', 'success'])
      expect((await t.viem.getBlockReceipts({ blockTag: 'latest' })).map((r) => r.transactionHash)).toEqual(block2Txs)
      await expect(t.viem.getBlockReceipts({ blockNumber: 1_000n })).rejects.toBeInstanceOf(BlockNotFoundError)
    })

    it('takes a block hash as go-ethereum’s BlockNumberOrHash does (viem getBlockReceipts({ blockHash }) sends it bare)', async () => {
      expect(await t.rpc('eth_getBlockReceipts', [block2Hash])).toEqual(await t.rpc('eth_getBlockReceipts', ['0x2']))
      expect((await t.viem.getBlockReceipts({ blockHash: block2Hash as Hash })).map((r) => r.transactionHash)).toEqual(block2Txs)
    })
  })

  describe('eth_getHeaderByNumber / eth_getHeaderByHash', () => {
    it('answer the block object without transactions, uncles, size and totalDifficulty (go-ethereum RPCMarshalHeader)', async () => {
      for (const n of ['0x0', '0x1', '0x2']) {
        const block = (await t.rpc('eth_getBlockByNumber', [n, false])) as Record<string, unknown>
        const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, ...expected } = block
        const header = (await t.rpc('eth_getHeaderByNumber', [n])) as Record<string, unknown>
        expect(header).toEqual(expected)
        expect(Object.keys(header).sort()).toEqual(HEADER_KEYS)
        expect(await t.rpc('eth_getHeaderByHash', [block.hash])).toEqual(header)
      }
      expect(await t.rpc('eth_getHeaderByNumber', ['latest'])).toEqual(await t.rpc('eth_getHeaderByHash', [block2Hash]))
    })

    it('answer null for an unknown block', async () => {
      expect(await t.rpc('eth_getHeaderByNumber', ['0x3e8'])).toBeNull()
      expect(await t.rpc('eth_getHeaderByHash', [UNKNOWN_HASH])).toBeNull()
    })
  })

  it('net_listening is true (raw, viem and ethers)', async () => {
    expect(await t.rpc('net_listening', [])).toBe(true)
    expect(await t.viem.request({ method: 'net_listening' } as never)).toBe(true)
    expect(await t.ethers.send('net_listening', [])).toBe(true)
  })

  it('eth_getUncleByBlockHashAndIndex / …NumberAndIndex are null: the chain has no uncles', async () => {
    for (const i of ['0x0', '0x1']) {
      expect(await t.rpc('eth_getUncleByBlockHashAndIndex', [block2Hash, i])).toBeNull()
      expect(await t.rpc('eth_getUncleByBlockNumberAndIndex', ['0x2', i])).toBeNull()
    }
    expect(await t.rpc('eth_getUncleByBlockHashAndIndex', [UNKNOWN_HASH, '0x0'])).toBeNull()
    expect(await t.rpc('eth_getUncleByBlockNumberAndIndex', ['0x3e8', '0x0'])).toBeNull()
    // viem's getBlock({ includeTransactions }) never asks for uncles; its request is the raw call.
    expect(await t.viem.request({ method: 'eth_getUncleByBlockNumberAndIndex', params: ['0x2', '0x0'] } as never)).toBeNull()
  })

  it('eth_getTransactionBySenderAndNonce answers the mined transaction of that sender and nonce, or null', async () => {
    const [a, b] = devnet.accounts
    expect(await t.rpc('eth_getTransactionBySenderAndNonce', [a!.address, '0x0'])).toEqual(await t.rpc('eth_getTransactionByHash', [deployHash]))
    for (const hash of block2Txs) {
      const tx = (await t.rpc('eth_getTransactionByHash', [hash])) as { from: string; nonce: string }
      expect(await t.rpc('eth_getTransactionBySenderAndNonce', [tx.from, tx.nonce])).toEqual(tx)
    }
    expect(await t.rpc('eth_getTransactionBySenderAndNonce', [a!.address, '0x2'])).toBeNull()
    expect(await t.rpc('eth_getTransactionBySenderAndNonce', [b!.address, '0x63'])).toBeNull()
    expect(await t.rpc('eth_getTransactionBySenderAndNonce', [STRANGER_ADDRESS, '0x0'])).toBeNull()
  })

  describe('eth_getRawTransactionBy*', () => {
    it('by hash: the signed legacy transaction as sent, which ethers decodes to the same hash', async () => {
      for (const [hash, raw] of raws) {
        const answer = (await t.rpc('eth_getRawTransactionByHash', [hash])) as string
        expect(answer).toBe(raw)
        expect(Transaction.from(answer).hash).toBe(hash)
      }
      expect(await t.rpc('eth_getRawTransactionByHash', [UNKNOWN_HASH])).toBeNull()
      // The same over ethers' provider.
      expect(await t.ethers.send('eth_getRawTransactionByHash', [deployHash])).toBe(raws.get(deployHash))
    })

    it('by hash: a native transaction is refused as eth_getTransactionByHash refuses it', async () => {
      await expect(t.rpc('eth_getTransactionByHash', [nativeHash])).rejects.toMatchObject({ code: -32000, message: 'not a EIP155 tx' })
      await expect(t.rpc('eth_getRawTransactionByHash', [nativeHash])).rejects.toMatchObject({ code: -32000, message: 'not a EIP155 tx' })
    })

    it('by block and index: indices count the native transaction, whose place answers "0x" (go-ethereum’s empty bytes)', async () => {
      let evm = 0
      for (let i = 0; i < 3; i++) {
        const index = `0x${i.toString(16)}`
        const byHash = (await t.rpc('eth_getRawTransactionByBlockHashAndIndex', [block2Hash, index])) as string
        expect(await t.rpc('eth_getRawTransactionByBlockNumberAndIndex', ['0x2', index])).toBe(byHash)
        if (i === nativeIndex) {
          expect(byHash).toBe('0x')
          continue
        }
        const tx = (await t.rpc('eth_getTransactionByBlockHashAndIndex', [block2Hash, index])) as { hash: string }
        expect(byHash).toBe(raws.get(tx.hash))
        expect(Transaction.from(byHash).hash).toBe(tx.hash)
        evm++
      }
      expect(evm).toBe(2)
      expect(await t.rpc('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x3'])).toBe('0x')
      expect(await t.rpc('eth_getRawTransactionByBlockNumberAndIndex', ['0x3e8', '0x0'])).toBe('0x')
      expect(await t.rpc('eth_getRawTransactionByBlockHashAndIndex', [UNKNOWN_HASH, '0x0'])).toBe('0x')
    })
  })

  it('a pending transaction: by sender and nonce with null block fields, and its raw bytes by hash', async () => {
    const snapshot = await devnet.snapshot()
    let pending: string | undefined
    try {
      await devnet.rpc('evm_setAutomine', [false])
      const a = devnet.accounts[0]!
      pending = await sendSigned(a.privateKey, { nonce: 2, to: STRANGER_ADDRESS, value: 1n, gasLimit: 21_000n })
      const tx = (await t.rpc('eth_getTransactionBySenderAndNonce', [a.address, '0x2'])) as { hash: string; blockHash: unknown; blockNumber: unknown }
      expect(tx).toEqual(await t.rpc('eth_getTransactionByHash', [pending]))
      expect(tx.hash).toBe(pending)
      expect(tx.blockHash).toBeNull()
      expect(tx.blockNumber).toBeNull()
      const raw = (await t.rpc('eth_getRawTransactionByHash', [pending])) as string
      expect(raw).toBe(raws.get(pending))
      expect(Transaction.from(raw).hash).toBe(pending)
      await devnet.mine()
      const mined = (await t.rpc('eth_getTransactionBySenderAndNonce', [a.address, '0x2'])) as { blockNumber: string }
      expect(mined.blockNumber).toBe('0x3')
    } finally {
      // The pending transaction is gone after the revert: the other transport's raw-bytes test must not look for it.
      if (pending !== undefined) raws.delete(pending)
      await devnet.revert(snapshot)
      await devnet.rpc('evm_setAutomine', [true])
    }
  })
})

describe('eth_getTransactionBySenderAndNonce past many empty blocks', () => {
  it('finds the transaction without building the empty blocks it passes', async () => {
    const snapshot = await devnet.snapshot()
    try {
      await devnet.rpc('hardhat_mine', ['0x186a0'])
      const tip = Number(await devnet.rpc('eth_blockNumber'))
      expect(chainOf(devnet).isPendingEmpty(tip - 1)).toBe(true)
      expect(await devnet.rpcUntyped('eth_getTransactionBySenderAndNonce', [devnet.accounts[0]!.address, '0x0'])).toEqual(await devnet.rpc('eth_getTransactionByHash', [deployHash]))
      expect(chainOf(devnet).isPendingEmpty(tip - 1)).toBe(true)
    } finally {
      await devnet.revert(snapshot)
    }
  })
})

describe('bad input', () => {
  it('is -32602 naming the argument', async () => {
    await expect(devnet.rpcUntyped('eth_getBlockReceipts', ['two'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('eth_getHeaderByHash', ['0x12'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('eth_getTransactionBySenderAndNonce', ['0x12', '0x0'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('eth_getRawTransactionByBlockNumberAndIndex', ['0x1', 'x'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('net_listening', [1])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('on a fork', () => {
  it('eth_getBlockReceipts by hash: a block below the fork block is the remote’s, one the fork built its own', async () => {
    const f = await forkedHistory()
    try {
      const remoteBlock = (await f.h.remote.rpc('eth_getBlockByNumber', ['0x2', false]))!
      const remoteReceipts = await f.h.remote.rpcUntyped('eth_getBlockReceipts', ['0x2'])
      expect((remoteReceipts as unknown[]).length).toBe(1)
      expect(await f.fork.rpcUntyped('eth_getBlockReceipts', [remoteBlock.hash])).toEqual(remoteReceipts)
      expect(await f.fork.rpcUntyped('eth_getBlockReceipts', [{ blockHash: remoteBlock.hash }])).toEqual(remoteReceipts)
      expect(await f.fork.rpcUntyped('eth_getBlockReceipts', ['0x2'])).toEqual(remoteReceipts)
      const from = f.fork.accounts[0]!.address
      const own = await f.fork.rpc('eth_sendTransaction', [{ from, to: STRANGER_ADDRESS, value: '0x1' }])
      const ownBlock = (await f.fork.rpc('eth_getBlockByNumber', ['latest', false]))!
      const ownReceipts = (await f.fork.rpcUntyped('eth_getBlockReceipts', [ownBlock.hash])) as { transactionHash: string }[]
      expect(ownReceipts.map((r) => r.transactionHash)).toEqual([own])
      expect(await f.fork.rpcUntyped('eth_getBlockReceipts', [UNKNOWN_HASH])).toBeNull()
    } finally {
      await f.close()
    }
  })
})
