/**
 * Every JSON-RPC method of the spec's table, and the extras, through `devnet.rpc`.
 * Values are asserted exactly: the solo node's constants (reference §6.2, §8), the
 * JSON-RPC value formats (spec: QUANTITY without leading zeros, fixed-length DATA),
 * and the objects of reference §6.3 / §6.4 with the deviations of the decisions table.
 * ethers is used only to ABI-encode and sign raw transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AbiCoder, Interface, Wallet, getCreateAddress, keccak256, toBeHex, zeroPadValue } from 'ethers'
import { createDevnet, RpcError, VERSION, type Devnet } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { chainOf } from '../src/devnet/provider.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const ETHER = 10n ** 18n
const INITIAL = 10_000n * ETHER

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/
const HASH = /^0x[0-9a-f]{64}$/
const ADDRESS = /^0x[0-9a-f]{40}$/
const BLOOM = /^0x[0-9a-f]{512}$/

const ZERO_HASH = `0x${'00'.repeat(32)}`
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`
const GAS_TOKEN = `0x${'00'.repeat(19)}02`
const GOVERNANCE = `0x${'00'.repeat(19)}07`
const EMPTY_UNCLES = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'
const EMPTY_TRIE = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const TRANSFER_TOPIC = keccak256(Buffer.from('Transfer(address,address,uint256)'))
const INCREMENTED_TOPIC = keccak256(Buffer.from('Incremented(uint256)'))
/** Header (137) + 1 bookkeeper (1 + 1 + 33) + 1 signature (1 + 1 + 64) + u32 tx count: an empty non-genesis block. */
const EMPTY_BLOCK_SIZE = 242

const store = new Interface(Store.abi as never)
const abi = AbiCoder.defaultAbiCoder()

const BLOCK_KEYS = [
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
  'size',
  'stateRoot',
  'timestamp',
  'totalDifficulty',
  'transactions',
  'transactionsRoot',
  'uncles',
].sort()
const TX_KEYS = ['blockHash', 'blockNumber', 'from', 'gas', 'gasPrice', 'hash', 'input', 'nonce', 'r', 's', 'to', 'transactionIndex', 'type', 'v', 'value'].sort()
const RECEIPT_KEYS = [
  'blockHash',
  'blockNumber',
  'contractAddress',
  'cumulativeGasUsed',
  'effectiveGasPrice',
  'from',
  'gasUsed',
  'logs',
  'logsBloom',
  'status',
  'to',
  'transactionHash',
  'transactionIndex',
  'type',
].sort()
const LOG_KEYS = ['address', 'blockHash', 'blockNumber', 'data', 'logIndex', 'removed', 'topics', 'transactionHash', 'transactionIndex'].sort()

type Obj = Record<string, unknown>
type Block = Obj & { hash: string; number: string; transactions: unknown[]; gasUsed: string; timestamp: string }
type Receipt = Obj & { gasUsed: string; logs: (Obj & { logIndex: string })[] }

const q = (n: bigint | number) => `0x${n.toString(16)}`
const pad32 = (hex: string) => zeroPadValue(hex, 32)
const word = (n: bigint | number) => toBeHex(n, 32)

interface TxFields {
  to?: string
  value?: bigint
  data?: string
  gasLimit?: bigint
  gasPrice?: bigint
  nonce?: number
}

/** Signs a legacy EIP-155 transaction (type 0, chain id 12345). */
async function sign(devnet: Devnet, key: string, fields: TxFields): Promise<string> {
  const wallet = new Wallet(key)
  const nonce = fields.nonce ?? Number(BigInt(await devnet.rpc('eth_getTransactionCount', [wallet.address.toLowerCase(), 'pending'])))
  return wallet.signTransaction({
    type: 0,
    chainId: CHAIN_ID,
    nonce,
    gasPrice: fields.gasPrice ?? 0n,
    gasLimit: fields.gasLimit ?? 200_000n,
    to: fields.to ?? null,
    value: fields.value ?? 0n,
    data: fields.data ?? '0x',
  })
}

/** Signs and submits; resolves to the hash eth_sendRawTransaction answered. */
async function send(devnet: Devnet, key: string, fields: TxFields): Promise<string> {
  return await devnet.rpc('eth_sendRawTransaction', [await sign(devnet, key, fields)])
}

const receipt = async (devnet: Devnet, hash: string) => (await devnet.rpcUntyped('eth_getTransactionReceipt', [hash])) as Receipt
const block = async (devnet: Devnet, ref: string, full = false) => (await devnet.rpcUntyped('eth_getBlockByNumber', [ref, full])) as Block

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise
  } catch (err) {
    expect(err).toBeInstanceOf(RpcError)
    return err as RpcError
  }
  throw new Error('expected an RpcError')
}

