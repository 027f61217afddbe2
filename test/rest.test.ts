/**
 * Every REST operation of the spec's endpoint table (plus the real node's
 * /node/syncstatus, /unboundong and /grantong spellings and both allowancev2 forms),
 * in-process (`devnet.rest`) and over HTTP (`fetch(restUrl + path)`). Results are
 * asserted exactly against what the chain holds, read independently: the JSON-RPC
 * view of the same ledger (hashes reversed, reference §1.7), ethers to rebuild the
 * signed RLP, and node:crypto to recompute roots, block hashes and addresses
 * (reference §1.4, §3, §5).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { Interface, Signature, Transaction, Wallet, keccak256 } from 'ethers'
import { createDevnet, RestNotFoundError, VERSION, verifyMerkleProof, type Devnet, type RestEnvelope } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { base58, compactRoot, rev, sha256, sha256d, strip, transactionsRoot, varbytes } from './chainRules.ts'
import { chainOf } from '../src/devnet/provider.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const INITIAL_GAS = 10_000n * 10n ** 18n
const INITIAL_MAIN = 10_000n * 10n ** 9n
const ZERO32 = '00'.repeat(32)
const ZERO20 = '00'.repeat(20)
const EMPTY_TRIE = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const MAIN_HEX = '0100000000000000000000000000000000000000'
const GAS_HEX = '0200000000000000000000000000000000000000'
const MAIN_BASE58 = 'AFmseVrdL9f9oyCzZefL9tG6UbvhUMqNMV'
const GOVERNANCE = `0x${'00'.repeat(19)}07`
/** A value that is not a whole number of 1e-9 units, to see the v1 floor. */
const VALUE = 1_234_567_891_234_567n

const store = new Interface(Store.abi as never)

/** The Action of each operation (spec: REST endpoint table; decisions table for the extra spellings). */
const ACTION = {
  connectioncount: 'getconnectioncount',
  blocktxs: 'getblocktxsbyheight',
  blockbyheight: 'getblockbyheight',
  blockbyhash: 'getblockbyhash',
  blockheight: 'getblockheight',
  blockhash: 'getblockhash',
  tx: 'gettransaction',
  storage: 'getstorage',
  balance: 'getbalance',
  balancev2: 'getbalancev2',
  contract: 'getcontract',
  eventsbyheight: 'getsmartcodeeventbyheight',
  eventsbyhash: 'getsmartcodeeventbyhash',
  heightbytx: 'getblockheightbytxhash',
  merkleproof: 'getmerkleproof',
  gasprice: 'getgasprice',
  allowance: 'getallowance',
  allowancev2: 'getallowancev2',
  unboundgas: 'getunboundgas',
  unboundong: 'getunboundong',
  txcount: 'getmempooltxcount',
  txstate: 'getmempooltxstate',
  version: 'getversion',
  networkid: 'getnetworkid',
  grantgas: 'getgrantgas',
  grantong: 'getgrantong',
  syncstatus: 'getsyncstatus',
  send: 'sendrawtransaction',
} as const

// ---------------------------------------------------------------- byte helpers

const hash160 = (data: Uint8Array) => createHash('ripemd160').update(sha256(data)).digest()
const word = (value: bigint) => value.toString(16).padStart(64, '0')
const q = (n: bigint | number) => `0x${n.toString(16)}`

/** RFC 6962 audit path of leaf `m`, from the leaf upwards (reference §5.4 InclusionProof). */
function auditPath(leaves: Buffer[], m: number): Buffer[] {
  if (leaves.length <= 1) return []
  let k = 1
  while (k * 2 < leaves.length) k *= 2
  return m < k ? [...auditPath(leaves.slice(0, k), m), compactRoot(leaves.slice(k))] : [...auditPath(leaves.slice(k), m - k), compactRoot(leaves.slice(0, k))]
}

/** An EVM log as the node's notify States: "0x" + address ‖ u32 LE topic count ‖ topics ‖ varbytes(data) (reference §1.4.6). */
function logStates(log: RpcLog): string {
  const count = Buffer.alloc(4)
  count.writeUInt32LE(log.topics.length)
  return `0x${strip(log.address)}${count.toString('hex')}${log.topics.map(strip).join('')}${varbytes(strip(log.data))}`
}

// ---------------------------------------------------------------- transports

interface Client {
  get(path: string): Promise<RestEnvelope>
  post(path: string, body: unknown): Promise<RestEnvelope>
  /** The exact JSON text of a GET over HTTP; undefined in-process. */
  text(path: string): Promise<string | undefined>
  /** Asserts that no route serves `method path` (HTTP 404 `404 page not found\n`; RestNotFoundError in-process). */
  expectNotFound(method: string, path: string): Promise<void>
}

type Mode = 'in-process' | 'http'

async function clientOf(devnet: Devnet, mode: Mode): Promise<Client> {
  if (mode === 'in-process') {
    return {
      get: (path) => devnet.rest.get(path),
      post: (path, body) => devnet.rest.post(path, body),
      text: async () => undefined,
      async expectNotFound(method, path) {
        const call = method === 'GET' ? devnet.rest.get(path) : devnet.rest.post(path, {})
        await expect(call).rejects.toBeInstanceOf(RestNotFoundError)
      },
    }
  }
  const { restUrl } = await devnet.listen()
  const handled = async (res: Response): Promise<string> => {
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    return res.text()
  }
  return {
    get: async (path) => JSON.parse(await handled(await fetch(restUrl + path))) as RestEnvelope,
    post: async (path, body) =>
      JSON.parse(
        await handled(
          await fetch(restUrl + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          }),
        ),
      ) as RestEnvelope,
    text: async (path) => handled(await fetch(restUrl + path)),
    async expectNotFound(method, path) {
      const res = await fetch(restUrl + path, { method, ...(method === 'POST' ? { body: '{}' } : {}) })
      expect(res.status).toBe(404)
      expect(await res.text()).toBe('404 page not found\n')
    },
  }
}

