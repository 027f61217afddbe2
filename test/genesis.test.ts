/**
 * Genesis as a solo node builds it (reference §5.5, §1.4.2, §1.4.5, §1.4.6, §1.4.9;
 * core/genesis/genesis.go): block 0 holds the ten native transactions in the node's
 * order (six deploys, four `init` invokes, zero payer, GasLimit 0 / 2^64-1), then the
 * devnet's funding transfers from the bookkeeper; their execution records are the
 * node's genesis events; `get_contract_state` answers for the six native contracts;
 * the transactions are served by every REST route (JSON, raw, events, height, merkle
 * proof) and read by ontology-ts-sdk; supplies are conserved; hashes reproducible;
 * the EVM view keeps skipping native transactions.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { p256 } from '@noble/curves/nist.js'
import type * as OntologySdk from 'ontology-ts-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, verifyMerkleProof, type Devnet, type MerkleProof } from '../src/index.ts'
import { executeNativeTransaction } from '../src/chain/nativeExecution.ts'
import { decodeNativeTransaction, prepareNativeTransaction } from '../src/chain/nativeIntake.ts'
import type { NativeChainTransaction } from '../src/chain/transaction.ts'
import { fromBase58 } from '../src/native/address.ts'
import { MAINNET_VBFT } from '../src/native/genesisTransactions.ts'
import { encodeNativeTransaction, nativeTransactionHash } from '../src/native/transaction.ts'
import { WorldState } from '../src/state/worldState.ts'
import { rev, sha256d, transactionsRoot } from './chainRules.ts'
import { chainOf } from '../src/devnet/provider.ts'

const { RestClient, Transaction } = createRequire(import.meta.url)('ontology-ts-sdk') as typeof OntologySdk

type Json = Record<string, unknown>

const GENESIS_TIME = 1_700_000_000
const ZERO_BASE58 = 'AFmseVrdL9f9oyCzZefL9tG6UbvhPbdYzM'
const MAIN_BASE58 = 'AFmseVrdL9f9oyCzZefL9tG6UbvhUMqNMV'
const GAS_BASE58 = 'AFmseVrdL9f9oyCzZefL9tG6UbvhfRZMHJ'
const MAX_U64 = '18446744073709551615'
/** Native contract ids in deploy order, with the node's Name and Description (genesis.go). */
const DEPLOYS: [id: number, name: string, description: string][] = [
  [1, 'ONT', 'Ontology Network ONT Token'],
  [2, 'ONG', 'Ontology Network ONG Token'],
  [4, 'ParamConfig', 'Chain Global Environment Variables Manager '],
  [3, 'OID', 'Ontology Network ONT ID'],
  [6, 'AuthContract', 'Ontology Network Authorization Contract'],
  [7, 'CONFIG', 'Ontology Network Consensus Config'],
]
const nativeHex = (id: number) => `${'00'.repeat(19)}${id.toString(16).padStart(2, '0')}`
/** REST hex (reversed) of a native contract address. */
const nativeRest = (id: number) => rev(nativeHex(id))
const hash160 = (hex: string) =>
  createHash('ripemd160')
    .update(createHash('sha256').update(Buffer.from(hex, 'hex')).digest())
    .digest('hex')
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const ascii = (s: string) => Buffer.from(s).toString('hex')
/** NeoVM push of `data` as the node's ParamsBuilder emits it (vm/neovm/params_builder.go). */
const push = (data: string) => {
  const n = data.length / 2
  if (n < 75) return n.toString(16).padStart(2, '0') + data
  if (n < 0x100) return `4c${n.toString(16).padStart(2, '0')}${data}`
  return `4d${Buffer.from([n & 0xff, n >> 8]).toString('hex')}${data}`
}
/** The node's native-call script: args, method, contract, PUSH0, SYSCALL "Ontology.Native.Invoke". */
const nativeCall = (id: number, method: string, args: string) => push(args) + push(ascii(method)) + push(nativeHex(id)) + '0068' + push(ascii('Ontology.Native.Invoke'))

async function ok(promise: Promise<{ Error: number; Result: unknown }>): Promise<any> {
  const envelope = await promise
  expect(envelope.Error).toBe(0)
  return envelope.Result
}