describe('constant methods (fresh devnet)', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('net_version is the chain id as a decimal string', async () => {
    expect(await devnet.rpc('net_version')).toBe('12345')
  })
  it('eth_chainId is 0x3039', async () => {
    expect(await devnet.rpc('eth_chainId')).toBe('0x3039')
  })
  it('eth_protocolVersion is 0x41', async () => {
    expect(await devnet.rpc('eth_protocolVersion')).toBe('0x41')
  })
  it('eth_blockNumber is 0x0 at genesis', async () => {
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
  })
  it('eth_syncing is the solo object, never false', async () => {
    expect(await devnet.rpc('eth_syncing')).toEqual({ startingBlock: '0x0', currentBlock: '0x0', highestBlock: '0x1' })
  })
  it('eth_gasPrice is 0x0 on a fresh solo devnet', async () => {
    expect(await devnet.rpc('eth_gasPrice')).toBe('0x0')
  })
  it('eth_accounts lists the dev accounts, lower case, in order', async () => {
    const accounts = (await devnet.rpc('eth_accounts')) as string[]
    expect(accounts).toHaveLength(10)
    expect(accounts).toEqual(devnet.accounts.map((a) => a.addressLower))
    expect(accounts[0]).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    for (const a of accounts) expect(a).toMatch(ADDRESS)
  })
  it('eth_coinbase is the zero address', async () => {
    expect(await devnet.rpc('eth_coinbase')).toBe(ZERO_ADDRESS)
  })
  it('eth_mining is false', async () => {
    expect(await devnet.rpc('eth_mining')).toBe(false)
  })
  it('eth_hashrate is 0x0', async () => {
    expect(await devnet.rpc('eth_hashrate')).toBe('0x0')
  })
  it('web3_clientVersion names Hardhat Network (which the test tools require), then the devnet and its version', async () => {
    expect(await devnet.rpc('web3_clientVersion')).toBe(`HardhatNetwork/dualnet/v${VERSION}`)
  })
  it('web3_sha3 is keccak-256', async () => {
    expect(await devnet.rpc('web3_sha3', ['0x68656c6c6f20776f726c64'])).toBe('0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad')
    expect(await devnet.rpc('web3_sha3', ['0x'])).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
  })
  it('eth_getBalance of a dev account is 10,000 tokens in wei; of an unknown address 0x0', async () => {
    expect(await devnet.rpc('eth_getBalance', [devnet.accounts[0]!.address, 'latest'])).toBe(q(INITIAL))
    expect(await devnet.rpc('eth_getBalance', [`0x${'ab'.repeat(20)}`, 'latest'])).toBe('0x0')
  })
  it('the genesis block: number 0, zero parent, the root of its native transactions, no EVM transactions', async () => {
    const genesis = await block(devnet, 'earliest')
    expect(Object.keys(genesis).sort()).toEqual(BLOCK_KEYS)
    expect(genesis.number).toBe('0x0')
    expect(genesis.parentHash).toBe(ZERO_HASH)
    // Block 0 holds the node's native genesis transactions (reference §5.5), which the EVM view skips;
    // its transactionsRoot is the header's TransactionsRoot over them.
    expect(genesis.transactionsRoot).toBe(`0x${Buffer.from(chainOf(devnet).blockAt(0)!.header.transactionsRoot).toString('hex')}`)
    expect(genesis.transactionsRoot).not.toBe(EMPTY_TRIE)
    expect(genesis.transactions).toEqual([])
    expect(genesis.gasUsed).toBe('0x0')
    expect(await devnet.rpc('eth_getBlockByNumber', ['0x0', false])).toEqual(genesis)
    expect(await devnet.rpc('eth_getBlockByNumber', ['latest', false])).toEqual(genesis)
  })
  it('eth_getUncleCountByBlockHash and …ByBlockNumber are 0x0', async () => {
    const genesis = await block(devnet, '0x0')
    expect(await devnet.rpc('eth_getUncleCountByBlockHash', [genesis.hash])).toBe('0x0')
    expect(await devnet.rpc('eth_getUncleCountByBlockNumber', ['0x0'])).toBe('0x0')
    expect(await devnet.rpc('eth_getUncleCountByBlockNumber', ['latest'])).toBe('0x0')
  })
})

/**
 * One scenario, built once and only read by the tests:
 *   block 1  A deploys Store                 gasPrice 1 gwei
 *   block 2  A calls increment()             gasPrice 1 gwei  → Incremented(1) + fee log
 *   block 3  A calls setBalance(B, 0x1234)   gasPrice 0       → no logs
 *   block 4  A sends 1 token to B            gasPrice 0       → value Transfer log
 *   block 5  A calls an unknown selector     gasPrice 1 gwei  → status 0, fee log only
 */