/** The Result of a successful envelope with the expected Action. */
function ok(envelope: RestEnvelope, action: string): unknown {
  expect(envelope).toEqual({ Action: action, Desc: 'SUCCESS', Error: 0, Result: envelope.Result, Version: '1.0.0' })
  expect(Object.keys(envelope)).toEqual(['Action', 'Desc', 'Error', 'Result', 'Version'])
  return envelope.Result
}

// ---------------------------------------------------------------- JSON-RPC views

interface RpcLog {
  address: string
  topics: string[]
  data: string
}
interface RpcBlock {
  number: string
  hash: string
  parentHash: string
  transactionsRoot: string
  size: string
  timestamp: string
  transactions: string[]
}
interface RpcTx {
  hash: string
  nonce: string
  gasPrice: string
  gas: string
  from: string
  to: string | null
  value: string
  input: string
  v: string
  r: string
  s: string
  blockNumber: string
  transactionIndex: string
}
interface RpcReceipt {
  status: string
  gasUsed: string
  transactionIndex: string
  contractAddress: string | null
  logs: RpcLog[]
  blockNumber: string
}

const ethBlock = async (devnet: Devnet, height: number) => (await devnet.rpc('eth_getBlockByNumber', [q(height), false])) as RpcBlock
const ethTx = async (devnet: Devnet, hash: string) => (await devnet.rpc('eth_getTransactionByHash', [hash])) as RpcTx
const ethReceipt = async (devnet: Devnet, hash: string) => (await devnet.rpc('eth_getTransactionReceipt', [hash])) as RpcReceipt
const ethBalance = async (devnet: Devnet, address: string) => BigInt(await devnet.rpc('eth_getBalance', [address, 'latest']))
const ethHeight = async (devnet: Devnet) => Number(await devnet.rpc('eth_blockNumber'))

/** The signed RLP of a transaction, rebuilt from its JSON-RPC fields with ethers; checked against its hash. */
function signedRlp(t: RpcTx): string {
  const serialized = Transaction.from({
    type: 0,
    chainId: CHAIN_ID,
    nonce: Number(t.nonce),
    gasPrice: BigInt(t.gasPrice),
    gasLimit: BigInt(t.gas),
    to: t.to,
    value: BigInt(t.value),
    data: t.input,
    signature: Signature.from({ r: t.r, s: t.s, v: BigInt(t.v) }),
  }).serialized
  expect(keccak256(serialized)).toBe(t.hash)
  return strip(serialized)
}

/** The transaction JSON the node renders for an EIP-155 transaction (reference §1.4.2, §2.4). */
async function expectedTx(devnet: Devnet, hash: string) {
  const t = await ethTx(devnet, hash)
  return {
    Version: 0,
    Nonce: Number(t.nonce),
    GasPrice: Number(BigInt(t.gasPrice) / GWEI),
    GasLimit: Number(t.gas),
    Payer: base58(t.from),
    TxType: 211,
    Payload: signedRlp(t),
    Attributes: [],
    Sigs: [],
    Hash: rev(hash),
    Height: Number(t.blockNumber),
  }
}

/** The event record the node renders for an EIP-155 transaction (reference §1.4.6, event.ExecuteNotifyFromEthReceipt). */
async function expectedRecord(devnet: Devnet, hash: string) {
  const [t, r] = [await ethTx(devnet, hash), await ethReceipt(devnet, hash)]
  return {
    TxHash: rev(hash),
    State: Number(r.status),
    GasConsumed: Number((BigInt(t.gasPrice) / GWEI) * BigInt(r.gasUsed)),
    Notify: r.logs.length === 0 ? null : r.logs.map((log) => ({ ContractAddress: rev(log.address), States: logStates(log), IsEvm: true })),
    GasStepUsed: Number(r.gasUsed),
    TxIndex: Number(r.transactionIndex),
    CreatedContract: r.contractAddress === null ? ZERO20 : rev(r.contractAddress),
  }
}

const TX_KEYS = ['Version', 'Nonce', 'GasPrice', 'GasLimit', 'Payer', 'TxType', 'Payload', 'Attributes', 'Sigs', 'Hash', 'Height']
const HEADER_KEYS = ['Version', 'PrevBlockHash', 'TransactionsRoot', 'BlockRoot', 'Timestamp', 'Height', 'ConsensusData', 'ConsensusPayload', 'NextBookkeeper', 'Bookkeepers', 'SigData', 'Hash']
const RECORD_KEYS = ['TxHash', 'State', 'GasConsumed', 'Notify', 'GasStepUsed', 'TxIndex', 'CreatedContract']

type Json = Record<string, unknown>

/**
 * 0x raw hashes of the transactions of block `h`: the EVM view's list, except block 0,
 * whose native genesis transactions (reference §5.5) the EVM view skips.
 */
async function blockTxIds(devnet: Devnet, h: number): Promise<string[]> {
  if (h === 0)
    return chainOf(devnet)
      .blockAt(0)!
      .transactions.map((tx) => `0x${Buffer.from(tx.hash).toString('hex')}`)
  return (await ethBlock(devnet, h)).transactions
}

/**
 * The chain every test of a mode reads (built once, read-only until post_raw_tx at the end):
 *   block 1  A deploys Store                        gasPrice 1 gwei
 *   block 2  A calls increment()                    gasPrice 1 gwei  → Incremented(1), fee log
 *   block 3  D sends 0 to E                          gasPrice 0       → no logs: Notify null
 *   block 4  D sends 5 gwei to E                     gasPrice 0       → value Transfer log only
 *   block 5  B sends VALUE to C (signed raw)         gasPrice 1 gwei  → value log, fee log
 *   blocks 6-8 empty (devnet.mine(3))
 */
