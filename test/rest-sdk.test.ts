/**
 * The chain's own TypeScript SDK (ontology-ts-sdk) against the devnet's REST server:
 * every `RestClient` method whose path the devnet serves (reference §7.1), with the
 * envelopes and Results checked against what the devnet holds on the EVM side.
 *
 * Import: the package is a webpack-built CommonJS bundle (`main: ./lib/index.js`,
 * `types: ./lib/types/index.d.ts`) whose named exports Node's ESM loader cannot see:
 * `import { RestClient } from 'ontology-ts-sdk'` is undefined at run time, and the
 * default import is `module.exports` under Node but the bundle's `default` (the `ONT`
 * class) under vitest's interop. `createRequire` gives `module.exports` everywhere;
 * the package's own typings type it. Its methods resolve to `any`; the helpers below
 * give them types.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { Transaction, Wallet, id } from 'ethers'
import type * as OntologySdk from 'ontology-ts-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, toBase58, verifyMerkleProof, VERSION, type Devnet, type MerkleProof, type RestBlock } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GOVERNANCE, GWEI, TRANSFER_TOPIC, addressTopic, word } from './support.ts'

const { RestClient, Crypto, Merkle } = createRequire(import.meta.url)('ontology-ts-sdk') as typeof OntologySdk
type SdkClient = InstanceType<typeof RestClient>
type SdkAddress = InstanceType<typeof Crypto.Address>

/** The REST envelope every SDK method resolves to. */
interface Envelope<T> {
  Action: string
  Desc: string
  Error: number
  Result: T
  Version: string
}

interface TxJson {
  Version: number
  Nonce: number
  GasPrice: number
  GasLimit: number
  Payer: string
  TxType: number
  Payload: string
  Attributes: unknown[]
  Sigs: unknown[]
  Hash: string
  Height: number
}

/** The block JSON of getblockbyheight, as the REST schema types it. */
type BlockJson = RestBlock

interface Notify {
  ContractAddress: string
  States: unknown
  IsEvm: boolean
}

interface EventRecord {
  TxHash: string
  State: number
  GasConsumed: number
  Notify: Notify[] | null
  GasStepUsed: number
  TxIndex: number
  CreatedContract: string
}

interface PreExecResult {
  State: number
  Gas: number
  Result: string | null
  Notify: Notify[] | null
}

interface Balances {
  main: string
  gas: string
  height: string
  ont?: unknown
  ong?: unknown
}

interface EthLog {
  address: string
  topics: string[]
  data: string
}

interface EthReceipt {
  status: string
  blockNumber: string
  gasUsed: string
  contractAddress: string | null
  logs: EthLog[]
}

interface EthBlock {
  hash: string
  parentHash: string
  timestamp: string
  size: string
  transactionsRoot: string
}

interface EthTx {
  nonce: string
  gas: string
  gasPrice: string
}

/** Awaits an SDK call. */
const envelope = <T>(call: Promise<unknown>) => call as Promise<Envelope<T>>

/** Awaits an SDK call, checks it succeeded with `action`, resolves to its Result. */
async function ok<T>(action: string, call: Promise<unknown>): Promise<T> {
  const env = await envelope<T>(call)
  expect({ ...env, Result: undefined }).toEqual({ Action: action, Desc: 'SUCCESS', Error: 0, Result: undefined, Version: '1.0.0' })
  return env.Result
}

/** An eth 0x hash or address in REST form: bytes reversed, no 0x. */
const rev = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex').reverse().toString('hex')

/** Var-bytes of a hex string: 1-byte length below 0xfd, else 0xfd + u16 LE. */
function varbytes(hex: string): string {
  const n = hex.length / 2
  if (n < 0xfd) return n.toString(16).padStart(2, '0') + hex
  return `fd${Buffer.from([n & 0xff, n >> 8]).toString('hex')}${hex}`
}