describe('methods on a chain with history', () => {
  let devnet: Devnet
  let A: { address: string; addressLower: string; privateKey: string }
  let B: { address: string; addressLower: string; privateKey: string }
  let storeAddress: string
  const h: string[] = [] // tx hashes by block number
  let rawIncrement = ''

  beforeAll(async () => {
    devnet = await createDevnet()
    A = devnet.accounts[0]!
    B = devnet.accounts[1]!
    storeAddress = getCreateAddress({ from: A.address, nonce: 0 }).toLowerCase()
    h[1] = await send(devnet, A.privateKey, { data: Store.bytecode, gasLimit: 500_000n, gasPrice: GWEI })
    rawIncrement = await sign(devnet, A.privateKey, {
      to: storeAddress,
      data: store.encodeFunctionData('increment'),
      gasLimit: 100_000n,
      gasPrice: GWEI,
    })
    h[2] = await devnet.rpc('eth_sendRawTransaction', [rawIncrement])
    h[3] = await send(devnet, A.privateKey, {
      to: storeAddress,
      data: store.encodeFunctionData('setBalance', [B.address, 0x1234]),
      gasLimit: 100_000n,
    })
    h[4] = await send(devnet, A.privateKey, { to: B.address, value: ETHER, gasLimit: 21_000n })
    h[5] = await send(devnet, A.privateKey, { to: storeAddress, data: '0xdeadbeef', gasLimit: 100_000n, gasPrice: GWEI })
  })
  afterAll(() => devnet.close())

  it('eth_blockNumber counts one block per transaction with automine', async () => {
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x5')
    expect(await devnet.rpc('eth_syncing')).toEqual({ startingBlock: '0x0', currentBlock: '0x5', highestBlock: '0x1' })
  })

  it('eth_sendRawTransaction returns the keccak hash of the raw transaction; a resubmission returns it again', async () => {
    expect(h[2]).toBe(keccak256(rawIncrement))
    for (const hash of h.slice(1)) expect(hash).toMatch(HASH)
    expect(await devnet.rpc('eth_sendRawTransaction', [rawIncrement])).toBe(h[2])
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x5')
  })

  it('eth_getBalance: exact balances after fees and a value transfer, and as of older blocks', async () => {
    const fees = await Promise.all([1, 2, 5].map(async (n) => BigInt((await receipt(devnet, h[n]!)).gasUsed) * GWEI))
    const fee = fees.reduce((a, b) => a + b)
    expect(await devnet.rpc('eth_getBalance', [A.address, 'latest'])).toBe(q(INITIAL - ETHER - fee))
    expect(await devnet.rpc('eth_getBalance', [B.address, 'latest'])).toBe(q(INITIAL + ETHER))
    expect(await devnet.rpc('eth_getBalance', [B.address, '0x3'])).toBe(q(INITIAL))
    expect(await devnet.rpc('eth_getBalance', [B.address, '0x4'])).toBe(q(INITIAL + ETHER))
    expect(await devnet.rpc('eth_getBalance', [A.address, 'earliest'])).toBe(q(INITIAL))
    expect(await devnet.rpc('eth_getBalance', [A.address, '0x1'])).toBe(q(INITIAL - fees[0]!))
    // Every fee goes to governance 0x…07 (reference §6.5).
    expect(await devnet.rpc('eth_getBalance', [GOVERNANCE, 'latest'])).toBe(q(fee))
    // EIP-1898 block objects name the same blocks.
    expect(await devnet.rpc('eth_getBalance', [B.address, { blockNumber: '0x3' }])).toBe(q(INITIAL))
    const b4 = await block(devnet, '0x4')
    expect(await devnet.rpc('eth_getBalance', [B.address, { blockHash: b4.hash }])).toBe(q(INITIAL + ETHER))
  })

  it('state reads above the tip fail with -32000 "header not found", never the latest state', async () => {
    for (const [method, params] of [
      ['eth_getBalance', [B.address, '0x6']],
      ['eth_getTransactionCount', [A.address, '0x6']],
      ['eth_getCode', [storeAddress, '0x64']],
      ['eth_getStorageAt', [storeAddress, '0x0', '0x6']],
      ['eth_call', [{ to: storeAddress, data: store.encodeFunctionData('count') }, '0x6']],
    ] as const) {
      const err = await rpcError(devnet.rpc(method, [...params]))
      expect(err.code).toBe(-32000)
      expect(err.message).toBe('header not found')
    }
  })

  it('eth_getStorageAt: "0x" for an empty slot, 32 bytes otherwise; mapping slots; history', async () => {
    const slot = (s: string, tag: string) => devnet.rpc('eth_getStorageAt', [storeAddress, s, tag])
    expect(await slot('0x0', 'latest')).toBe(word(1))
    expect(await slot('0x0', '0x1')).toBe('0x') // count never written yet
    expect(await slot('0x0', '0x2')).toBe(word(1))
    expect(await slot('0x2', 'latest')).toBe('0x')
    const mapping = (key: string) => keccak256(abi.encode(['address', 'uint256'], [key, 1]))
    expect(mapping(B.address)).toBe(keccak256(`${pad32(B.address)}${pad32('0x01').slice(2)}`))
    expect(await slot(mapping(B.address), 'latest')).toBe(word(0x1234))
    expect(await slot(mapping(B.address), '0x2')).toBe('0x')
    expect(await slot(mapping(A.address), 'latest')).toBe('0x')
    // Not a contract at all.
    expect(await devnet.rpc('eth_getStorageAt', [B.address, '0x0', 'latest'])).toBe('0x')
    // The position is read as the real node reads it (common.HexToHash): 32-byte DATA
    // and leading zeros are accepted, e.g. a keccak slot that starts with a zero digit.
    expect(await slot(word(0), 'latest')).toBe(word(1))
    expect(await slot('0x00', 'latest')).toBe(word(1))
    let key = 1
    while (!mapping(toBeHex(key, 20)).startsWith('0x0')) key++
    expect(await slot(mapping(toBeHex(key, 20)), 'latest')).toBe('0x')
  })

  it('eth_getTransactionCount: the EVM nonce now and as of older blocks, failed transactions included', async () => {
    expect(await devnet.rpc('eth_getTransactionCount', [A.address, 'latest'])).toBe('0x5')
    expect(await devnet.rpc('eth_getTransactionCount', [A.address, 'pending'])).toBe('0x5')
    expect(await devnet.rpc('eth_getTransactionCount', [A.address, '0x4'])).toBe('0x4')
    expect(await devnet.rpc('eth_getTransactionCount', [A.address, '0x1'])).toBe('0x1')
    expect(await devnet.rpc('eth_getTransactionCount', [A.address, 'earliest'])).toBe('0x0')
    expect(await devnet.rpc('eth_getTransactionCount', [B.address, 'latest'])).toBe('0x0')
  })

  it('eth_getBlockTransactionCountByHash: all transactions of the block; null for an unknown block', async () => {
    const b2 = await block(devnet, '0x2')
    const b0 = await block(devnet, '0x0')
    expect(await devnet.rpc('eth_getBlockTransactionCountByHash', [b2.hash])).toBe('0x1')
    // Every transaction counts, native ones included (reference §6.2): genesis holds 10 system transactions and 2 funding transfers.
    expect(await devnet.rpc('eth_getBlockTransactionCountByHash', [b0.hash])).toBe('0xc')
    expect(await devnet.rpc('eth_getBlockTransactionCountByHash', [`0x${'11'.repeat(32)}`])).toBeNull()
  })

  it('eth_getBlockTransactionCountByNumber: QUANTITY|TAG; null above the tip', async () => {
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x3'])).toBe('0x1')
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['latest'])).toBe('0x1')
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['earliest'])).toBe('0xc')
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x6'])).toBeNull()
  })

  it('eth_getCode: the deployed code, "0x" before deployment and for an account; "pending" is -32602', async () => {
    expect(await devnet.rpc('eth_getCode', [storeAddress, 'latest'])).toBe(Store.deployedBytecode)
    expect(await devnet.rpc('eth_getCode', [storeAddress, '0x1'])).toBe(Store.deployedBytecode)
    expect(await devnet.rpc('eth_getCode', [storeAddress, '0x0'])).toBe('0x')
    expect(await devnet.rpc('eth_getCode', [A.address, 'latest'])).toBe('0x')
    const err = await rpcError(devnet.rpc('eth_getCode', [storeAddress, 'pending']))
    expect(err.code).toBe(-32602)
    expect(err.message).toMatch(/^invalid argument 1: /)
  })

  it('eth_getTransactionLogs: the contract event, then the fee Transfer to governance', async () => {
    const logs = (await devnet.rpcUntyped('eth_getTransactionLogs', [h[2]])) as Obj[]
    const r = await receipt(devnet, h[2]!)
    const b2 = await block(devnet, '0x2')
    expect(logs).toHaveLength(2)
    for (const log of logs) expect(Object.keys(log).sort()).toEqual(LOG_KEYS)
    expect(logs[0]).toEqual({
      address: storeAddress,
      topics: [INCREMENTED_TOPIC, word(1)],
      data: '0x',
      blockNumber: '0x2',
      transactionHash: h[2],
      transactionIndex: '0x0',
      blockHash: b2.hash,
      logIndex: '0x0',
      removed: false,
    })
    expect(logs[1]).toEqual({
      address: GAS_TOKEN,
      topics: [TRANSFER_TOPIC, pad32(A.address), pad32(GOVERNANCE)],
      data: word(BigInt(r.gasUsed) * GWEI),
      blockNumber: '0x2',
      transactionHash: h[2],
      transactionIndex: '0x0',
      blockHash: b2.hash,
      logIndex: '0x1',
      removed: false,
    })
    expect(logs).toEqual(r.logs)
    // A value transfer logs a Transfer from the sender; a zero-price call logs nothing.
    expect(await devnet.rpcUntyped('eth_getTransactionLogs', [h[3]])).toEqual([])
    const transfer = (await devnet.rpcUntyped('eth_getTransactionLogs', [h[4]])) as Obj[]
    expect(transfer.map((l) => [l.address, l.topics, l.data])).toEqual([[GAS_TOKEN, [TRANSFER_TOPIC, pad32(A.address), pad32(B.address)], word(ETHER)]])
    expect(await devnet.rpc('eth_getTransactionLogs', [`0x${'22'.repeat(32)}`])).toBeNull()
  })

  it('eth_call: return data at the latest and an older block; block context; nothing written', async () => {
    const count = store.encodeFunctionData('count')
    expect(await devnet.rpc('eth_call', [{ to: storeAddress, data: count }, 'latest'])).toBe(word(1))
    expect(await devnet.rpc('eth_call', [{ to: storeAddress, data: count }, '0x1'])).toBe(word(0))
    const bal = store.encodeFunctionData('balances', [B.address])
    expect(await devnet.rpc('eth_call', [{ from: A.address, to: storeAddress, input: bal }, 'latest'])).toBe(word(0x1234))
    // A call that would write: the result is computed, the state unchanged.
    const inc = store.encodeFunctionData('increment')
    expect(await devnet.rpc('eth_call', [{ from: A.address, to: storeAddress, data: inc }, 'latest'])).toBe('0x')
    expect(await devnet.rpc('eth_getStorageAt', [storeAddress, '0x0', 'latest'])).toBe(word(1))
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x5')
    // NUMBER = the block, TIMESTAMP = its timestamp + 1, COINBASE 0, GASLIMIT 2^64-1 (reference §6.2, §6.3).
    const tip = await block(devnet, 'latest')
    const info = await devnet.rpc('eth_call', [{ to: storeAddress, data: store.encodeFunctionData('blockInfo') }, 'latest'])
    const [number, timestamp, coinbase, gaslimit, chainid, prevHash] = store.decodeFunctionResult('blockInfo', info)
    expect(number).toBe(5n)
    expect(timestamp).toBe(BigInt(tip.timestamp) + 1n)
    expect(coinbase).toBe('0x0000000000000000000000000000000000000000')
    expect(gaslimit).toBe(2n ** 64n - 1n)
    expect(chainid).toBe(12345n)
    expect(prevHash).toBe((await block(devnet, '0x4')).hash)
  })

  it('eth_estimateGas: 21000 for a transfer; a sufficient estimate ≤ 6,000,000 for a call', async () => {
    expect(await devnet.rpc('eth_estimateGas', [{ from: A.address, to: B.address, value: '0x1' }])).toBe('0x5208')
    const data = store.encodeFunctionData('increment')
    const estimate = await devnet.rpc('eth_estimateGas', [{ from: B.address, to: storeAddress, data }])
    expect(estimate).toMatch(QUANTITY)
    expect(BigInt(estimate)).toBeGreaterThanOrEqual(21_000n)
    expect(BigInt(estimate)).toBeLessThanOrEqual(6_000_000n)
    expect(await devnet.rpc('eth_estimateGas', [{ from: B.address, to: storeAddress, data }, 'latest'])).toBe(estimate)
    const deploy = await devnet.rpc('eth_estimateGas', [{ from: A.address, data: Store.bytecode }])
    expect(BigInt(deploy)).toBeGreaterThan(BigInt((await receipt(devnet, h[1]!)).gasUsed) - 1n)
    expect(BigInt(deploy)).toBeLessThanOrEqual(6_000_000n)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x5')
  })

  it('eth_getBlockByNumber: field set and values of a block with one transaction', async () => {
    const b1 = await block(devnet, '0x1')
    const b2 = await block(devnet, '0x2')
    const r2 = await receipt(devnet, h[2]!)
    expect(Object.keys(b2).sort()).toEqual(BLOCK_KEYS)
    expect(b2).toEqual({
      number: '0x2',
      hash: expect.stringMatching(HASH),
      parentHash: b1.hash,
      nonce: '0x0000000000000000',
      mixHash: ZERO_HASH,
      sha3Uncles: EMPTY_UNCLES,
      logsBloom: expect.stringMatching(BLOOM),
      // One transaction: the native TransactionsRoot is that transaction's hash (reference §5.2).
      transactionsRoot: h[2],
      stateRoot: ZERO_HASH,
      receiptsRoot: EMPTY_TRIE,
      miner: ZERO_ADDRESS,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: q(EMPTY_BLOCK_SIZE + 2 + 1 + (rawIncrement.length - 2) / 2),
      gasLimit: '0x5b8d80',
      gasUsed: r2.gasUsed,
      timestamp: expect.stringMatching(QUANTITY),
      transactions: [h[2]],
      uncles: [],
    })
    expect(b2.logsBloom).toBe(r2.logsBloom)
    expect(b2.logsBloom).not.toBe(`0x${'00'.repeat(256)}`)
    // A block whose transaction logged nothing has an empty bloom.
    expect((await block(devnet, '0x3')).logsBloom).toBe(`0x${'00'.repeat(256)}`)
    // 'latest' and 'earliest' have their standard meaning (decisions table).
    expect((await block(devnet, 'latest')).number).toBe('0x5')
    expect((await block(devnet, 'earliest')).number).toBe('0x0')
  })

  it('eth_getBlockByNumber: parent links, strictly increasing timestamps, gasUsed = Σ receipts', async () => {
    const blocks = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => block(devnet, q(n))))
    for (let n = 1; n <= 5; n++) {
      const b = blocks[n]!
      expect(b.number).toBe(q(n))
      expect(b.parentHash).toBe(blocks[n - 1]!.hash)
      expect(BigInt(b.timestamp)).toBeGreaterThan(BigInt(blocks[n - 1]!.timestamp))
      expect(b.gasUsed).toBe((await receipt(devnet, h[n]!)).gasUsed)
      for (const key of ['number', 'size', 'gasLimit', 'gasUsed', 'timestamp', 'difficulty']) {
        expect(b[key]).toMatch(QUANTITY)
      }
      for (const key of ['hash', 'parentHash', 'transactionsRoot', 'stateRoot', 'sha3Uncles']) expect(b[key]).toMatch(HASH)
      expect(b.miner).toMatch(ADDRESS)
    }
    expect(new Set(blocks.map((b) => b.hash)).size).toBe(6)
  })

  it('eth_getBlockByNumber: full transaction objects with true; null above the tip', async () => {
    const full = await block(devnet, '0x2', true)
    const byHash = await devnet.rpcUntyped('eth_getTransactionByHash', [h[2]])
    expect(full.transactions).toEqual([byHash])
    const { transactions: _a, ...restFull } = full
    const { transactions: _b, ...restHashes } = await block(devnet, '0x2')
    expect(restFull).toEqual(restHashes)
    expect(await devnet.rpc('eth_getBlockByNumber', ['0x6', false])).toBeNull()
    expect(await devnet.rpc('eth_getBlockByNumber', ['0xffffffff', true])).toBeNull()
  })

  it('eth_getBlockByHash: the same object as by number; null for an unknown hash', async () => {
    for (const n of ['0x0', '0x1', '0x4']) {
      for (const full of [false, true]) {
        const byNumber = await block(devnet, n, full)
        expect(await devnet.rpc('eth_getBlockByHash', [byNumber.hash, full])).toEqual(byNumber)
      }
    }
    expect(await devnet.rpc('eth_getBlockByHash', [`0x${'33'.repeat(32)}`, false])).toBeNull()
    expect(await devnet.rpcUntyped('eth_getBlockByHash', [h[2], true])).toBeNull() // a transaction hash is no block hash
  })

  it('eth_getTransactionByHash: field set (type 0x0 added, no chainId) and values; to null for a creation; null when unknown', async () => {
    const b2 = await block(devnet, '0x2')
    const tx = (await devnet.rpcUntyped('eth_getTransactionByHash', [h[2]])) as Obj
    expect(Object.keys(tx).sort()).toEqual(TX_KEYS)
    expect(tx).not.toHaveProperty('chainId')
    expect(tx).toEqual({
      type: '0x0',
      blockHash: b2.hash,
      blockNumber: '0x2',
      from: A.addressLower,
      gas: q(100_000),
      gasPrice: '0x3b9aca00',
      hash: h[2],
      input: store.encodeFunctionData('increment'),
      nonce: '0x1',
      to: storeAddress,
      transactionIndex: '0x0',
      value: '0x0',
      v: expect.stringMatching(/^0x609[56]$/), // 12345 * 2 + 35 + parity
      r: expect.stringMatching(QUANTITY),
      s: expect.stringMatching(QUANTITY),
    })
    const creation = (await devnet.rpcUntyped('eth_getTransactionByHash', [h[1]])) as Obj
    expect(creation.to).toBeNull()
    expect(creation.input).toBe(Store.bytecode)
    expect(creation.nonce).toBe('0x0')
    const transfer = (await devnet.rpcUntyped('eth_getTransactionByHash', [h[4]])) as Obj
    expect(transfer).toMatchObject({ to: B.addressLower, value: q(ETHER), gasPrice: '0x0', gas: '0x5208', input: '0x' })
    expect(await devnet.rpc('eth_getTransactionByHash', [`0x${'44'.repeat(32)}`])).toBeNull()
  })

  it('eth_getTransactionByBlockHashAndIndex: the transaction at the index; null past the end or for an unknown block', async () => {
    const b2 = await block(devnet, '0x2')
    const tx = await devnet.rpcUntyped('eth_getTransactionByHash', [h[2]])
    expect(await devnet.rpc('eth_getTransactionByBlockHashAndIndex', [b2.hash, '0x0'])).toEqual(tx)
    expect(await devnet.rpc('eth_getTransactionByBlockHashAndIndex', [b2.hash, '0x1'])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionByBlockHashAndIndex', [b2.hash, '0x64'])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionByBlockHashAndIndex', [`0x${'55'.repeat(32)}`, '0x0'])).toBeNull()
  })

  it('eth_getTransactionByBlockNumberAndIndex: QUANTITY|TAG and index; null past the end or above the tip', async () => {
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x0'])).toEqual(await devnet.rpcUntyped('eth_getTransactionByHash', [h[2]]))
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0'])).toEqual(await devnet.rpcUntyped('eth_getTransactionByHash', [h[5]]))
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x1'])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['earliest', '0x0'])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['0x6', '0x0'])).toBeNull()
  })

  it('eth_getTransactionReceipt: creation receipt (contractAddress, to null)', async () => {
    const r = await receipt(devnet, h[1]!)
    const b1 = await block(devnet, '0x1')
    expect(Object.keys(r).sort()).toEqual(RECEIPT_KEYS)
    expect(r).toEqual({
      blockHash: b1.hash,
      blockNumber: '0x1',
      contractAddress: storeAddress,
      cumulativeGasUsed: r.gasUsed,
      effectiveGasPrice: expect.stringMatching(QUANTITY),
      from: A.addressLower,
      gasUsed: expect.stringMatching(QUANTITY),
      logs: [expect.objectContaining({ address: GAS_TOKEN, logIndex: '0x0', topics: [TRANSFER_TOPIC, pad32(A.address), pad32(GOVERNANCE)] })],
      logsBloom: expect.stringMatching(BLOOM),
      status: '0x1',
      to: null,
      transactionHash: h[1],
      transactionIndex: '0x0',
      type: '0x0',
    })
    const creationTx = (await devnet.rpcUntyped('eth_getTransactionByHash', [h[1]])) as Obj
    expect(r.effectiveGasPrice).toBe(creationTx.gasPrice)
    expect(BigInt(r.gasUsed)).toBeGreaterThan(53_000n) // creation intrinsic gas
  })

  it('eth_getTransactionReceipt: call receipts (contractAddress null, cumulative = gasUsed, logIndex), a failed one (status 0x0)', async () => {
    const r2 = await receipt(devnet, h[2]!)
    expect(r2).toMatchObject({ status: '0x1', contractAddress: null, to: storeAddress, from: A.addressLower, blockNumber: '0x2' })
    expect(r2.cumulativeGasUsed).toBe(r2.gasUsed)
    expect(r2.logs.map((l) => l.logIndex)).toEqual(['0x0', '0x1'])
    const r4 = await receipt(devnet, h[4]!)
    expect(r4).toMatchObject({ status: '0x1', gasUsed: '0x5208', cumulativeGasUsed: '0x5208', contractAddress: null, to: B.addressLower })
    const r5 = await receipt(devnet, h[5]!)
    expect(r5.status).toBe('0x0')
    expect(r5.contractAddress).toBeNull()
    expect(r5.cumulativeGasUsed).toBe(r5.gasUsed)
    // A failed transaction still pays its fee, logged (reference §6.4).
    expect(r5.logs).toEqual([expect.objectContaining({ address: GAS_TOKEN, data: word(BigInt(r5.gasUsed) * GWEI), logIndex: '0x0' })])
    expect(await devnet.rpc('eth_getTransactionReceipt', [`0x${'66'.repeat(32)}`])).toBeNull()
  })

  describe('eth_getLogs', () => {
    const logs = (filter: Obj) => devnet.rpcUntyped('eth_getLogs', [filter]) as Promise<(Obj & { blockNumber: string })[]>
    const blocksOf = (list: { blockNumber: string }[]) => list.map((l) => l.blockNumber)

    it('by address', async () => {
      const own = await logs({ fromBlock: '0x0', toBlock: 'latest', address: storeAddress })
      expect(own).toHaveLength(1)
      expect(own[0]).toEqual(((await devnet.rpcUntyped('eth_getTransactionLogs', [h[2]])) as Obj[])[0])
      const gas = await logs({ fromBlock: 'earliest', address: [GAS_TOKEN] })
      expect(blocksOf(gas)).toEqual(['0x1', '0x2', '0x4', '0x5'])
      expect(await logs({ fromBlock: '0x0', address: [storeAddress, GAS_TOKEN] })).toHaveLength(5)
    })
    it('by topics: exact, wildcard, alternatives', async () => {
      const toB = await logs({ fromBlock: '0x0', topics: [TRANSFER_TOPIC, null, pad32(B.address)] })
      expect(blocksOf(toB)).toEqual(['0x4'])
      const toGov = await logs({ fromBlock: '0x0', topics: [null, null, pad32(GOVERNANCE)] })
      expect(blocksOf(toGov)).toEqual(['0x1', '0x2', '0x5'])
      const either = await logs({ fromBlock: '0x0', topics: [[INCREMENTED_TOPIC, TRANSFER_TOPIC]] })
      expect(either).toHaveLength(5)
      expect(await logs({ fromBlock: '0x0', topics: [INCREMENTED_TOPIC, word(2)] })).toEqual([])
    })
    it('by range; the default range is the latest block; a range past the tip is clamped', async () => {
      expect(blocksOf(await logs({ fromBlock: '0x3', toBlock: '0x4' }))).toEqual(['0x4'])
      expect(blocksOf(await logs({ fromBlock: '0x2', toBlock: '0x2' }))).toEqual(['0x2', '0x2'])
      expect(blocksOf(await logs({}))).toEqual(['0x5'])
      expect(blocksOf(await logs({ fromBlock: '0x4', toBlock: '0x64' }))).toEqual(['0x4', '0x5'])
      expect(await logs({ fromBlock: '0x3', toBlock: '0x3' })).toEqual([])
      // A range that starts above the tip, or ends before it starts, is empty.
      expect(await logs({ fromBlock: '0x6' })).toEqual([])
      expect(await logs({ fromBlock: '0x64', toBlock: 'latest' })).toEqual([])
      expect(await logs({ fromBlock: '0x5', toBlock: '0x4' })).toEqual([])
    })
    it('by blockHash; blockHash with a range is -32602', async () => {
      const b2 = await block(devnet, '0x2')
      const byHash = await logs({ blockHash: b2.hash })
      expect(byHash).toEqual(await devnet.rpcUntyped('eth_getTransactionLogs', [h[2]]))
      const err = await rpcError(devnet.rpc('eth_getLogs', [{ blockHash: b2.hash, fromBlock: '0x0' }]))
      expect(err.code).toBe(-32602)
    })
  })
})