describe.each<Mode>(['in-process', 'http'])('REST operations (%s)', (mode) => {
  let devnet: Devnet
  let rest: Client
  let A: Devnet['accounts'][number]
  let B: Devnet['accounts'][number]
  let C: Devnet['accounts'][number]
  let D: Devnet['accounts'][number]
  let E: Devnet['accounts'][number]
  let storeAddress: string
  /** Tx hashes (0x, raw order) by block height. */
  const txAt: Record<number, string> = {}
  let tip = 0
  let hashes: string[] = []

  beforeAll(async () => {
    devnet = await createDevnet()
    rest = await clientOf(devnet, mode)
    ;[A, B, C, D, E] = devnet.accounts as [typeof A, typeof A, typeof A, typeof A, typeof A]
    txAt[1] = await devnet.rpc('eth_sendTransaction', [{ from: A.address, data: Store.bytecode, gasPrice: q(GWEI) }])
    storeAddress = (await ethReceipt(devnet, txAt[1])).contractAddress!
    const increment = store.encodeFunctionData('increment')
    txAt[2] = await devnet.rpc('eth_sendTransaction', [{ from: A.address, to: storeAddress, data: increment, gasPrice: q(GWEI) }])
    txAt[3] = await devnet.rpc('eth_sendTransaction', [{ from: D.address, to: E.address, value: '0x0', gasPrice: '0x0' }])
    txAt[4] = await devnet.rpc('eth_sendTransaction', [{ from: D.address, to: E.address, value: q(5n * GWEI), gasPrice: '0x0' }])
    const raw = await new Wallet(B.privateKey).signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: 0,
      to: C.address,
      value: VALUE,
      gasPrice: GWEI,
      gasLimit: 21_000n,
    })
    txAt[5] = await devnet.rpc('eth_sendRawTransaction', [raw])
    await devnet.mine(3)
    tip = await ethHeight(devnet)
    hashes = [1, 2, 3, 4, 5].map((h) => txAt[h]!)
  })
  afterAll(() => devnet.close())

  it('setup: one transaction per block 1-5, then three empty blocks', async () => {
    expect(tip).toBe(8)
    for (const [h, hash] of Object.entries(txAt)) expect(Number((await ethReceipt(devnet, hash)).blockNumber)).toBe(Number(h))
  })

  it('get_conn_count: 1 on a solo node', async () => {
    expect(ok(await rest.get('/api/v1/node/connectioncount'), ACTION.connectioncount)).toBe(1)
  })

  it('get_blk_height: the current height, as eth_blockNumber', async () => {
    expect(ok(await rest.get('/api/v1/block/height'), ACTION.blockheight)).toBe(tip)
  })

  it('get_blk_hash: the eth block hash reversed, at every height', async () => {
    for (let h = 0; h <= tip; h++) {
      expect(ok(await rest.get(`/api/v1/block/hash/${h}`), ACTION.blockhash)).toBe(rev((await ethBlock(devnet, h)).hash))
    }
  })

  it('get_blk_by_height: every field of every block, hashes chained, roots recomputed, signatures verified', async () => {
    const leaves: Buffer[] = []
    let previous: Json | undefined
    const first = ok(await rest.get('/api/v1/block/details/height/1'), ACTION.blockbyheight) as Json
    const bookkeeper = ((first.Header as Json).Bookkeepers as string[])[0]!
    expect(bookkeeper).toMatch(/^0[23][0-9a-f]{64}$/)
    for (let h = 0; h <= tip; h++) {
      const eth = await ethBlock(devnet, h)
      const block = ok(await rest.get(`/api/v1/block/details/height/${h}`), ACTION.blockbyheight) as Json
      const header = block.Header as Json
      expect(Object.keys(block)).toEqual(['Hash', 'Size', 'Header', 'Transactions'])
      expect(Object.keys(header)).toEqual(HEADER_KEYS)

      const ids = await blockTxIds(devnet, h)
      const txRoot = transactionsRoot(ids.map((t) => Buffer.from(strip(t), 'hex')))
      leaves.push(txRoot)
      if (ids.length === 0) expect(eth.transactionsRoot).toBe(EMPTY_TRIE)
      else expect(txRoot.toString('hex')).toBe(strip(eth.transactionsRoot))

      expect(block).toEqual({
        Hash: rev(eth.hash),
        Size: Number(eth.size),
        Header: {
          Version: 0,
          PrevBlockHash: h === 0 ? ZERO32 : rev(eth.parentHash),
          TransactionsRoot: rev(txRoot.toString('hex')),
          // The genesis BlockRoot is zero; later ones root the tree over TransactionsRoots 0..h (§5.3).
          BlockRoot: h === 0 ? ZERO32 : rev(compactRoot(leaves).toString('hex')),
          Timestamp: Number(eth.timestamp),
          Height: h,
          ConsensusData: Number(chainOf(devnet).blockAt(h)!.header.consensusData),
          ConsensusPayload: '',
          NextBookkeeper: base58(hash160(Buffer.from(`21${bookkeeper}ac`, 'hex'))),
          Bookkeepers: h === 0 ? [] : [bookkeeper],
          SigData: header.SigData,
          Hash: rev(eth.hash),
        },
        // Genesis transactions are native (their fields: test/genesis.test.ts); get_tx answers the same objects.
        Transactions: await Promise.all(ids.map(async (t) => (h === 0 ? ok(await rest.get(`/api/v1/transaction/${rev(t)}`), ACTION.tx) : expectedTx(devnet, t)))),
      })
      for (const tx of block.Transactions as Json[]) expect(Object.keys(tx)).toEqual(TX_KEYS)
      // PrevBlockHash chains to the previous block's Hash.
      if (previous !== undefined) expect(header.PrevBlockHash).toBe(previous.Hash)
      previous = block
      // SigData: the bookkeeper's P-256 signature over SHA256(raw block hash) (§5.5); none on genesis.
      const sigs = header.SigData as string[]
      expect(sigs).toHaveLength(h === 0 ? 0 : 1)
      if (h > 0) {
        expect(sigs[0]).toMatch(/^[0-9a-f]{128}$/)
        expect(p256.verify(Buffer.from(sigs[0]!, 'hex'), Buffer.from(strip(eth.hash), 'hex'), Buffer.from(bookkeeper, 'hex'))).toBe(true)
      }
      // ConsensusData is a u64 written as plain JSON digits, exact on the wire.
      const text = await rest.text(`/api/v1/block/details/height/${h}`)
      if (text !== undefined) expect(text).toContain(`"ConsensusData":${chainOf(devnet).blockAt(h)!.header.consensusData}`)

      // raw=1: the serialised block, Size bytes; SHA256d of its unsigned header (137 bytes) is the block hash (§5.1).
      const raw = ok(await rest.get(`/api/v1/block/details/height/${h}?raw=1`), ACTION.blockbyheight) as string
      expect(raw).toMatch(/^[0-9a-f]+$/)
      expect(raw.length).toBe((block.Size as number) * 2)
      const bytes = Buffer.from(raw, 'hex')
      expect(rev(sha256d(bytes.subarray(0, 137)).toString('hex'))).toBe(block.Hash)
      const txRaws =
        h === 0
          ? await Promise.all(ids.map(async (t) => ok(await rest.get(`/api/v1/transaction/${rev(t)}?raw=1`), ACTION.tx) as string))
          : (block.Transactions as Json[]).map((tx) => `00d3${varbytes(tx.Payload as string)}`)
      const count = Buffer.alloc(4)
      count.writeUInt32LE(txRaws.length)
      expect(raw.endsWith(count.toString('hex') + txRaws.join(''))).toBe(true)
      // raw=0 (or anything but "1") is the JSON.
      expect(ok(await rest.get(`/api/v1/block/details/height/${h}?raw=0`), ACTION.blockbyheight)).toEqual(block)
    }
  })

  it('get_blk_by_hash: the same block as by height, JSON and raw, either letter case', async () => {
    for (let h = 0; h <= tip; h++) {
      const hash = rev((await ethBlock(devnet, h)).hash)
      const byHeight = ok(await rest.get(`/api/v1/block/details/height/${h}`), ACTION.blockbyheight)
      expect(ok(await rest.get(`/api/v1/block/details/hash/${hash}`), ACTION.blockbyhash)).toEqual(byHeight)
      expect(ok(await rest.get(`/api/v1/block/details/hash/${hash.toUpperCase()}`), ACTION.blockbyhash)).toEqual(byHeight)
      expect(ok(await rest.get(`/api/v1/block/details/hash/${hash}?raw=1`), ACTION.blockbyhash)).toBe(ok(await rest.get(`/api/v1/block/details/height/${h}?raw=1`), ACTION.blockbyheight))
    }
  })

  it('get_blk_txs_by_height: block hash, height and reversed tx hashes ([] when empty)', async () => {
    for (let h = 0; h <= tip; h++) {
      const eth = await ethBlock(devnet, h)
      expect(ok(await rest.get(`/api/v1/block/transactions/height/${h}`), ACTION.blocktxs)).toEqual({
        Hash: rev(eth.hash),
        Height: h,
        Transactions: (await blockTxIds(devnet, h)).map(rev),
      })
    }
    const five = ok(await rest.get('/api/v1/block/transactions/height/5'), ACTION.blocktxs) as Json
    expect(Object.keys(five)).toEqual(['Hash', 'Height', 'Transactions'])
    expect(five.Transactions).toEqual([rev(txAt[5]!)])
  })

  it('get_tx: TxType 211, the RLP as Payload, Payer Base58, GasPrice in gwei, no Sigs; raw=1 is 00d3 ‖ varbytes(rlp)', async () => {
    for (const hash of hashes) {
      const tx = ok(await rest.get(`/api/v1/transaction/${rev(hash)}`), ACTION.tx) as Json
      expect(Object.keys(tx)).toEqual(TX_KEYS)
      expect(tx).toEqual(await expectedTx(devnet, hash))
      const raw = ok(await rest.get(`/api/v1/transaction/${rev(hash)}?raw=1`), ACTION.tx)
      expect(raw).toBe(`00d3${varbytes(tx.Payload as string)}`)
      expect(ok(await rest.get(`/api/v1/transaction/${rev(hash)}?raw=0`), ACTION.tx)).toEqual(tx)
    }
    // The value transfer, spelled out.
    const transfer = ok(await rest.get(`/api/v1/transaction/${rev(txAt[5]!)}`), ACTION.tx) as Json
    const signed = await new Wallet(B.privateKey).signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: 0,
      to: C.address,
      value: VALUE,
      gasPrice: GWEI,
      gasLimit: 21_000n,
    })
    expect(transfer).toEqual({
      Version: 0,
      Nonce: 0,
      GasPrice: 1,
      GasLimit: 21000,
      Payer: B.base58,
      TxType: 211,
      Payload: strip(signed),
      Attributes: [],
      Sigs: [],
      Hash: rev(txAt[5]!),
      Height: 5,
    })
    // The deployment: sender's nonce 0, Payload carries the init code.
    const deploy = ok(await rest.get(`/api/v1/transaction/${rev(txAt[1]!)}`), ACTION.tx) as Json
    expect(deploy).toMatchObject({ Nonce: 0, GasPrice: 1, Payer: A.base58, Height: 1 })
    expect(deploy.Payload as string).toContain(strip(Store.bytecode))
    expect((ok(await rest.get(`/api/v1/transaction/${rev(txAt[2]!)}`), ACTION.tx) as Json).Nonce).toBe(1)
  })

  it('get_blk_hgt_by_txhash: the height of the block holding the transaction', async () => {
    for (const [h, hash] of Object.entries(txAt)) {
      expect(ok(await rest.get(`/api/v1/block/height/txhash/${rev(hash)}`), ACTION.heightbytx)).toBe(Number(h))
    }
  })

  it('get_sc_event_by_height: one record per transaction; "" for an empty block and beyond the tip', async () => {
    for (let h = 1; h <= 5; h++) {
      const records = ok(await rest.get(`/api/v1/smartcode/event/transactions/${h}`), ACTION.eventsbyheight) as Json[]
      expect(records).toEqual([await expectedRecord(devnet, txAt[h]!)])
      expect(Object.keys(records[0]!)).toEqual(RECORD_KEYS)
    }
    for (const h of [6, tip, tip + 1, 1_000_000]) {
      expect(ok(await rest.get(`/api/v1/smartcode/event/transactions/${h}`), ACTION.eventsbyheight)).toBe('')
    }
    // Genesis: one record per native genesis transaction, in block order (their contents: test/genesis.test.ts).
    const genesis = ok(await rest.get('/api/v1/smartcode/event/transactions/0'), ACTION.eventsbyheight) as Json[]
    expect(genesis.map((r) => [r.TxHash, r.TxIndex, r.State, r.GasConsumed])).toEqual((await blockTxIds(devnet, 0)).map((t, i) => [rev(t), i, 1, 0]))
  })

  it('get_smtcode_evts: State, GasConsumed = gwei × gasUsed, GasStepUsed, CreatedContract, Notify of the EVM logs', async () => {
    for (const hash of hashes) {
      expect(ok(await rest.get(`/api/v1/smartcode/event/txhash/${rev(hash)}`), ACTION.eventsbyhash)).toEqual(await expectedRecord(devnet, hash))
    }
    const fee = (gasUsed: number, from: string) => ({
      ContractAddress: GAS_HEX,
      States: logStates({
        address: `0x${'00'.repeat(19)}02`,
        topics: [keccak256(Buffer.from('Transfer(address,address,uint256)')), `0x${strip(from).toLowerCase().padStart(64, '0')}`, `0x${strip(GOVERNANCE).padStart(64, '0')}`],
        data: `0x${word(BigInt(gasUsed) * GWEI)}`,
      }),
      IsEvm: true,
    })
    const get = async (h: number) => ok(await rest.get(`/api/v1/smartcode/event/txhash/${rev(txAt[h]!)}`), ACTION.eventsbyhash) as Json
    // Deployment: the created contract in REST hex form, the fee notify.
    const deployGas = Number((await ethReceipt(devnet, txAt[1]!)).gasUsed)
    expect(await get(1)).toEqual({
      TxHash: rev(txAt[1]!),
      State: 1,
      GasConsumed: deployGas,
      Notify: [fee(deployGas, A.address)],
      GasStepUsed: deployGas,
      TxIndex: 0,
      CreatedContract: rev(storeAddress),
    })
    // increment(): Incremented(1) from the contract, then the fee.
    const incGas = Number((await ethReceipt(devnet, txAt[2]!)).gasUsed)
    const incremented = (await get(2)).Notify as Json[]
    expect(incremented).toHaveLength(2)
    expect(incremented[0]).toEqual({
      ContractAddress: rev(storeAddress),
      States: logStates({ address: storeAddress, topics: [keccak256(Buffer.from('Incremented(uint256)')), `0x${word(1n)}`], data: '0x' }),
      IsEvm: true,
    })
    expect(incremented[1]).toEqual(fee(incGas, A.address))
    // A gas-price-0 transfer of nothing logs nothing: Notify is null, not [].
    expect(await get(3)).toEqual({
      TxHash: rev(txAt[3]!),
      State: 1,
      GasConsumed: 0,
      Notify: null,
      GasStepUsed: 21000,
      TxIndex: 0,
      CreatedContract: ZERO20,
    })
    // A gas-price-0 value transfer logs the value movement only.
    expect((await get(4)).Notify).toHaveLength(1)
    expect(await get(4)).toMatchObject({ GasConsumed: 0, GasStepUsed: 21000 })
    // A 1-gwei value transfer: value log first, fee last; GasConsumed = 1 × 21000.
    const transfer = await get(5)
    expect(transfer).toMatchObject({ State: 1, GasConsumed: 21000, GasStepUsed: 21000, TxIndex: 0, CreatedContract: ZERO20 })
    expect((transfer.Notify as Json[])[1]).toEqual(fee(21000, B.address))
  })

  it('get_merkle_proof: the block of a transaction in the current BlockRoot; verifies and matches a recomputed path', async () => {
    const leaves: Buffer[] = []
    for (let h = 0; h <= tip; h++) {
      leaves.push(transactionsRoot((await blockTxIds(devnet, h)).map((t) => Buffer.from(strip(t), 'hex'))))
    }
    const latestRoot = ((ok(await rest.get(`/api/v1/block/details/height/${tip}`), ACTION.blockbyheight) as Json).Header as Json).BlockRoot
    expect(latestRoot).toBe(rev(compactRoot(leaves).toString('hex')))
    for (const [h, hash] of Object.entries(txAt)) {
      const m = Number(h)
      const proof = ok(await rest.get(`/api/v1/merkleproof/${rev(hash)}`), ACTION.merkleproof) as Json
      expect(Object.keys(proof)).toEqual(['Type', 'TransactionsRoot', 'BlockHeight', 'CurBlockRoot', 'CurBlockHeight', 'TargetHashes'])
      expect(proof).toEqual({
        Type: 'MerkleProof',
        TransactionsRoot: rev(leaves[m]!.toString('hex')),
        BlockHeight: m,
        CurBlockRoot: latestRoot,
        CurBlockHeight: tip,
        TargetHashes: auditPath(leaves, m).map((p) => rev(p.toString('hex'))),
      })
      expect(verifyMerkleProof(proof as never)).toBe(true)
    }
  })

  it('get_gasprice: the average gwei price of the latest block with transactions, and its height', async () => {
    const result = ok(await rest.get('/api/v1/gasprice'), ACTION.gasprice)
    expect(result).toEqual({ gasprice: 1, height: 5 })
    expect(Object.keys(result as Json)).toEqual(['gasprice', 'height'])
    expect(BigInt(await devnet.rpc('eth_gasPrice'))).toBe(GWEI)
  })

  it('get_balance: main in whole tokens, gas in 1e-9 units (floor), height; as eth_getBalance', async () => {
    const height = String(tip)
    const fee = 21_000n * GWEI
    expect(await ethBalance(devnet, B.address)).toBe(INITIAL_GAS - VALUE - fee)
    expect(await ethBalance(devnet, C.address)).toBe(INITIAL_GAS + VALUE)
    for (const account of [A, B, C, D, E, devnet.accounts[9]!]) {
      const wei = await ethBalance(devnet, account.address)
      const result = ok(await rest.get(`/api/v1/balance/${account.base58}`), ACTION.balance)
      expect(result).toEqual({ main: '10000', gas: String(wei / GWEI), height })
      expect(Object.keys(result as Json)).toEqual(['main', 'gas', 'height'])
    }
    expect(ok(await rest.get(`/api/v1/balance/${C.base58}`), ACTION.balance)).toEqual({
      main: '10000',
      gas: String(10_000n * GWEI + 1_234_567n),
      height,
    })
    // An address the chain never saw.
    expect(ok(await rest.get(`/api/v1/balance/${base58(Buffer.alloc(20, 0xab))}`), ACTION.balance)).toEqual({ main: '0', gas: '0', height })
  })

  it('get_balancev2: main in 1e-9 units (9 decimals), gas in wei (18 decimals) = eth_getBalance', async () => {
    const height = String(tip)
    for (const account of [A, B, C, D, E]) {
      const result = ok(await rest.get(`/api/v1/balancev2/${account.base58}`), ACTION.balancev2)
      expect(result).toEqual({ main: String(INITIAL_MAIN), gas: String(await ethBalance(devnet, account.address)), height })
    }
    expect(ok(await rest.get(`/api/v1/balancev2/${C.base58}`), ACTION.balancev2)).toEqual({
      main: '10000000000000',
      gas: String(INITIAL_GAS + VALUE),
      height,
    })
    expect(ok(await rest.get(`/api/v1/balancev2/${E.base58}`), ACTION.balancev2)).toEqual({
      main: '10000000000000',
      gas: String(INITIAL_GAS + 5n * GWEI),
      height,
    })
  })

  it('get_storage: Store slot 0 after increment(), by reversed 40-hex and by Base58; "" for an unset slot', async () => {
    const expected = word(1n)
    expect(strip(await devnet.rpc('eth_getStorageAt', [storeAddress, '0x0', 'latest'])).padStart(64, '0')).toBe(expected)
    expect(ok(await rest.get(`/api/v1/storage/${rev(storeAddress)}/${ZERO32}`), ACTION.storage)).toBe(expected)
    expect(ok(await rest.get(`/api/v1/storage/${base58(storeAddress)}/${ZERO32}`), ACTION.storage)).toBe(expected)
    expect(ok(await rest.get(`/api/v1/storage/${rev(storeAddress).toUpperCase()}/${ZERO32}`), ACTION.storage)).toBe(expected)
    expect(ok(await rest.get(`/api/v1/storage/${rev(storeAddress)}/${word(7n)}`), ACTION.storage)).toBe('')
    expect(ok(await rest.get(`/api/v1/storage/${rev(A.address)}/${ZERO32}`), ACTION.storage)).toBe('')
  })

  it('get_contract_state: the main and gas token contracts by reversed hex and Base58; raw=1 serialisation; 45001 for an EVM contract', async () => {
    const main = {
      Code: '0000000000000000000000000000000000000001',
      VmType: 1,
      Name: 'ONT',
      CodeVersion: '1.0',
      Author: 'Ontology Team',
      Email: 'contact@ont.io',
      Description: 'Ontology Network ONT Token',
    }
    expect(ok(await rest.get(`/api/v1/contract/${MAIN_HEX}`), ACTION.contract)).toEqual(main)
    expect(ok(await rest.get(`/api/v1/contract/${MAIN_BASE58}`), ACTION.contract)).toEqual(main)
    expect(ok(await rest.get(`/api/v1/contract/${GAS_HEX}`), ACTION.contract)).toEqual({
      ...main,
      Code: '0000000000000000000000000000000000000002',
      Name: 'ONG',
      Description: 'Ontology Network ONG Token',
    })
    const text = (s: string) => varbytes(Buffer.from(s).toString('hex'))
    expect(ok(await rest.get(`/api/v1/contract/${MAIN_HEX}?raw=1`), ACTION.contract)).toBe(
      varbytes(main.Code) + '01' + [main.Name, main.CodeVersion, main.Author, main.Email, main.Description].map(text).join(''),
    )
    expect(await rest.get(`/api/v1/contract/${rev(storeAddress)}`)).toEqual({
      Action: ACTION.contract,
      Desc: 'INTERNAL ERROR',
      Error: 45001,
      Result: '',
      Version: '1.0.0',
    })
  })

  it('get_unboundgas (and /unboundong): "0" on a solo node, Base58 or reversed hex', async () => {
    for (const addr of [A.base58, rev(A.address), MAIN_BASE58]) {
      expect(ok(await rest.get(`/api/v1/unboundgas/${addr}`), ACTION.unboundgas)).toBe('0')
      expect(ok(await rest.get(`/api/v1/unboundong/${addr}`), ACTION.unboundong)).toBe('0')
    }
  })

  it('get_grantgas (and /grantong): "0" on a solo node', async () => {
    for (const addr of [A.base58, rev(A.address)]) {
      expect(ok(await rest.get(`/api/v1/grantgas/${addr}`), ACTION.grantgas)).toBe('0')
      expect(ok(await rest.get(`/api/v1/grantong/${addr}`), ACTION.grantong)).toBe('0')
    }
  })

  it('get_allowance: "0" for main, gas, ont, ong (any case), Base58 or reversed hex', async () => {
    for (const asset of ['main', 'gas', 'ont', 'ong', 'ONT', 'Gas']) {
      expect(ok(await rest.get(`/api/v1/allowance/${asset}/${A.base58}/${B.base58}`), ACTION.allowance)).toBe('0')
      expect(ok(await rest.get(`/api/v1/allowance/${asset}/${rev(A.address)}/${B.base58}`), ACTION.allowance)).toBe('0')
    }
  })

  it('get_allowancev2: "0", path form and ?asset=&from=&to= query form, Action getallowancev2', async () => {
    for (const asset of ['main', 'gas', 'ont', 'ong']) {
      expect(ok(await rest.get(`/api/v1/allowancev2/${asset}/${A.base58}/${B.base58}`), ACTION.allowancev2)).toBe('0')
      expect(ok(await rest.get(`/api/v1/allowancev2?asset=${asset}&from=${A.base58}&to=${B.base58}`), ACTION.allowancev2)).toBe('0')
    }
  })

  it('get_mempooltxcount: [0, 0] with automine (nothing waits)', async () => {
    expect(ok(await rest.get('/api/v1/mempool/txcount'), ACTION.txcount)).toEqual([0, 0])
  })

  it('get_mempooltxcount and get_mempooltxstate without automine: pending shows, then 44001 once mined', async () => {
    const pool = await createDevnet({ automine: false })
    try {
      const client = await clientOf(pool, mode)
      const sender = pool.accounts[0]!
      const raw = await new Wallet(sender.privateKey).signTransaction({
        type: 0,
        chainId: CHAIN_ID,
        nonce: 0,
        to: pool.accounts[1]!.address,
        value: 1n,
        gasPrice: GWEI,
        gasLimit: 21_000n,
      })
      const hash = await pool.rpc('eth_sendRawTransaction', [raw])
      expect(ok(await client.get('/api/v1/mempool/txcount'), ACTION.txcount)).toEqual([1, 0])
      const state = ok(await client.get(`/api/v1/mempool/txstate/${rev(hash)}`), ACTION.txstate)
      expect(state).toEqual({
        State: [
          { Height: 0, Type: 0, ErrCode: 0 },
          { Height: 0, Type: 1, ErrCode: 0 },
        ],
        Raw: `00d3${varbytes(strip(raw))}`,
      })
      // Pending: not a transaction of the ledger yet.
      expect(await client.get(`/api/v1/transaction/${rev(hash)}`)).toMatchObject({ Error: 44001, Result: '' })
      expect(ok(await client.get(`/api/v1/smartcode/event/txhash/${rev(hash)}`), ACTION.eventsbyhash)).toBe('')
      await pool.mine()
      expect(await client.get(`/api/v1/mempool/txstate/${rev(hash)}`)).toEqual({
        Action: ACTION.txstate,
        Desc: 'UNKNOWN TRANSACTION',
        Error: 44001,
        Result: '',
        Version: '1.0.0',
      })
      expect(ok(await client.get('/api/v1/mempool/txcount'), ACTION.txcount)).toEqual([0, 0])
      expect((ok(await client.get(`/api/v1/transaction/${rev(hash)}`), ACTION.tx) as Json).Height).toBe(1)
    } finally {
      await pool.close()
    }
  })

  it('get_version: the node version string', async () => {
    expect(ok(await rest.get('/api/v1/version'), ACTION.version)).toBe(`v${VERSION}-dualnet`)
  })

  it('get_networkid: 3 on a solo node', async () => {
    expect(ok(await rest.get('/api/v1/networkid'), ACTION.networkid)).toBe(3)
  })

  it("get_syncstatus: the spec's doubled path and the node's path, solo constants", async () => {
    for (const path of ['/api/v1/api/v1/node/syncstatus', '/api/v1/node/syncstatus']) {
      const result = ok(await rest.get(path), ACTION.syncstatus)
      expect(result).toEqual({ CurrentBlockHeight: tip, ConnectCount: 1, MaxPeerBlockHeight: 1 })
      expect(Object.keys(result as Json)).toEqual(['CurrentBlockHeight', 'ConnectCount', 'MaxPeerBlockHeight'])
    }
  })

  it('HTTP transport: 404 `404 page not found` for unknown paths, trailing slashes, negative heights, POST to a GET route', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/block/height/', '/api/v1/block/details/height/-1', '/api/v1/block/hash/-1', '/', '/api/v1/balance/']) {
      await rest.expectNotFound('GET', path)
    }
    await rest.expectNotFound('POST', '/api/v1/block/height')
    await rest.expectNotFound('POST', '/api/v1/transaction/')
    // The next request is served.
    expect(ok(await rest.get('/api/v1/block/height'), ACTION.blockheight)).toBe(tip)
  })

  it.runIf(mode === 'http')('HTTP transport: headers on handled requests, error envelopes included; OPTIONS on /api/v1/transaction', async () => {
    const { restUrl } = await devnet.listen()
    for (const path of ['/api/v1/block/height', `/api/v1/transaction/${ZERO32}`]) {
      const res = await fetch(restUrl + path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type')
    }
    const bad = await fetch(restUrl + '/api/v1/transaction', { method: 'POST', body: 'not json' })
    expect(bad.status).toBe(200)
    expect(await bad.json()).toEqual({ Action: ACTION.send, Desc: 'ILLEGAL DATAFORMAT', Error: 41003, Result: '', Version: '1.0.0' })
    const options = await fetch(restUrl + '/api/v1/transaction', { method: 'OPTIONS' })
    expect(options.status).toBe(200)
    expect(await options.text()).toBe('')
    const notFound = await fetch(restUrl + '/api/v1/nope')
    expect(notFound.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect((await fetch(restUrl + '/api/v1/block/height', { method: 'OPTIONS' })).status).toBe(404)
  })

  it('post_raw_tx ?preExec=1: {State, Gas, Result (base64), Notify} as the same transaction then mined, chain unchanged', async () => {
    const sender = devnet.accounts[6]!
    const wallet = new Wallet(sender.privateKey)
    const height = await ethHeight(devnet)
    const balance = await ethBalance(devnet, sender.address)
    // count(): returns the counter; at 1 gwei the record carries the fee notify.
    const countRaw = await wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: 0,
      to: storeAddress,
      data: store.encodeFunctionData('count'),
      gasPrice: GWEI,
      gasLimit: 100_000n,
    })
    const body = (raw: string) => ({ Action: 'sendrawtransaction', Version: '1.0.0', Data: `00d3${varbytes(strip(raw))}` })
    const pre = ok(await rest.post('/api/v1/transaction?preExec=1', body(countRaw)), ACTION.send) as Json
    expect(Object.keys(pre)).toEqual(['State', 'Gas', 'Result', 'Notify'])
    expect(pre.State).toBe(1)
    expect(pre.Result).toBe(Buffer.from(word(1n), 'hex').toString('base64'))
    // Nothing changed: height, balance, nonce, and the transaction is unknown.
    expect(await ethHeight(devnet)).toBe(height)
    expect(await ethBalance(devnet, sender.address)).toBe(balance)
    expect(await devnet.rpc('eth_getTransactionCount', [sender.address, 'latest'])).toBe('0x0')
    expect((await rest.get(`/api/v1/transaction/${rev(keccak256(countRaw))}`)).Error).toBe(44001)
    // Mined for real on the same state: the same gas, state and notifies.
    const sent = ok(await rest.post('/api/v1/transaction', body(countRaw)), ACTION.send)
    expect(sent).toBe(rev(keccak256(countRaw)))
    const record = await expectedRecord(devnet, keccak256(countRaw))
    expect(pre).toEqual({ State: record.State, Gas: record.GasStepUsed, Result: pre.Result, Notify: record.Notify })

    // increment() pre-executed: Incremented(2) and the fee, storage untouched.
    const incRaw = await wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: 1,
      to: storeAddress,
      data: store.encodeFunctionData('increment'),
      gasPrice: GWEI,
      gasLimit: 100_000n,
    })
    const preInc = ok(await rest.post('/api/v1/transaction?preExec=1', body(incRaw)), ACTION.send) as Json
    // No return data: a nil Go []byte, which marshals to null.
    expect(preInc).toMatchObject({ State: 1, Result: null })
    expect((preInc.Notify as Json[]).map((n) => n.ContractAddress)).toEqual([rev(storeAddress), GAS_HEX])
    expect(ok(await rest.get(`/api/v1/storage/${rev(storeAddress)}/${ZERO32}`), ACTION.storage)).toBe(word(1n))
    // preExec=0 (anything but "1") sends.
    expect(ok(await rest.post('/api/v1/transaction?preExec=0', body(incRaw)), ACTION.send)).toBe(rev(keccak256(incRaw)))
    const incRecord = await expectedRecord(devnet, keccak256(incRaw))
    expect(preInc).toEqual({ State: 1, Gas: incRecord.GasStepUsed, Result: null, Notify: incRecord.Notify })
    expect(ok(await rest.get(`/api/v1/storage/${rev(storeAddress)}/${ZERO32}`), ACTION.storage)).toBe(word(2n))
  })

  it('post_raw_tx: 00d3 ‖ varbytes(rlp) (short and 0xfd-prefixed lengths) answers the reversed hash; the tx is mined', async () => {
    const sender = devnet.accounts[7]!
    const wallet = new Wallet(sender.privateKey)
    const height = await ethHeight(devnet)
    // A deployment: RLP longer than 0xfc bytes, so the length is 0xfd + u16 LE.
    const deployRaw = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, data: Store.bytecode, gasPrice: GWEI, gasLimit: 1_000_000n })
    expect(strip(deployRaw).length / 2).toBeGreaterThan(0xfc)
    const deployData = `00d3${varbytes(strip(deployRaw))}`
    expect(deployData.slice(4, 6)).toBe('fd')
    const hash = ok(await rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: '1.0.0', Data: deployData }), ACTION.send)
    expect(hash).toBe(rev(keccak256(deployRaw)))
    const receipt = await ethReceipt(devnet, keccak256(deployRaw))
    expect(receipt.status).toBe('0x1')
    expect(Number(receipt.blockNumber)).toBe(height + 1)
    expect(await devnet.rpcUntyped('eth_getCode', [receipt.contractAddress, 'latest'])).toBe(Store.deployedBytecode)
    // A value transfer: one-byte length; only Data is read (the SDK's "v1.0.0" Version is fine too).
    const transferRaw = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 1, to: A.address, value: 7n, gasPrice: GWEI, gasLimit: 21_000n })
    const data = `00d3${varbytes(strip(transferRaw))}`
    expect(data.slice(4, 6)).toBe((strip(transferRaw).length / 2).toString(16))
    expect(ok(await rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: 'v1.0.0', Data: data }), ACTION.send)).toBe(rev(keccak256(transferRaw)))
    expect(ok(await rest.get(`/api/v1/transaction/${rev(keccak256(transferRaw))}`), ACTION.tx)).toEqual(await expectedTx(devnet, keccak256(transferRaw)))
    expect(ok(await rest.get(`/api/v1/block/height/txhash/${rev(keccak256(transferRaw))}`), ACTION.heightbytx)).toBe(height + 2)
    // A transaction already on chain answers its hash again (ErrDuplicatedTx is success, reference §6.5).
    expect(ok(await rest.post('/api/v1/transaction', { Data: data }), ACTION.send)).toBe(rev(keccak256(transferRaw)))
    expect(await ethHeight(devnet)).toBe(height + 2)
  })
})

describe('GET /api/v1 (getallapi)', () => {
  it('lists the GET route templates', async () => {
    const devnet = await createDevnet({ accounts: 1 })
    const envelope = await devnet.rest.get('/api/v1')
    expect(envelope).toMatchObject({ Action: 'getallapi', Desc: 'SUCCESS', Error: 0, Version: '1.0.0' })
    const templates = envelope.Result as string[]
    expect(templates).toContain('/api/v1/block/details/height/:height')
    expect(templates).toContain('/api/v1/balancev2/:addr')
    expect(templates).not.toContain('/api/v1/transaction')
    await devnet.close()
  })
})
