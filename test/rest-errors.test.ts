/**
 * Bad input on the REST interface, per kind of path parameter and for the POST body,
 * in-process and over HTTP: each answer is the envelope of the situation → code matrix
 * (reference §1.5, parameter rules §1.3) with `Result: ""`, HTTP 200, and afterwards
 * the chain is unchanged (height, a balance) and the next request is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet, keccak256 } from 'ethers'
import { createDevnet, type Devnet, type RestEnvelope } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { base58Check, rev, strip, varbytes } from './chainRules.ts'

const GWEI = 1_000_000_000n
const CHAIN_ID = 12345

const DESC: Record<number, string> = {
  0: 'SUCCESS',
  41003: 'ILLEGAL DATAFORMAT',
  42002: 'INVALID PARAMS',
  43001: 'INVALID TRANSACTION',
  44001: 'UNKNOWN TRANSACTION',
  44003: 'UNKNOWN BLOCK',
  45001: 'INTERNAL ERROR',
}

type Mode = 'in-process' | 'http'
interface Client {
  get(path: string): Promise<RestEnvelope>
  post(path: string, body: string): Promise<RestEnvelope>
}

async function clientOf(devnet: Devnet, mode: Mode): Promise<Client> {
  if (mode === 'in-process') return { get: (path) => devnet.rest.get(path), post: (path, body) => devnet.rest.post(path, body) }
  const { restUrl } = await devnet.listen()
  const read = async (res: Response) => {
    // The node answers every handled request with HTTP 200, the error in the envelope (§1.1).
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    return (await res.json()) as RestEnvelope
  }
  return {
    get: async (path) => read(await fetch(restUrl + path)),
    post: async (path, body) => read(await fetch(restUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
  }
}

/** A bad request: what to send and the envelope expected back. */
interface Case {
  name: string
  path: string
  action: string
  code: number
  /** A POST body; GET when absent. */
  body?: string
}