describe('eth_gasPrice after transactions', () => {
  it('is the gwei price of the latest block with transactions, × 1e9', async () => {
    const devnet = await createDevnet()
    try {
      const [A] = devnet.accounts
      expect(await devnet.rpc('eth_gasPrice')).toBe('0x0')
      await send(devnet, A!.privateKey, { to: devnet.accounts[1]!.address, gasLimit: 21_000n, gasPrice: 7n * GWEI })
      expect(await devnet.rpc('eth_gasPrice')).toBe(q(7n * GWEI))
      expect(await devnet.rpc('eth_gasPrice')).toBe('0x1a13b8600')
      // An empty block on top does not reset it: the scan finds the last block with transactions.
      await devnet.mine()
      expect(await devnet.rpc('eth_gasPrice')).toBe(q(7n * GWEI))
    } finally {
      await devnet.close()
    }
  })
})

describe('eth_estimateGas is sufficient', () => {
  it('a creation and a call sent with exactly the estimate succeed', async () => {
    const devnet = await createDevnet()
    try {
      const [A] = devnet.accounts
      const deployEstimate = BigInt(await devnet.rpc('eth_estimateGas', [{ from: A!.address, data: Store.bytecode }]))
      expect(deployEstimate).toBeLessThanOrEqual(6_000_000n)
      const deploy = await send(devnet, A!.privateKey, { data: Store.bytecode, gasLimit: deployEstimate })
      const created = await receipt(devnet, deploy)
      expect(created.status).toBe('0x1')
      const to = created.contractAddress as string
      const data = store.encodeFunctionData('increment')
      const estimate = BigInt(await devnet.rpc('eth_estimateGas', [{ from: A!.address, to, data }]))
      expect(estimate).toBeLessThanOrEqual(6_000_000n)
      const call = await receipt(devnet, await send(devnet, A!.privateKey, { to, data, gasLimit: estimate }))
      expect(call.status).toBe('0x1')
      expect(BigInt(call.gasUsed)).toBeLessThanOrEqual(estimate)
      expect(await devnet.rpc('eth_getStorageAt', [to, '0x0', 'latest'])).toBe(word(1))
    } finally {
      await devnet.close()
    }
  })
})