/** The node's raw form of an EIP-155 transaction: version 00, type d3, var-bytes of the RLP. */
const wrapEip155 = (signed: string) => `00d3${varbytes(signed.slice(2))}`

/** An EVM log as the node's IsEvm notify (§1.4.6): address ‖ u32 LE topic count ‖ topics ‖ var-bytes(data). */
function notifyOf(log: EthLog): Notify {
  const count = Buffer.alloc(4)
  count.writeUInt32LE(log.topics.length)
  const states = `0x${log.address.slice(2)}${count.toString('hex')}${log.topics.map((t) => t.slice(2)).join('')}${varbytes(log.data.slice(2))}`
  return { ContractAddress: rev(log.address), States: states, IsEvm: true }
}

/** The synthetic gas-token Transfer log of `amount` wei from `from` to `to`. */
const transferLog = (from: string, to: string, amount: bigint): EthLog => ({
  address: GAS_TOKEN,
  topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(to)],
  data: word(amount),
})

const sha256d = (bytes: Uint8Array) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest()

const ONE_GWEI = '0x3b9aca00'
const ZERO_ADDRESS_REST = '00'.repeat(20)
const MAIN_TOKEN_REST = '0100000000000000000000000000000000000000'

describe('ontology-ts-sdk RestClient against dualnet (reads)', () => {
  let devnet: Devnet
  let client: SdkClient
  let restUrl: string
  let addr: SdkAddress[]
  let contract: string
  let deployHash: string
  let transferHash: string
  let incrementHash: string

  const rpc = <T>(method: string, params: unknown[] = []) => devnet.rpcUntyped(method, params) as Promise<T>

  beforeAll(async () => {
    devnet = await createDevnet()
    const urls = await devnet.listen()
    restUrl = urls.restUrl!
    client = new RestClient(restUrl)
    addr = devnet.accounts.slice(0, 2).map((a) => new Crypto.Address(a.base58))
    const [a0, a1] = devnet.accounts
    // Block 1: deploy (gas price 0); block 2: value transfer at 1 gwei; block 3: Store.increment() at 1 gwei; then 3 empty blocks.
    deployHash = await rpc<string>('eth_sendTransaction', [{ from: a0!.address, data: Store.bytecode, gas: '0x100000' }])
    transferHash = await rpc<string>('eth_sendTransaction', [{ from: a0!.address, to: a1!.address, value: '0xde0b6b3a7640000', gas: '0x5208', gasPrice: ONE_GWEI }])
    contract = (await rpc<EthReceipt>('eth_getTransactionReceipt', [deployHash])).contractAddress!
    incrementHash = await rpc<string>('eth_sendTransaction', [{ from: a0!.address, to: contract, data: id('increment()').slice(0, 10), gas: '0x100000', gasPrice: ONE_GWEI }])
    await devnet.mine(3)
  })

  afterAll(async () => {
    await devnet?.close()
  })

  it('getBlockHeight: the current height, as eth_blockNumber', async () => {
    const height = await ok<number>('getblockheight', client.getBlockHeight())
    expect(height).toBe(6)
    expect(height).toBe(Number(await rpc<string>('eth_blockNumber')))
  })

  it('getBlockJson by height and by hash: the block eth_getBlockByNumber shows, hashes reversed', async () => {
    const block = await ok<BlockJson>('getblockbyheight', client.getBlockJson(2))
    const eth = await rpc<EthBlock>('eth_getBlockByNumber', ['0x2', false])
    expect(block.Hash).toBe(rev(eth.hash))
    expect(block.Header.Hash).toBe(block.Hash)
    expect(block.Header.PrevBlockHash).toBe(rev(eth.parentHash))
    expect(block.Header.TransactionsRoot).toBe(rev(eth.transactionsRoot))
    expect(block.Header.Height).toBe(2)
    expect(block.Header.Version).toBe(0)
    expect(block.Header.Timestamp).toBe(Number(eth.timestamp))
    expect(block.Header.ConsensusPayload).toBe('')
    expect(block.Header.Bookkeepers).toHaveLength(1)
    expect(block.Header.Bookkeepers[0]).toMatch(/^0[23][0-9a-f]{64}$/)
    expect(block.Header.SigData).toHaveLength(1)
    expect(block.Size).toBe(Number(eth.size))
    expect(block.Transactions.map((tx) => [tx.Hash, tx.Height])).toEqual([[rev(transferHash), 2]])

    const byHash = await envelope<BlockJson>(client.getBlockJson(block.Hash))
    expect(byHash).toEqual({ Action: 'getblockbyhash', Desc: 'SUCCESS', Error: 0, Result: block, Version: '1.0.0' })

    const previous = await ok<BlockJson>('getblockbyheight', client.getBlockJson(1))
    expect(block.Header.PrevBlockHash).toBe(previous.Hash)
    const empty = await ok<BlockJson>('getblockbyheight', client.getBlockJson(5))
    expect(empty.Transactions).toEqual([])
    expect(empty.Header.TransactionsRoot).toBe('00'.repeat(32))
  })

  it('getBlock (raw) by height and by hash: the header hashes to the block hash; the txs are the raw transactions', async () => {
    const hex = await ok<string>('getblockbyheight', client.getBlock(2))
    const byHash = await envelope<string>(client.getBlock(rev((await rpc<EthBlock>('eth_getBlockByNumber', ['0x2', false])).hash)))
    expect(byHash).toEqual({ Action: 'getblockbyhash', Desc: 'SUCCESS', Error: 0, Result: hex, Version: '1.0.0' })

    const json = await ok<BlockJson>('getblockbyheight', client.getBlockJson(2))
    const bytes = Buffer.from(hex, 'hex')
    expect(bytes.length).toBe(json.Size)
    // Unsigned header: version 4 ‖ prev 32 ‖ txRoot 32 ‖ blockRoot 32 ‖ time 4 ‖ height 4 ‖ consensusData 8 ‖ varbytes payload (empty) ‖ next bookkeeper 20.
    expect(bytes.readUInt32LE(0)).toBe(0)
    expect(Buffer.from(bytes.subarray(4, 36)).reverse().toString('hex')).toBe(json.Header.PrevBlockHash)
    expect(Buffer.from(bytes.subarray(68, 100)).reverse().toString('hex')).toBe(json.Header.BlockRoot)
    expect(bytes.readUInt32LE(100)).toBe(json.Header.Timestamp)
    expect(bytes.readUInt32LE(104)).toBe(2)
    expect(bytes[116]).toBe(0)
    expect(sha256d(bytes.subarray(0, 137)).reverse().toString('hex')).toBe(json.Hash)
    // Block raw = header ‖ u32 LE tx count ‖ raw txs.
    const rawTx = await ok<string>('gettransaction', client.getRawTransaction(rev(transferHash)))
    expect(hex.endsWith(`01000000${rawTx}`)).toBe(true)

    // ConsensusData is a u64: the wire carries its exact digits, but the SDK parses the
    // body with JSON.parse, so above 2^53 the client sees the nearest double.
    const consensusData = bytes.readBigUInt64LE(108)
    const text = await (await fetch(`${restUrl}/api/v1/block/details/height/2`)).text()
    expect(BigInt(/"ConsensusData":(\d+)/.exec(text)![1]!)).toBe(consensusData)
    expect(json.Header.ConsensusData).toBe(Number(consensusData))
  })

  it('getRawTransaction / getRawTransactionJson: the EIP-155 wrapper of the eth transaction', async () => {
    const json = await ok<TxJson>('gettransaction', client.getRawTransactionJson(rev(transferHash)))
    const eth = await rpc<EthTx>('eth_getTransactionByHash', [transferHash])
    expect(json).toEqual({
      Version: 0,
      Nonce: Number(eth.nonce),
      GasPrice: 1,
      GasLimit: Number(eth.gas),
      Payer: devnet.accounts[0]!.base58,
      TxType: 211,
      Payload: expect.stringMatching(/^[0-9a-f]+$/),
      Attributes: [],
      Sigs: [],
      Hash: rev(transferHash),
      Height: 2,
    })
    expect(BigInt(eth.gasPrice)).toBe(GWEI)
    // The payload is the signed eth transaction's RLP; the raw form wraps it.
    expect(Transaction.from(`0x${json.Payload}`).hash).toBe(transferHash)
    const raw = await ok<string>('gettransaction', client.getRawTransaction(rev(transferHash)))
    expect(raw).toBe(`00d3${varbytes(json.Payload)}`)
  })

  it('getSmartCodeEvent by tx hash and by height; getBlockHeightByTxHash', async () => {
    const receipt = await rpc<EthReceipt>('eth_getTransactionReceipt', [transferHash])
    const [a0, a1] = devnet.accounts
    const expected: EventRecord = {
      TxHash: rev(transferHash),
      State: 1,
      GasConsumed: 21000, // fee in 1e-9 gas-token units: 21000 gas × 1 gwei
      Notify: [notifyOf(transferLog(a0!.address, a1!.address, 10n ** 18n)), notifyOf(transferLog(a0!.address, GOVERNANCE, 21000n * GWEI))],
      GasStepUsed: Number(receipt.gasUsed),
      TxIndex: 0,
      CreatedContract: ZERO_ADDRESS_REST,
    }
    expect(receipt.logs.map(notifyOf)).toEqual(expected.Notify)
    expect(await ok<EventRecord>('getsmartcodeeventbyhash', client.getSmartCodeEvent(rev(transferHash)))).toEqual(expected)
    expect(await ok<EventRecord[]>('getsmartcodeeventbyheight', client.getSmartCodeEvent(2))).toEqual([expected])

    // The deployment: gas price 0, so no fee notify; the Store constructor logs nothing.
    const deployed = await ok<EventRecord[]>('getsmartcodeeventbyheight', client.getSmartCodeEvent(1))
    expect(deployed).toEqual([expect.objectContaining({ TxHash: rev(deployHash), State: 1, GasConsumed: 0, Notify: null, TxIndex: 0, CreatedContract: rev(contract) })])
    // Store.increment() emits Incremented(1), then the fee log.
    const increment = await ok<EventRecord>('getsmartcodeeventbyhash', client.getSmartCodeEvent(rev(incrementHash)))
    const incrementReceipt = await rpc<EthReceipt>('eth_getTransactionReceipt', [incrementHash])
    expect(increment.Notify).toEqual(incrementReceipt.logs.map(notifyOf))
    expect(increment.Notify?.[0]?.ContractAddress).toBe(rev(contract))
    expect(increment.GasConsumed).toBe(Number(incrementReceipt.gasUsed))

    // An empty block and an unknown hash: success with Result "".
    expect(await ok<string>('getsmartcodeeventbyheight', client.getSmartCodeEvent(5))).toBe('')
    expect(await ok<string>('getsmartcodeeventbyhash', client.getSmartCodeEvent('ab'.repeat(32)))).toBe('')

    expect(await ok<number>('getblockheightbytxhash', client.getBlockHeightByTxHash(rev(transferHash)))).toBe(Number(receipt.blockNumber))
    expect(await ok<number>('getblockheightbytxhash', client.getBlockHeightByTxHash(rev(incrementHash)))).toBe(3)
  })

  it('getMerkleProof: verifies against the current BlockRoot, with dualnet and with the SDK Merkle helpers', async () => {
    const proof = await ok<MerkleProof>('getmerkleproof', client.getMerkleProof(rev(transferHash)))
    const block = await ok<BlockJson>('getblockbyheight', client.getBlockJson(2))
    const tip = await ok<BlockJson>('getblockbyheight', client.getBlockJson(6))
    expect(proof).toEqual({
      Type: 'MerkleProof',
      TransactionsRoot: block.Header.TransactionsRoot,
      BlockHeight: 2,
      CurBlockRoot: tip.Header.BlockRoot,
      CurBlockHeight: 6,
      TargetHashes: expect.any(Array),
    })
    expect(verifyMerkleProof(proof)).toBe(true)
    // The SDK's verifier hashes its hex inputs as given: it needs raw byte order
    // (REST hex reversed) and a tree size of CurBlockHeight + 1.
    const raw = (hex: string) => rev(hex)
    const targets = proof.TargetHashes!.map(raw)
    expect(Merkle.verifyLeafHashInclusion(raw(proof.TransactionsRoot), 2, targets, raw(proof.CurBlockRoot), proof.CurBlockHeight + 1)).toBe(true)
    // Fed the REST hex directly (as the SDK's constructMerkleProof does), it does not verify.
    expect(Merkle.verifyLeafHashInclusion(proof.TransactionsRoot, 2, proof.TargetHashes!, proof.CurBlockRoot, proof.CurBlockHeight + 1)).toBe(false)
  })

  it('getStorage: an EVM storage slot, as eth_getStorageAt; a missing key is ""', async () => {
    const slot0 = await rpc<string>('eth_getStorageAt', [contract, '0x0', 'latest'])
    expect(BigInt(slot0)).toBe(1n) // count after increment()
    const value = await ok<string>('getstorage', client.getStorage(rev(contract), '00'))
    expect(value).toBe(word(1n).slice(2))
    expect(BigInt(`0x${value}`)).toBe(BigInt(slot0))
    // The contract as Base58 works too (GetAddress: anything but 40 characters is Base58).
    const base58 = toBase58(Uint8Array.from(Buffer.from(contract.slice(2), 'hex')))
    expect(await ok<string>('getstorage', client.getStorage(base58, '00'))).toBe(value)
    expect(await ok<string>('getstorage', client.getStorage(rev(contract), '01'))).toBe('')
  })

  it('getContractJson / getContract: the main token contract', async () => {
    const info = await ok<Record<string, unknown>>('getcontract', client.getContractJson(MAIN_TOKEN_REST))
    expect(info).toEqual({
      Code: '0000000000000000000000000000000000000001',
      VmType: 1,
      Name: 'ONT',
      CodeVersion: '1.0',
      Author: 'Ontology Team',
      Email: 'contact@ont.io',
      Description: 'Ontology Network ONT Token',
    })
    // Go field order of the node's DeployCodeInfo.
    expect(Object.keys(info)).toEqual(['Code', 'VmType', 'Name', 'CodeVersion', 'Author', 'Email', 'Description'])
    const str = (s: string) => varbytes(Buffer.from(s).toString('hex'))
    const raw = await ok<string>('getcontract', client.getContract(MAIN_TOKEN_REST))
    expect(raw).toBe(varbytes('0000000000000000000000000000000000000001') + '01' + ['ONT', '1.0', 'Ontology Team', 'contact@ont.io', 'Ontology Network ONT Token'].map(str).join(''))
    const gas = await ok<Record<string, unknown>>('getcontract', client.getContractJson('0200000000000000000000000000000000000000'))
    expect(gas).toMatchObject({ Code: '0000000000000000000000000000000000000002', Name: 'ONG', Description: 'Ontology Network ONG Token' })
  })

  it("getBalance / getBalanceV2: keys main/gas (not the SDK's ont/ong); gas agrees with eth_getBalance", async () => {
    for (const [i, account] of devnet.accounts.slice(0, 2).entries()) {
      const wei = BigInt(await rpc<string>('eth_getBalance', [account.address, 'latest']))
      const v1 = await ok<Balances>('getbalance', client.getBalance(addr[i]!))
      const v2 = await ok<Balances>('getbalancev2', client.getBalanceV2(addr[i]!))
      expect(v2).toEqual({ main: '10000000000000', gas: wei.toString(), height: '6' })
      expect(v1).toEqual({ main: '10000', gas: (wei / GWEI).toString(), height: '6' })
      expect(Object.keys(v1)).toEqual(['main', 'gas', 'height'])
      // SDK code that reads Result.ont / Result.ong finds nothing (reference decisions table).
      expect(v1.ont).toBeUndefined()
      expect(v2.ong).toBeUndefined()
    }
    // accounts[0] paid 1 token + the fees (21000 gwei + increment's), accounts[1] received 1 token.
    const v2 = await ok<Balances>('getbalancev2', client.getBalanceV2(addr[1]!))
    expect(BigInt(v2.gas)).toBe(10_001n * 10n ** 18n)
  })

  it('getAllowance / getAllowanceV2 (ont, ong), getUnboundOng, getGrantOng', async () => {
    const [a0, a1] = addr as [SdkAddress, SdkAddress]
    expect(await ok<string>('getallowance', client.getAllowance('ont', a0, a1))).toBe('0')
    expect(await ok<string>('getallowance', client.getAllowance('ong', a0, a1))).toBe('0')
    // The SDK lower-cases the asset.
    expect(await ok<string>('getallowance', client.getAllowance('ONG', a0, a1))).toBe('0')
    expect(await ok<string>('getallowancev2', client.getAllowanceV2('ont', a0, a1))).toBe('0')
    expect(await ok<string>('getallowancev2', client.getAllowanceV2('ong', a1, a0))).toBe('0')
    // The SDK itself refuses any asset name but ont/ong (the spec's main/gas included).
    expect(() => client.getAllowance('main', a0, a1)).toThrow()
    expect(await ok<string>('getunboundong', client.getUnboundOng(a0))).toBe('0')
    expect(await ok<string>('getgrantong', client.getGrantOng(a0))).toBe('0')
  })

  it('getBlockTxsByHeight: block hash, height and reversed tx hashes', async () => {
    const eth = await rpc<EthBlock>('eth_getBlockByNumber', ['0x3', false])
    expect(await ok<unknown>('getblocktxsbyheight', client.getBlockTxsByHeight(3))).toEqual({
      Hash: rev(eth.hash),
      Height: 3,
      Transactions: [rev(incrementHash)],
    })
    const empty = await ok<{ Transactions: string[] }>('getblocktxsbyheight', client.getBlockTxsByHeight(4))
    expect(empty.Transactions).toEqual([])
  })

  it('getGasPrice: the latest block with transactions, as eth_gasPrice', async () => {
    const price = await ok<{ gasprice: number; height: number }>('getgasprice', client.getGasPrice())
    expect(price).toEqual({ gasprice: 1, height: 3 })
    expect(BigInt(await rpc<string>('eth_gasPrice'))).toBe(BigInt(price.gasprice) * GWEI)
  })

  it('getMempoolTxCount, getVersion, getNodeCount', async () => {
    expect(await ok<number[]>('getmempooltxcount', client.getMempoolTxCount())).toEqual([0, 0])
    expect(await ok<string>('getversion', client.getVersion())).toBe(`v${VERSION}-dualnet`)
    expect(await ok<number>('getconnectioncount', client.getNodeCount())).toBe(1)
  })
})