describe('genesis as a solo node builds it', () => {
  let devnet: Devnet
  let block: { Hash: string; Header: Json; Transactions: Json[] }
  let bookkeeper: { base58: string; hex: string; publicKey: string }

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: GENESIS_TIME })
    block = await ok(devnet.rest.get('/api/v1/block/details/height/0'))
    const bk = chainOf(devnet).bookkeeper
    bookkeeper = { base58: block.Header.NextBookkeeper as string, hex: hex(bk.address), publicKey: hex(bk.publicKey) }
  })
  afterAll(() => devnet.close())

  it('block 0: six deploys, four inits, then the funding transfers; header as the node writes it', async () => {
    expect(block.Transactions).toHaveLength(12)
    expect(block.Header).toMatchObject({
      Version: 0,
      PrevBlockHash: '00'.repeat(32),
      BlockRoot: '00'.repeat(32),
      Timestamp: GENESIS_TIME,
      Height: 0,
      ConsensusData: 2083236893,
      ConsensusPayload: '',
      Bookkeepers: [],
      SigData: [],
    })
    const hashes = block.Transactions.map((t) => Buffer.from(rev(t.Hash as string), 'hex'))
    expect(block.Header.TransactionsRoot).toBe(rev(transactionsRoot(hashes).toString('hex')))
    expect(block.Transactions.map((t) => [t.TxType, t.Payer, t.Nonce, t.GasPrice, t.GasLimit, t.Height])).toEqual([
      ...DEPLOYS.map(() => [208, ZERO_BASE58, 0, 0, 0, 0]),
      // GasLimit 2^64-1 is beyond JS numbers: the JSON text carries the exact digits (checked below).
      ...[0, 1, 2, 3].map(() => [209, ZERO_BASE58, 0, 0, 18446744073709552000, 0]),
      [209, bookkeeper.base58, 0, 0, 20000, 0],
      [209, bookkeeper.base58, 0, 0, 20000, 0],
    ])
    const text = JSON.stringify(block)
    expect(text).not.toContain(MAX_U64) // parsed JSON lost the digits; the wire has them:
    const wire = await fetchText(devnet, '/api/v1/block/details/height/0')
    expect(wire.match(new RegExp(`"GasLimit":${MAX_U64},`, 'g'))).toHaveLength(4)
  })

  it("the deploys: Code = the 20 raw address bytes, VmType 1, the node's names; no signatures", () => {
    DEPLOYS.forEach(([id, name, description], i) => {
      expect(block.Transactions[i]).toEqual({
        Version: 0,
        Nonce: 0,
        GasPrice: 0,
        GasLimit: 0,
        Payer: ZERO_BASE58,
        TxType: 208,
        Payload: { Code: nativeHex(id), VmType: 1, Name: name, CodeVersion: '1.0', Author: 'Ontology Team', Email: 'contact@ont.io', Description: description },
        Attributes: [],
        Sigs: [],
        Hash: block.Transactions[i]!.Hash,
        Height: 0,
      })
    })
  })

  it("the init invokes: the node's native-call scripts (main supply to the bookkeeper, gas, params, VBFT config)", () => {
    const script = (i: number) => (block.Transactions[6 + i]!.Payload as { Code: string }).Code
    // main init: one distribution entry, 1e9 (v1) to the bookkeeper (EncodeVarUint = varbytes of NeoBytes).
    expect(script(0)).toBe(nativeCall(1, 'init', `0101` + `14${bookkeeper.hex}` + `0400ca9a3b`))
    expect(script(1)).toBe(nativeCall(2, 'init', ''))
    // params init: 20 sorted key/value strings, then the bookkeeper as admin.
    const paramsScript = Buffer.from(script(2), 'hex')
    expect(paramsScript[0]).toBe(0x4d)
    const args = paramsScript.subarray(3, 3 + paramsScript.readUInt16LE(1)).toString('hex')
    expect(script(2)).toBe(nativeCall(4, 'init', args))
    expect(args.slice(0, 4)).toBe('0114')
    expect(args.endsWith(`14${bookkeeper.hex}`)).toBe(true)
    const bytes = Buffer.from(args, 'hex')
    let at = 2
    const next = () => bytes.subarray(at + 1, (at += 1 + bytes[at]!)).toString()
    const params = Object.fromEntries(Array.from({ length: 20 }, () => [next(), next()]))
    expect(at).toBe(bytes.length - 21)
    expect(Object.keys(params)).toEqual(Object.keys(params).sort())
    expect(params).toEqual({
      APPCALL: '10',
      'Deploy.Code.Gas': '200000',
      HASH160: '20',
      HASH256: '20',
      'Invoke.Code.Gas': '20000',
      'Ontology.Contract.Create': '20000000',
      'Ontology.Contract.Migrate': '20000000',
      'Ontology.Native.Invoke': '1000',
      SHA1: '10',
      SHA256: '10',
      'System.Blockchain.GetBlock': '200',
      'System.Blockchain.GetContract': '100',
      'System.Blockchain.GetHeader': '100',
      'System.Blockchain.GetTransaction': '100',
      'System.Runtime.CheckWitness': '200',
      'System.Storage.Delete': '100',
      'System.Storage.Get': '200',
      'System.Storage.Put': '4000',
      TAILCALL: '10',
      gasPrice: '0',
    })
    // governance initConfig: the mainnet VBFT configuration (N 7, C 2, K 7, L 112, …, 7 peers).
    const config = Buffer.from(script(3), 'hex')
    const vbft = config.subarray(3, 3 + config.readUInt16LE(1))
    expect(script(3)).toBe(nativeCall(7, 'initConfig', vbft.toString('hex')))
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => vbft.readUInt32LE(i * 4))).toEqual([7, 2, 7, 112, 10000, 10000, 10, 120000, 100000])
    for (const [publicKey, base58, raw] of MAINNET_VBFT.peers) {
      expect(hex(fromBase58(base58))).toBe(raw)
      expect(vbft.includes(Buffer.from(ascii(publicKey) + raw, 'hex'))).toBe(true)
    }
  })

  it('the funding transfers: transferV2 from the bookkeeper, signed by its P-256 key as the SDK signs', async () => {
    for (const tx of block.Transactions.slice(10)) {
      const sigs = tx.Sigs as { PubKeys: string[]; M: number; SigData: string[] }[]
      expect(sigs).toHaveLength(1)
      expect(sigs[0]!.PubKeys).toEqual([bookkeeper.publicKey])
      expect(sigs[0]!.M).toBe(1)
      const sig = sigs[0]!.SigData[0]!
      expect(sig).toMatch(/^01[0-9a-f]{128}$/)
      const digest = createHash('sha256')
        .update(Buffer.from(rev(tx.Hash as string), 'hex'))
        .digest()
      expect(p256.verify(Buffer.from(sig.slice(2), 'hex'), digest, Buffer.from(bookkeeper.publicKey, 'hex'), { prehash: false })).toBe(true)
    }
    // The pool's own intake accepts them (signatures checked) and decodes the calls.
    for (const tx of chainOf(devnet).blockAt(0)!.transactions.slice(10)) {
      const { tx: decoded, length } = decodeNativeTransaction(tx.raw)
      expect(length).toBe(tx.raw.length)
      const prepared = prepareNativeTransaction(decoded, tx.raw, 0n)
      expect(prepared.signers.map(hex)).toEqual([bookkeeper.hex])
      expect(prepared.call).toMatchObject({ method: 'transfer', v2: true })
    }
  })

  it('raw forms: every transaction decodes and re-encodes to itself; its hash is SHA256d of the unsigned part', async () => {
    for (const tx of block.Transactions) {
      const raw: string = await ok(devnet.rest.get(`/api/v1/transaction/${tx.Hash}?raw=1`))
      const { tx: decoded, length } = decodeNativeTransaction(Buffer.from(raw, 'hex'))
      expect(length * 2).toBe(raw.length)
      expect(hex(encodeNativeTransaction(decoded))).toBe(raw)
      expect(rev(hex(nativeTransactionHash(decoded)))).toBe(tx.Hash)
      expect(await ok(devnet.rest.get(`/api/v1/transaction/${tx.Hash}`))).toEqual(tx)
      expect(await ok(devnet.rest.get(`/api/v1/block/height/txhash/${tx.Hash}`))).toBe(0)
    }
    // The deploys are the same bytes on every devnet: only the init arguments name the bookkeeper.
    const deploy = (await ok(devnet.rest.get(`/api/v1/transaction/${block.Transactions[0]!.Hash}?raw=1`))) as string
    expect(deploy.slice(0, 4 + 8 + 16 + 16 + 40)).toBe(`00d0${'00'.repeat(4)}${'00'.repeat(8)}${'00'.repeat(8)}${'00'.repeat(20)}`)
    expect(rev(sha256d(Buffer.from(deploy.slice(0, -2), 'hex')).toString('hex'))).toBe(block.Transactions[0]!.Hash)
  })

  it("events: the node's genesis records, then the funding notifies", async () => {
    const records: Json[] = await ok(devnet.rest.get('/api/v1/smartcode/event/transactions/0'))
    expect(records).toHaveLength(12)
    for (const [i, r] of records.entries()) expect(r).toMatchObject({ TxHash: block.Transactions[i]!.Hash, State: 1, GasConsumed: 0, GasStepUsed: 0, TxIndex: i })
    for (const [i, [id]] of DEPLOYS.entries()) expect(records[i]).toMatchObject({ Notify: null, CreatedContract: rev(hash160(nativeHex(id))) })
    expect(records[6]!.Notify).toEqual([{ ContractAddress: nativeRest(1), States: ['transfer', ZERO_BASE58, bookkeeper.base58, 1000000000], IsEvm: false }])
    expect(records[7]!.Notify).toEqual([{ ContractAddress: nativeRest(2), States: ['transfer', ZERO_BASE58, MAIN_BASE58, 1000000000000000000], IsEvm: false }])
    expect(await fetchText(devnet, `/api/v1/smartcode/event/txhash/${block.Transactions[7]!.Hash}`)).toContain(`"${MAIN_BASE58}",1000000000000000000]`)
    for (const i of [8, 9]) expect(records[i]).toMatchObject({ Notify: null, CreatedContract: '00'.repeat(20) })
    const funded = [...devnet.accounts.map((a) => a.base58), ...devnet.nativeAccounts.map((a) => a.base58)]
    // 10,000 main (v1 whole tokens) and 10,000 gas (v1 1e-9 units) to each dev account.
    expect(records[10]!.Notify).toEqual(funded.map((to) => ({ ContractAddress: nativeRest(1), States: ['transfer', bookkeeper.base58, to, 10000], IsEvm: false })))
    expect(records[11]!.Notify).toEqual(funded.map((to) => ({ ContractAddress: nativeRest(2), States: ['transfer', bookkeeper.base58, to, 10_000_000_000_000], IsEvm: false })))
  })

  it('supplies are conserved: the bookkeeper holds what the transfers left it', async () => {
    let main = 0n
    let gas = 0n
    const holders = [bookkeeper.base58, ...devnet.accounts.map((a) => a.base58), ...devnet.nativeAccounts.map((a) => a.base58), MAIN_BASE58, GAS_BASE58]
    for (const holder of holders) {
      const b = (await ok(devnet.rest.get(`/api/v1/balancev2/${holder}`))) as { main: string; gas: string }
      main += BigInt(b.main)
      gas += BigInt(b.gas)
    }
    expect(main).toBe(10n ** 18n)
    expect(gas).toBe(10n ** 27n)
    expect(await ok(devnet.rest.get(`/api/v1/balance/${bookkeeper.base58}`))).toEqual({ main: String(10n ** 9n - 15n * 10_000n), gas: String(10n ** 18n - 15n * 10n ** 13n), height: '0' })
  })

  it('the records are what executing the funding transfers gives (state and notifies)', () => {
    const world = new WorldState()
    const bk = chainOf(devnet).bookkeeper.address
    world.setAccount(hex(bk), { nonce: 0n, main: 10n ** 18n, gas: 10n ** 27n, codeHash: undefined }, 0)
    const genesis = chainOf(devnet).blockAt(0)!
    genesis.transactions.slice(10).forEach((tx, i) => {
      const outcome = executeNativeTransaction(world, tx as NativeChainTransaction, 0, { timestamp: GENESIS_TIME, unbound: undefined })
      expect(outcome.state).toBe(1)
      expect(outcome.fee).toBe(0n)
      expect(outcome.notify).toEqual(genesis.records[10 + i]!.notify)
    })
    for (const address of [bk, ...devnet.accounts.map((a) => Buffer.from(a.address.slice(2), 'hex'))]) {
      const { main, gas } = world.getAccount(hex(address), 0)
      expect({ main, gas }).toEqual({ main: chainOf(devnet).account(address, 0).main, gas: chainOf(devnet).account(address, 0).gas })
    }
  })

  it('get_contract_state: the six native contracts by address (REST hex or Base58) and by their stored key; JSON and raw', async () => {
    for (const [id, name, description] of DEPLOYS) {
      const expected = { Code: nativeHex(id), VmType: 1, Name: name, CodeVersion: '1.0', Author: 'Ontology Team', Email: 'contact@ont.io', Description: description }
      expect(await ok(devnet.rest.get(`/api/v1/contract/${nativeRest(id)}`))).toEqual(expected)
      expect(await ok(devnet.rest.get(`/api/v1/contract/${rev(hash160(nativeHex(id)))}`))).toEqual(expected)
      const text = (s: string) => Buffer.from(s).length.toString(16).padStart(2, '0') + ascii(s)
      expect(await ok(devnet.rest.get(`/api/v1/contract/${nativeRest(id)}?raw=1`))).toBe(`14${nativeHex(id)}01${[name, '1.0', 'Ontology Team', 'contact@ont.io', description].map(text).join('')}`)
    }
    expect(await ok(devnet.rest.get(`/api/v1/contract/${MAIN_BASE58}`))).toMatchObject({ Name: 'ONT' })
    // Unknown contracts (an EVM dev account, the native ids nothing deployed at) are 45001, as on the node.
    for (const unknown of [rev(devnet.accounts[0]!.address), nativeRest(5), nativeRest(8)]) {
      expect(await devnet.rest.get(`/api/v1/contract/${unknown}`)).toMatchObject({ Error: 45001, Desc: 'INTERNAL ERROR', Result: '' })
    }
  })

  it('get_gasprice on a fresh node: {gasprice: 0, height: 0}; merkle proofs of genesis transactions verify from block 1 on', async () => {
    expect(await ok(devnet.rest.get('/api/v1/gasprice'))).toEqual({ gasprice: 0, height: 0 })
    const snapshot = await devnet.snapshot()
    await devnet.mine()
    const proof = (await ok(devnet.rest.get(`/api/v1/merkleproof/${block.Transactions[3]!.Hash}`))) as MerkleProof
    expect(proof).toMatchObject({ TransactionsRoot: block.Header.TransactionsRoot, BlockHeight: 0, CurBlockHeight: 1, TargetHashes: ['00'.repeat(32)] })
    expect(verifyMerkleProof(proof)).toBe(true)
    await devnet.revert(snapshot)
  })

  it('the EVM view skips native transactions, as on the node', async () => {
    const eth = (await devnet.rpc('eth_getBlockByNumber', ['0x0', false]))!
    expect(eth.transactions).toEqual([])
    expect(eth.gasUsed).toBe('0x0')
    expect(eth.hash).toBe(`0x${rev(block.Hash)}`)
    expect(eth.transactionsRoot).toBe(`0x${rev(block.Header.TransactionsRoot as string)}`)
    // The transaction count counts every transaction, native ones included (reference §6.2).
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x0'])).toBe('0xc')
    await expect(devnet.rpc('eth_getTransactionByHash', [`0x${rev(block.Transactions[6]!.Hash as string)}`])).rejects.toMatchObject({ code: -32000 })
  })
})