describe('eth_sendTransaction (dev accounts)', () => {
  it('signs with the dev key, fills nonce, price and gas, and mines', async () => {
    const devnet = await createDevnet()
    try {
      const [A, B] = devnet.accounts
      const hash = await devnet.rpc('eth_sendTransaction', [{ from: A!.address, to: B!.address, value: q(ETHER) }])
      expect(hash).toMatch(HASH)
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
      const tx = (await devnet.rpcUntyped('eth_getTransactionByHash', [hash])) as Obj
      expect(tx).toMatchObject({ from: A!.addressLower, to: B!.addressLower, value: q(ETHER), nonce: '0x0', gas: '0x5208', gasPrice: '0x0' })
      expect((await receipt(devnet, hash)).status).toBe('0x1')
      expect(await devnet.rpc('eth_getBalance', [B!.address, 'latest'])).toBe(q(INITIAL + ETHER))
      const err = await rpcError(devnet.rpc('eth_sendTransaction', [{ from: `0x${'12'.repeat(20)}`, to: B!.address }]))
      expect(err.code).toBe(-32000)
    } finally {
      await devnet.close()
    }
  })
})

/**
 * automine off: pending transactions are listed, have null block fields and no
 * receipt until `mine()`; a block with two transactions has block-wide logIndex and
 * a cumulative cumulativeGasUsed, and the gas price is their average.
 */