describe('ontology-ts-sdk RestClient.sendRawTransaction with EIP-155 transactions', () => {
  let devnet: Devnet
  let client: SdkClient
  let wallet: Wallet
  let contract: string

  const rpc = <T>(method: string, params: unknown[] = []) => devnet.rpcUntyped(method, params) as Promise<T>
  const balance = async (address: string) => BigInt(await rpc<string>('eth_getBalance', [address, 'latest']))
  const sign = async (tx: { to?: string; data?: string; value?: bigint; gasLimit: bigint; gasPrice?: bigint }) =>
    wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: Number(await rpc<string>('eth_getTransactionCount', [wallet.address, 'latest'])),
      gasPrice: GWEI,
      value: 0n,
      ...tx,
    })

  beforeAll(async () => {
    devnet = await createDevnet()
    const { restUrl } = await devnet.listen()
    client = new RestClient(restUrl)
    wallet = new Wallet(devnet.accounts[2]!.privateKey)
  })

  afterAll(async () => {
    await devnet?.close()
  })

  it('deploys through REST: preExec returns the runtime code (base64), then the send commits it', async () => {
    const signed = await sign({ data: Store.bytecode, gasLimit: 0x100000n })
    const data = wrapEip155(signed)
    expect(data.slice(4, 6)).toBe('fd') // the RLP is longer than 0xfc bytes
    const height = await ok<number>('getblockheight', client.getBlockHeight())

    const pre = await ok<PreExecResult>('sendrawtransaction', client.sendRawTransaction(data, true))
    expect(pre.State).toBe(1)
    expect(pre.Result).not.toBeNull()
    expect(`0x${Buffer.from(pre.Result!, 'base64').toString('hex')}`).toBe(Store.deployedBytecode)
    // Only the fee log (gas price 1 gwei): the Store constructor logs nothing.
    expect(pre.Notify).toEqual([notifyOf(transferLog(wallet.address.toLowerCase(), GOVERNANCE, BigInt(pre.Gas) * GWEI))])
    expect(await ok<number>('getblockheight', client.getBlockHeight())).toBe(height)

    const hash = await ok<string>('sendrawtransaction', client.sendRawTransaction(data))
    const ethHash = Transaction.from(signed).hash!
    expect(hash).toBe(rev(ethHash))
    const receipt = await rpc<EthReceipt>('eth_getTransactionReceipt', [ethHash])
    expect(receipt.status).toBe('0x1')
    expect(Number(receipt.gasUsed)).toBe(pre.Gas)
    contract = receipt.contractAddress!
    expect(await rpc<string>('eth_getCode', [contract, 'latest'])).toBe(Store.deployedBytecode)
    const event = await ok<EventRecord>('getsmartcodeeventbyhash', client.getSmartCodeEvent(hash))
    expect(event).toMatchObject({ TxHash: hash, State: 1, GasStepUsed: pre.Gas, CreatedContract: rev(contract) })
  })

  it('a value transfer: preExec changes nothing and reports the value and fee notifies; the send moves the funds', async () => {
    const to = devnet.accounts[3]!.address
    const signed = await sign({ to, value: 10n ** 18n, gasLimit: 21000n })
    const data = wrapEip155(signed)
    const [fromBefore, toBefore] = [await balance(wallet.address), await balance(to)]
    const height = await ok<number>('getblockheight', client.getBlockHeight())

    const pre = await ok<PreExecResult>('sendrawtransaction', client.sendRawTransaction(data, true))
    const from = wallet.address.toLowerCase()
    expect(pre).toEqual({
      State: 1,
      Gas: 21000,
      Result: null, // no return data: the node's nil []byte marshals to null
      Notify: [notifyOf(transferLog(from, to, 10n ** 18n)), notifyOf(transferLog(from, GOVERNANCE, 21000n * GWEI))],
    })
    expect([await balance(wallet.address), await balance(to)]).toEqual([fromBefore, toBefore])
    expect(await ok<number>('getblockheight', client.getBlockHeight())).toBe(height)

    const hash = await ok<string>('sendrawtransaction', client.sendRawTransaction(data))
    expect(hash).toBe(rev(Transaction.from(signed).hash!))
    expect(await ok<number>('getblockheight', client.getBlockHeight())).toBe(height + 1)
    expect(await balance(to)).toBe(toBefore + 10n ** 18n)
    expect(await balance(wallet.address)).toBe(fromBefore - 10n ** 18n - 21000n * GWEI)
    const event = await ok<EventRecord>('getsmartcodeeventbyhash', client.getSmartCodeEvent(hash))
    expect(event.Notify).toEqual(pre.Notify)
    expect(await ok<TxJson>('gettransaction', client.getRawTransactionJson(hash))).toMatchObject({ TxType: 211, Payer: devnet.accounts[2]!.base58, Height: height + 1 })
  })

  it('preExec of contract calls: return data as base64, a revert is State 0', async () => {
    const call = wrapEip155(await sign({ to: contract, data: id('count()').slice(0, 10), gasLimit: 100_000n, gasPrice: 0n }))
    const counted = await ok<PreExecResult>('sendrawtransaction', client.sendRawTransaction(call, true))
    expect(counted).toEqual({ State: 1, Gas: expect.any(Number), Result: Buffer.from(word(0n).slice(2), 'hex').toString('base64'), Notify: null })

    const increment = wrapEip155(await sign({ to: contract, data: id('increment()').slice(0, 10), gasLimit: 100_000n, gasPrice: 0n }))
    const pre = await ok<PreExecResult>('sendrawtransaction', client.sendRawTransaction(increment, true))
    expect(pre.State).toBe(1)
    expect(pre.Result).toBeNull()
    expect(pre.Notify).toEqual([notifyOf({ address: contract, topics: [id('Incremented(uint256)'), word(1n)], data: '0x' })])
    // Nothing was committed: the slot is still empty ("0x", as the node answers).
    expect(await rpc<string>('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe('0x')

    // Store has no fallback: an unknown selector reverts with empty data.
    const bad = wrapEip155(await sign({ to: contract, data: '0xdeadbeef', gasLimit: 100_000n, gasPrice: 0n }))
    expect(await ok<PreExecResult>('sendrawtransaction', client.sendRawTransaction(bad, true))).toMatchObject({ State: 0, Result: null, Notify: null })
  })
})