describe('genesis hashes', () => {
  it('are reproducible with a fixed clock, and depend on the bookkeeper key and the allocations', async () => {
    const make = (options: object = {}) => createDevnet({ clock: 'frozen', genesisTimestamp: GENESIS_TIME, ...options })
    const [a, b, c, d] = await Promise.all([make(), make(), make({ bookkeeperKey: `0x${'11'.repeat(32)}` }), make({ accounts: 2 })])
    try {
      const hash = async (n: Devnet, h = 0) => ((await ok(n.rest.get(`/api/v1/block/details/height/${h}`))) as { Hash: string }).Hash
      const raw = async (n: Devnet) => (await ok(n.rest.get('/api/v1/block/details/height/0?raw=1'))) as string
      expect(await hash(a)).toBe(await hash(b))
      expect(await raw(a)).toBe(await raw(b))
      expect(await hash(c)).not.toBe(await hash(a))
      expect(await hash(d)).not.toBe(await hash(a))
      for (const n of [a, b]) await n.rpc('eth_sendTransaction', [{ from: n.accounts[0]!.address, to: n.accounts[1]!.address, value: '0x1' }])
      expect(await hash(a, 1)).toBe(await hash(b, 1))
      // The system transactions (nonce 0, no signatures) differ only where they name the bookkeeper.
      const txs = async (n: Devnet) => ((await ok(n.rest.get('/api/v1/block/transactions/height/0'))) as { Transactions: string[] }).Transactions
      const [ta, tc] = [await txs(a), await txs(c)]
      expect(ta.slice(0, 6)).toEqual(tc.slice(0, 6))
      expect([ta[6] === tc[6], ta[7] === tc[7], ta[8] === tc[8], ta[9] === tc[9]]).toEqual([false, true, false, true])
    } finally {
      await Promise.all([a, b, c, d].map((n) => n.close()))
    }
  })

  it('with unbound-gas accrual the unallocated gas moves to the main-token contract in block 0', async () => {
    const devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, unboundGas: {}, clock: 'frozen', genesisTimestamp: GENESIS_TIME })
    try {
      const records: Json[] = await ok(devnet.rest.get('/api/v1/smartcode/event/transactions/0'))
      const bk = ((await ok(devnet.rest.get('/api/v1/block/details/height/0'))) as { Header: Json }).Header.NextBookkeeper as string
      expect(records[11]!.Notify).toEqual(
        [
          { ContractAddress: nativeRest(2), States: ['transfer', bk, devnet.accounts[0]!.base58, 10_000_000_000_000], IsEvm: false },
          { ContractAddress: nativeRest(2), States: ['transfer', bk, MAIN_BASE58, 10n ** 18n - 10n ** 13n], IsEvm: false },
        ].map((n) => ({ ...n, States: n.States.map((s) => (typeof s === 'bigint' ? Number(s) : s)) })),
      )
      expect(await ok(devnet.rest.get(`/api/v1/balancev2/${bk}`))).toMatchObject({ gas: '0' })
      expect(await ok(devnet.rest.get(`/api/v1/balancev2/${MAIN_BASE58}`))).toMatchObject({ gas: String(10n ** 27n - 10n ** 22n) })
    } finally {
      await devnet.close()
    }
  })

  it('a token nobody is allocated has no funding transfer; no accounts at all leave the ten system transactions', async () => {
    const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
    const gasOnly = await createDevnet({ accounts: [{ privateKey: key, main: 0n, gas: 5n }], nativeAccounts: 0 })
    const none = await createDevnet({ accounts: [], nativeAccounts: 0 })
    try {
      const records: Json[] = await ok(gasOnly.rest.get('/api/v1/smartcode/event/transactions/0'))
      expect(records).toHaveLength(11)
      // 5 wei: v1 0 and the fraction 5 (reference §1.4.6).
      expect(records[10]!.Notify).toEqual([
        { ContractAddress: nativeRest(2), States: ['transfer', (await ok(gasOnly.rest.get('/api/v1/block/details/height/0'))).Header.NextBookkeeper, gasOnly.accounts[0]!.base58, 0, 5], IsEvm: false },
      ])
      expect(BigInt(await gasOnly.rpc('eth_getBalance', [gasOnly.accounts[0]!.address, 'latest']))).toBe(5n)
      const block = (await ok(none.rest.get('/api/v1/block/details/height/0'))) as { Transactions: Json[] }
      expect(block.Transactions).toHaveLength(10)
    } finally {
      await Promise.all([gasOnly.close(), none.close()])
    }
  })
})