describe('pending transactions and multi-transaction blocks (automine off)', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet({ automine: false })
  })
  afterAll(() => devnet.close())
  let storeAddress = ''

  it('hardhat_getAutomine / anvil_getAutomine follow the option and evm_setAutomine', async () => {
    expect(await devnet.rpc('hardhat_getAutomine')).toBe(false)
    expect(await devnet.rpc('anvil_getAutomine')).toBe(false)
    await devnet.rpc('evm_setAutomine', [true])
    expect(await devnet.rpc('hardhat_getAutomine')).toBe(true)
    await devnet.rpc('evm_setAutomine', [false])
    expect(await devnet.rpc('anvil_getAutomine')).toBe(false)
    await expect(devnet.rpcUntyped('hardhat_getAutomine', [true])).rejects.toMatchObject({ code: -32602 })
  })

  it('eth_pendingTransactions / …ByHash list a pending transaction; its receipt is null until mined', async () => {
    const [A] = devnet.accounts
    expect(await devnet.rpc('eth_pendingTransactions')).toBeNull()
    const raw = await sign(devnet, A!.privateKey, { data: Store.bytecode, gasLimit: 500_000n, nonce: 0 })
    const hash = await devnet.rpc('eth_sendRawTransaction', [raw])
    expect(hash).toBe(keccak256(raw))
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    const pending = {
      type: '0x0',
      blockHash: null,
      blockNumber: null,
      from: A!.addressLower,
      gas: q(500_000),
      gasPrice: '0x0',
      hash,
      input: Store.bytecode,
      nonce: '0x0',
      to: null,
      transactionIndex: null,
      value: '0x0',
      v: expect.stringMatching(/^0x609[56]$/),
      r: expect.stringMatching(QUANTITY),
      s: expect.stringMatching(QUANTITY),
    }
    expect(await devnet.rpc('eth_pendingTransactions')).toEqual([pending])
    expect(await devnet.rpc('eth_pendingTransactionsByHash', [hash])).toEqual(pending)
    expect(await devnet.rpc('eth_getTransactionByHash', [hash])).toEqual(pending)
    expect(await devnet.rpc('eth_getTransactionReceipt', [hash])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionLogs', [hash])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionCount', [A!.address, 'pending'])).toBe('0x1')
    expect(await devnet.rpc('eth_getTransactionCount', [A!.address, 'latest'])).toBe('0x0')

    await devnet.mine()
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
    expect(await devnet.rpc('eth_pendingTransactions')).toBeNull()
    expect(await devnet.rpc('eth_pendingTransactionsByHash', [hash])).toBeNull()
    expect((await block(devnet, '0x1')).transactions).toEqual([hash])
    const r = await receipt(devnet, hash)
    expect(r).toMatchObject({ status: '0x1', blockNumber: '0x1', transactionIndex: '0x0' })
    storeAddress = r.contractAddress as string
    expect(storeAddress).toBe(getCreateAddress({ from: A!.address, nonce: 0 }).toLowerCase())
    expect(await devnet.rpc('eth_getTransactionByHash', [hash])).toMatchObject({ blockNumber: '0x1', transactionIndex: '0x0' })
  })

  it('a block with two transactions: order by price, block-wide logIndex, cumulativeGasUsed, gasUsed, average gas price', async () => {
    const [A, B] = devnet.accounts
    const data = store.encodeFunctionData('increment')
    const low = await send(devnet, A!.privateKey, { to: storeAddress, data, gasLimit: 100_000n, gasPrice: 2n * GWEI })
    const high = await send(devnet, B!.privateKey, { to: storeAddress, data, gasLimit: 100_000n, gasPrice: 5n * GWEI })
    expect(((await devnet.rpcUntyped('eth_pendingTransactions')) as Obj[]).map((t) => t.hash).sort()).toEqual([low, high].sort())
    await devnet.mine()
    const b2 = await block(devnet, '0x2')
    // Senders by gas price, highest first (reference §5.5).
    expect(b2.transactions).toEqual([high, low])
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x2'])).toBe('0x2')
    expect(await devnet.rpc('eth_getBlockTransactionCountByHash', [b2.hash])).toBe('0x2')
    const r0 = await receipt(devnet, high)
    const r1 = await receipt(devnet, low)
    expect(r0.transactionIndex).toBe('0x0')
    expect(r1.transactionIndex).toBe('0x1')
    expect(r0.cumulativeGasUsed).toBe(r0.gasUsed)
    expect(r1.cumulativeGasUsed).toBe(q(BigInt(r0.gasUsed) + BigInt(r1.gasUsed)))
    expect(b2.gasUsed).toBe(r1.cumulativeGasUsed)
    // logIndex counts across the block (decisions table): 2 logs each (event + fee).
    expect(r0.logs.map((l) => l.logIndex)).toEqual(['0x0', '0x1'])
    expect(r1.logs.map((l) => l.logIndex)).toEqual(['0x2', '0x3'])
    expect(r1.logs[0]!.topics).toEqual([INCREMENTED_TOPIC, word(2)])
    expect(((await devnet.rpcUntyped('eth_getTransactionLogs', [low])) as Obj[]).map((l) => l.logIndex)).toEqual(['0x2', '0x3'])
    expect(await devnet.rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x1'])).toMatchObject({ hash: low, transactionIndex: '0x1' })
    expect(await devnet.rpc('eth_getTransactionByBlockHashAndIndex', [b2.hash, '0x0'])).toMatchObject({ hash: high, transactionIndex: '0x0' })
    // transactionsRoot of two transactions: SHA256d(h0 ‖ h1) (reference §5.2).
    const { createHash } = await import('node:crypto')
    const sha = (b: Buffer) => createHash('sha256').update(b).digest()
    const root = sha(sha(Buffer.concat([Buffer.from(high.slice(2), 'hex'), Buffer.from(low.slice(2), 'hex')])))
    expect(b2.transactionsRoot).toBe(`0x${root.toString('hex')}`)
    // Average of 5 and 2 gwei, in whole gwei (reference §1.4.9): 3 gwei.
    expect(await devnet.rpc('eth_gasPrice')).toBe(q(3n * GWEI))
    // An empty mined block.
    await devnet.mine()
    const b3 = await block(devnet, 'latest')
    expect(b3).toMatchObject({ number: '0x3', transactions: [], gasUsed: '0x0', transactionsRoot: EMPTY_TRIE, size: q(EMPTY_BLOCK_SIZE) })
    expect(b3.parentHash).toBe(b2.hash)
  })
})