describe.each<Mode>(['in-process', 'http'])('REST bad input (%s)', (mode) => {
  let devnet: Devnet
  let rest: Client
  let height: number
  let balance: string
  let txHash: string
  let storeAddress: string
  const cases: Case[] = []
  const accounts = { a: '', b: '', aHex: '', aBase58: '', bBase58: '', rlp: '' }

  beforeAll(async () => {
    devnet = await createDevnet()
    rest = await clientOf(devnet, mode)
    const [A, B] = devnet.accounts as [Devnet['accounts'][number], Devnet['accounts'][number]]
    Object.assign(accounts, { a: A.address, b: B.address, aHex: rev(A.address), aBase58: A.base58, bBase58: B.base58 })
    const deploy = await devnet.rpc('eth_sendTransaction', [{ from: A.address, data: Store.bytecode, gasPrice: `0x${GWEI.toString(16)}` }])
    storeAddress = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
    txHash = rev(deploy)
    await devnet.mine(2)
    height = Number(await devnet.rpc('eth_blockNumber'))
    balance = await devnet.rpc('eth_getBalance', [A.address, 'latest'])
    // A valid signed transfer for B, never sent by the error cases.
    accounts.rlp = strip(await new Wallet(B.privateKey).signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, to: A.address, value: 1n, gasPrice: GWEI, gasLimit: 21_000n }))
  })
  afterAll(() => devnet.close())

  /** The chain is as before and the next request is served. */
  async function expectUnchanged(): Promise<void> {
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBe(height)
    expect(await devnet.rpc('eth_getBalance', [accounts.a, 'latest'])).toBe(balance)
    expect(await devnet.rpc('eth_getTransactionCount', [accounts.b, 'latest'])).toBe('0x0')
    expect(await rest.get('/api/v1/block/height')).toEqual({ Action: 'getblockheight', Desc: 'SUCCESS', Error: 0, Result: height, Version: '1.0.0' })
    expect(await rest.get('/api/v1/mempool/txcount')).toMatchObject({ Error: 0, Result: [0, 0] })
  }

  async function check(c: Case): Promise<void> {
    const envelope = c.body === undefined ? await rest.get(c.path) : await rest.post(c.path, c.body)
    expect(envelope, `${c.body === undefined ? 'GET' : 'POST'} ${c.path} ${c.body ?? ''}`).toEqual({
      Action: c.action,
      Desc: DESC[c.code],
      Error: c.code,
      Result: '',
      Version: '1.0.0',
    })
    expect(Object.keys(envelope)).toEqual(['Action', 'Desc', 'Error', 'Result', 'Version'])
    await expectUnchanged()
  }

  async function checkAll(list: Case[]): Promise<void> {
    cases.push(...list)
    for (const c of list) await check(c)
  }

  it('the chain of the fixture: a deployment and two empty blocks', () => {
    expect(height).toBe(3)
  })

  it('heights: unknown → 44003 for block details and hash, 42002 for block transactions; "" for events', async () => {
    for (const h of [height + 1, 999, 4_294_967_295]) {
      await checkAll([
        { name: 'details', path: `/api/v1/block/details/height/${h}`, action: 'getblockbyheight', code: 44003 },
        { name: 'details raw', path: `/api/v1/block/details/height/${h}?raw=1`, action: 'getblockbyheight', code: 44003 },
        { name: 'hash', path: `/api/v1/block/hash/${h}`, action: 'getblockhash', code: 44003 },
        { name: 'txs', path: `/api/v1/block/transactions/height/${h}`, action: 'getblocktxsbyheight', code: 42002 },
        // Events of a height beyond the tip: success with "" (§1.5 matrix).
        { name: 'events', path: `/api/v1/smartcode/event/transactions/${h}`, action: 'getsmartcodeeventbyheight', code: 0 },
      ])
    }
  })

  it('heights: non-numeric or beyond int64 → 42002', async () => {
    for (const h of ['abc', '1a', '0x1', '1_0', '_', '9223372036854775808', '99999999999999999999']) {
      await checkAll([
        { name: 'details', path: `/api/v1/block/details/height/${h}`, action: 'getblockbyheight', code: 42002 },
        { name: 'hash', path: `/api/v1/block/hash/${h}`, action: 'getblockhash', code: 42002 },
        { name: 'txs', path: `/api/v1/block/transactions/height/${h}`, action: 'getblocktxsbyheight', code: 42002 },
        { name: 'events', path: `/api/v1/smartcode/event/transactions/${h}`, action: 'getsmartcodeeventbyheight', code: 42002 },
      ])
    }
  })

  it('heights are ParseInt then truncated to uint32, as the node does: 2^32 is genesis', async () => {
    const genesis = (await rest.get('/api/v1/block/hash/0')).Result
    expect((await rest.get('/api/v1/block/hash/4294967296')).Result).toBe(genesis)
    expect((await rest.get('/api/v1/block/hash/00')).Result).toBe(genesis)
    await expectUnchanged()
  })

  const HASH_ROUTES: [string, string][] = [
    ['/api/v1/transaction/', 'gettransaction'],
    ['/api/v1/block/details/hash/', 'getblockbyhash'],
    ['/api/v1/block/height/txhash/', 'getblockheightbytxhash'],
    ['/api/v1/merkleproof/', 'getmerkleproof'],
    ['/api/v1/smartcode/event/txhash/', 'getsmartcodeeventbyhash'],
    ['/api/v1/mempool/txstate/', 'getmempooltxstate'],
  ]

  it('hashes: wrong length, 0x prefix, non-hex → 42002 on every hash route', async () => {
    const good = 'ab'.repeat(32)
    const malformed = [
      good.slice(2), // 31 bytes
      `${good}ab`, // 33 bytes
      good.slice(1), // odd length
      `0x${good}`, // 0x prefix (66 characters)
      `0x${good.slice(2)}`, // 0x prefix (64 characters)
      'zz'.repeat(32), // non-hex
      `${good.slice(2)}g0`,
    ]
    for (const hash of malformed) {
      await checkAll(HASH_ROUTES.map(([prefix, action]) => ({ name: prefix, path: prefix + hash, action, code: 42002 })))
    }
  })

  it('an unknown transaction: 44001 get_tx, 45001 height by tx hash, 42002 merkle proof, 0 with "" for events, 44001 mempool state', async () => {
    for (const hash of ['ab'.repeat(32), rev(txHash)]) {
      // The deployment's hash in the wrong byte order is unknown too (REST hashes are reversed, §1.7).
      await checkAll([
        { name: 'tx', path: `/api/v1/transaction/${hash}`, action: 'gettransaction', code: 44001 },
        { name: 'tx raw', path: `/api/v1/transaction/${hash}?raw=1`, action: 'gettransaction', code: 44001 },
        { name: 'height', path: `/api/v1/block/height/txhash/${hash}`, action: 'getblockheightbytxhash', code: 45001 },
        { name: 'proof', path: `/api/v1/merkleproof/${hash}`, action: 'getmerkleproof', code: 42002 },
        { name: 'events', path: `/api/v1/smartcode/event/txhash/${hash}`, action: 'getsmartcodeeventbyhash', code: 0 },
        { name: 'txstate', path: `/api/v1/mempool/txstate/${hash}`, action: 'getmempooltxstate', code: 44001 },
      ])
    }
    // An unknown block hash: 44003.
    await checkAll([{ name: 'block', path: `/api/v1/block/details/hash/${'cd'.repeat(32)}`, action: 'getblockbyhash', code: 44003 }])
    // The transaction itself is found (its REST form).
    expect(await rest.get(`/api/v1/transaction/${txHash}`)).toMatchObject({ Error: 0 })
    // A mined transaction is not in the pool: 44001 (§8).
    await checkAll([{ name: 'mined txstate', path: `/api/v1/mempool/txstate/${txHash}`, action: 'getmempooltxstate', code: 44001 }])
  })

  /** Base58 strings every address parser refuses (§3): checksum, version byte, payload length, alphabet. */
  function badBase58(): string[] {
    const address = Buffer.from(strip(accounts.a), 'hex')
    const good = accounts.aBase58
    const last = good[good.length - 1] === '1' ? '2' : '1'
    return [
      good.slice(0, -1) + last, // checksum
      base58Check(Buffer.concat([Buffer.of(0x18), address])), // version byte 0x18
      base58Check(Buffer.concat([Buffer.of(0x17), address.subarray(1)])), // 24-byte payload
      base58Check(Buffer.concat([Buffer.of(0x17), address, Buffer.of(0)])), // 26-byte payload
      `${good.slice(0, -1)}0`, // '0' is not in the alphabet
      'A',
      'z'.repeat(40), // 40 characters: read as hex, and not hex
    ]
  }

  it('Base58 addresses: bad checksum, version byte, length, alphabet → 42002 on every address route', async () => {
    const b = accounts.bBase58
    for (const bad of badBase58()) {
      await checkAll([
        { name: 'balance', path: `/api/v1/balance/${bad}`, action: 'getbalance', code: 42002 },
        { name: 'balancev2', path: `/api/v1/balancev2/${bad}`, action: 'getbalancev2', code: 42002 },
        { name: 'unboundgas', path: `/api/v1/unboundgas/${bad}`, action: 'getunboundgas', code: 42002 },
        { name: 'unboundong', path: `/api/v1/unboundong/${bad}`, action: 'getunboundong', code: 42002 },
        { name: 'grantgas', path: `/api/v1/grantgas/${bad}`, action: 'getgrantgas', code: 42002 },
        { name: 'grantong', path: `/api/v1/grantong/${bad}`, action: 'getgrantong', code: 42002 },
        { name: 'allowance from', path: `/api/v1/allowance/gas/${bad}/${b}`, action: 'getallowance', code: 42002 },
        { name: 'allowance to', path: `/api/v1/allowance/main/${b}/${bad}`, action: 'getallowance', code: 42002 },
        { name: 'allowancev2', path: `/api/v1/allowancev2/ont/${b}/${bad}`, action: 'getallowancev2', code: 42002 },
        { name: 'allowancev2 query', path: `/api/v1/allowancev2?asset=ong&from=${bad}&to=${b}`, action: 'getallowancev2', code: 42002 },
        { name: 'storage', path: `/api/v1/storage/${bad}/00`, action: 'getstorage', code: 42002 },
        { name: 'contract', path: `/api/v1/contract/${bad}`, action: 'getcontract', code: 42002 },
      ])
    }
  })

  it('balance routes take Base58 only: the reversed 40-hex form → 42002', async () => {
    await checkAll([
      { name: 'balance', path: `/api/v1/balance/${accounts.aHex}`, action: 'getbalance', code: 42002 },
      { name: 'balancev2', path: `/api/v1/balancev2/${accounts.aHex}`, action: 'getbalancev2', code: 42002 },
    ])
    // The same address in Base58 is fine.
    expect(await rest.get(`/api/v1/balance/${accounts.aBase58}`)).toMatchObject({ Error: 0 })
  })

  it('allowance: an asset other than main/gas/ont/ong, or a missing query value → 42002', async () => {
    const [a, b] = [accounts.aBase58, accounts.bBase58]
    for (const asset of ['btc', 'ontd', 'main2', '0']) {
      await checkAll([
        { name: 'allowance', path: `/api/v1/allowance/${asset}/${a}/${b}`, action: 'getallowance', code: 42002 },
        { name: 'allowancev2', path: `/api/v1/allowancev2/${asset}/${a}/${b}`, action: 'getallowancev2', code: 42002 },
        { name: 'allowancev2 query', path: `/api/v1/allowancev2?asset=${asset}&from=${a}&to=${b}`, action: 'getallowancev2', code: 42002 },
      ])
    }
    await checkAll([
      { name: 'no asset', path: `/api/v1/allowancev2?from=${a}&to=${b}`, action: 'getallowancev2', code: 42002 },
      { name: 'no from', path: `/api/v1/allowancev2?asset=gas&to=${b}`, action: 'getallowancev2', code: 42002 },
      { name: 'no to', path: `/api/v1/allowancev2?asset=gas&from=${a}`, action: 'getallowancev2', code: 42002 },
      { name: 'nothing', path: '/api/v1/allowancev2', action: 'getallowancev2', code: 42002 },
    ])
  })

  it('get_contract_state: an unknown address → 45001 (not 44004), an EVM contract too', async () => {
    await checkAll([
      { name: 'random hex', path: `/api/v1/contract/${'ab'.repeat(20)}`, action: 'getcontract', code: 45001 },
      { name: 'random base58', path: `/api/v1/contract/${base58Check(Buffer.concat([Buffer.of(0x17), Buffer.alloc(20, 0xcd)]))}`, action: 'getcontract', code: 45001 },
      { name: 'zero', path: `/api/v1/contract/${'00'.repeat(20)}`, action: 'getcontract', code: 45001 },
      { name: 'account', path: `/api/v1/contract/${accounts.aBase58}`, action: 'getcontract', code: 45001 },
      { name: 'evm contract', path: `/api/v1/contract/${rev(storeAddress)}`, action: 'getcontract', code: 45001 },
    ])
  })

  it('get_storage: a key that is not hex → 42002; a bad contract → 42002; a missing slot is 0 with ""', async () => {
    const contract = rev(storeAddress)
    for (const key of ['zz', '0', '000', 'g0', '0x00']) {
      await checkAll([{ name: 'key', path: `/api/v1/storage/${contract}/${key}`, action: 'getstorage', code: 42002 }])
    }
    await checkAll([
      { name: 'contract not hex', path: `/api/v1/storage/${'zz'.repeat(20)}/00`, action: 'getstorage', code: 42002 },
      { name: 'missing slot', path: `/api/v1/storage/${contract}/${'07'.repeat(32)}`, action: 'getstorage', code: 0 },
    ])
  })

  it('post_raw_tx: a body that is not a JSON object → 41003 (Action still sendrawtransaction)', async () => {
    for (const body of ['not json', '', '{"Data":', '[1,2]', '42', '"00d3"']) {
      for (const path of ['/api/v1/transaction', '/api/v1/transaction?preExec=1']) {
        await checkAll([{ name: 'body', path, action: 'sendrawtransaction', code: 41003, body }])
      }
    }
  })

  it('post_raw_tx: no Data, or Data that is not hex → 42002', async () => {
    const bodies = [
      {},
      { Action: 'sendrawtransaction', Version: '1.0.0' },
      { Data: 12 },
      { Data: null },
      { Data: ['00d3'] },
      { Data: 'zz' },
      { Data: '0' },
      { Data: `0x00d3${varbytes(accounts.rlp)}` },
      { data: `00d3${varbytes(accounts.rlp)}` },
    ]
    for (const body of bodies) {
      for (const path of ['/api/v1/transaction', '/api/v1/transaction?preExec=1']) {
        await checkAll([{ name: 'data', path, action: 'sendrawtransaction', code: 42002, body: JSON.stringify(body) }])
      }
    }
  })

  it('post_raw_tx: an undecodable transaction → 43001 with Result ""', async () => {
    const rlp = accounts.rlp
    const wrongChain = strip(await new Wallet(devnet.accounts[1]!.privateKey).signTransaction({ type: 0, chainId: 1, nonce: 0, to: accounts.a, value: 1n, gasPrice: GWEI, gasLimit: 21_000n }))
    const notGwei = strip(await new Wallet(devnet.accounts[1]!.privateKey).signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, to: accounts.a, value: 1n, gasPrice: GWEI + 1n, gasLimit: 21_000n }))
    const data = [
      '', // no bytes at all
      '00', // version only
      `01d3${varbytes(rlp)}`, // version 1
      `00d3${varbytes(rlp).slice(0, -2)}`, // truncated
      '00d3', // no payload
      `00d3fd${(rlp.length / 2).toString(16).padStart(2, '0')}00${rlp}`, // non-minimal var-int
      `0005${varbytes(rlp)}`, // unknown transaction type
      `00ff${varbytes(rlp)}`,
      `00d3${varbytes('c0')}`, // RLP of an empty list
      `00d3${varbytes('ff')}`, // not RLP
      `00d3${varbytes(wrongChain)}`, // chain id 1 (the node checks it while decoding)
      `00d3${varbytes(notGwei)}`, // gas price not a whole gwei
    ]
    for (const hex of data) {
      for (const path of ['/api/v1/transaction', '/api/v1/transaction?preExec=1']) {
        await checkAll([{ name: 'tx', path, action: 'sendrawtransaction', code: 43001, body: JSON.stringify({ Action: 'sendrawtransaction', Version: '1.0.0', Data: hex }) }])
      }
    }
    // The well-formed transaction is accepted afterwards, with bytes after it ignored (§1.5).
    const answer = await rest.post('/api/v1/transaction', JSON.stringify({ Data: `00d3${varbytes(rlp)}abcd` }))
    expect(answer).toEqual({ Action: 'sendrawtransaction', Desc: 'SUCCESS', Error: 0, Result: rev(keccak256(`0x${rlp}`)), Version: '1.0.0' })
    height += 1
    balance = await devnet.rpc('eth_getBalance', [accounts.a, 'latest'])
    expect(await devnet.rpc('eth_getTransactionCount', [accounts.b, 'latest'])).toBe('0x1')
  })

  it('covers every kind of bad input', () => {
    expect(cases.length).toBeGreaterThan(150)
  })
})