describe('ontology-ts-sdk RestClient reads the genesis block', () => {
  let devnet: Devnet
  let client: InstanceType<typeof RestClient>

  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 2, nativeAccounts: 1 })
    client = new RestClient((await devnet.listen()).restUrl!)
  })
  afterAll(() => devnet.close())

  it('getBlockJson(0), getRawTransaction (Transaction.deserialize), getContractJson, getSmartCodeEvent(0), getGasPrice', async () => {
    const block = (await client.getBlockJson(0)).Result as { Hash: string; Transactions: Json[] }
    expect(block.Transactions).toHaveLength(12)
    expect(((await client.getBlockJson(block.Hash)).Result as { Hash: string }).Hash).toBe(block.Hash)
    for (const tx of block.Transactions) {
      const raw = (await client.getRawTransaction(tx.Hash as string)).Result as string
      const parsed = Transaction.deserialize(raw)
      // The SDK's getHash is the raw byte order; REST writes it reversed (§1.7).
      expect(rev(parsed.getHash())).toBe(tx.Hash)
      expect(parsed.type).toBe(tx.TxType)
      expect(((await client.getRawTransactionJson(tx.Hash as string)).Result as Json).Hash).toBe(tx.Hash)
    }
    expect((await client.getContractJson(nativeRest(2))).Result).toMatchObject({ Name: 'ONG', Description: 'Ontology Network ONG Token' })
    expect(((await client.getSmartCodeEvent(0)).Result as unknown[]).length).toBe(12)
    expect(await client.getGasPrice()).toMatchObject({ Error: 0, Result: { gasprice: 0, height: 0 } })
    expect((await client.getBlockHeightByTxHash(block.Transactions[0]!.Hash as string)).Result).toBe(0)
  })
})

/** The REST body as sent on the wire (exact digits of u64 fields), through the HTTP server. */
async function fetchText(devnet: Devnet, path: string): Promise<string> {
  const { restUrl } = await devnet.listen()
  return (await fetch(`${restUrl}${path}`)).text()
}