describe('ontology-ts-sdk RestClient mempool methods (automine off)', () => {
  let devnet: Devnet

  afterAll(async () => {
    await devnet?.close()
  })

  it('getMempoolTxCount / getMempoolTxState while pending, then after mining', async () => {
    devnet = await createDevnet({ automine: false })
    const client = new RestClient((await devnet.listen()).restUrl)
    const wallet = new Wallet(devnet.accounts[2]!.privateKey)
    const signed = await wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: 0,
      gasPrice: GWEI,
      gasLimit: 21000n,
      to: devnet.accounts[3]!.address,
      value: 1n,
    })
    const data = wrapEip155(signed)
    const hash = await ok<string>('sendrawtransaction', client.sendRawTransaction(data))
    expect(hash).toBe(rev(Transaction.from(signed).hash!))

    expect(await ok<number[]>('getmempooltxcount', client.getMempoolTxCount())).toEqual([1, 0])
    expect(await ok<unknown>('getmempooltxstate', client.getMempoolTxState(hash))).toEqual({
      State: [
        { Height: 0, Type: 0, ErrCode: 0 },
        { Height: 0, Type: 1, ErrCode: 0 },
      ],
      Raw: data,
    })
    // Pending: no event yet ("" with success), and not a ledger transaction (44001).
    expect(await ok<string>('getsmartcodeeventbyhash', client.getSmartCodeEvent(hash))).toBe('')
    expect(await envelope(client.getRawTransactionJson(hash))).toEqual({
      Action: 'gettransaction',
      Desc: 'UNKNOWN TRANSACTION',
      Error: 44001,
      Result: '',
      Version: '1.0.0',
    })

    await devnet.mine(1)
    expect(await envelope(client.getMempoolTxState(hash))).toEqual({
      Action: 'getmempooltxstate',
      Desc: 'UNKNOWN TRANSACTION',
      Error: 44001,
      Result: '',
      Version: '1.0.0',
    })
    expect(await ok<number[]>('getmempooltxcount', client.getMempoolTxCount())).toEqual([0, 0])
    expect(await ok<number>('getblockheightbytxhash', client.getBlockHeightByTxHash(hash))).toBe(1)
    expect(await ok<string>('gettransaction', client.getRawTransaction(hash))).toBe(data)
  })
})
