/**
 * History before the fork in the REST view (docs/fork.md "History before the fork",
 * "The native header chain"): a fork with the remote's REST URL answers every REST
 * block, transaction, event and merkle route at or below the fork block as the remote
 * does, byte for byte over HTTP; the fork block's native header is the remote's; local
 * blocks continue the remote's header chain and its BlockRoot tree, so that the same
 * transactions mined on the remote and on the fork give the same BlockRoots and the
 * same merkle proofs; what the remote did after the fork is not the fork's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { blockHash } from '../src/native/blockHeader.ts'
import { headerFromRest } from '../src/fork/blockTree.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { verifyMerkleProof, type MerkleProof } from '../src/rest/merkleProof.ts'
import { parseLosslessJson } from '../src/util/losslessJson.ts'
import { FaultProxy, STRANGER } from './fork-support.ts'
import { historyPaths, rawRest, restForm, restEnvelope, restHistoryRemote, type RestHistoryRemote } from './fork-rest-support.ts'
import { nativeTransfer, sendNative } from './persistence-support.ts'
import { GWEI } from './support.ts'

let r: RestHistoryRemote
let fork: Devnet
let forkRest: string
/** REST-form block hashes of the remote, by height. */
const blockHashes: string[] = []

beforeAll(async () => {
  r = await restHistoryRemote()
  for (let n = 0; n <= r.head; n++) blockHashes.push((await restEnvelope<string>(r.restUrl, `/api/v1/block/hash/${n}`)).Result)
  fork = await createDevnet({ fork: { url: r.url, restUrl: r.restUrl, cache: false }, console: false })
  forkRest = (await fork.listen()).restUrl!
}, 120_000)

afterAll(async () => {
  await fork?.close()
  await r?.remote.close()
})

type Header = { Height: number; PrevBlockHash: string; BlockRoot: string; TransactionsRoot: string; Hash: string }

describe('REST history at and below the fork block', () => {
  it('answers every block, transaction, event and merkle route as the remote does, byte for byte', async () => {
    expect(r.head).toBe(9)
    // Blocks 7 to 9 are empty: the frontier came from block 6's proof and the headers above it.
    expect([r.restTxs[6]!.length, r.restTxs[7]!.length, r.restTxs[9]!.length, r.restTxs[5]!.length]).toEqual([1, 0, 0, 3])
    for (const path of historyPaths(r, blockHashes)) expect(await rawRest(forkRest, path), path).toBe(await rawRest(r.restUrl, path))
  })

  it('holds the fork block with the remote’s whole native header', async () => {
    const block = (await restEnvelope<{ Hash: string; Header: Record<string, unknown> }>(r.restUrl, `/api/v1/block/details/height/${r.head}`)).Result
    // The JSON carries ConsensusData beyond 2^53: read it exactly, as the fork did.
    const exact = parseLosslessJson(await rawRest(r.restUrl, `/api/v1/block/details/height/${r.head}`)) as { Result: { Header: Record<string, unknown> } }
    const { header } = headerFromRest(exact.Result.Header)
    expect(typeof exact.Result.Header.ConsensusData).toBe('bigint')
    expect(restForm(`0x${Buffer.from(blockHash(header)).toString('hex')}`)).toBe(block.Hash)
    expect(await fork.rest.get('/api/v1/block/height')).toMatchObject({ Result: r.head })
  })
})

describe('local blocks after the fork', () => {
  /** Sends the same raw EVM transaction to the remote and the fork (each mines it at once). */
  async function evmToBoth(value: bigint): Promise<string> {
    const wallet = new Wallet(r.remote.accounts[0]!.privateKey)
    const nonce = Number(await r.remote.rpc('eth_getTransactionCount', [wallet.address, 'latest']))
    const raw = await wallet.signTransaction({ type: 0, chainId: 4242, nonce, to: STRANGER, value, gasLimit: 21_000n, gasPrice: GWEI })
    const [a, b] = await Promise.all([r.remote.rpc('eth_sendRawTransaction', [raw]), fork.rpc('eth_sendRawTransaction', [raw])])
    expect(a).toBe(b)
    return restForm(a)
  }

  it('continue the header chain and the BlockRoot tree: the same transactions give the remote’s BlockRoots and merkle proofs', async () => {
    const evm = await evmToBoth(1n)
    const native = nativeTransfer(r.remote, 0, 1, 2)
    const [n1, n2] = await Promise.all([sendNative(r.remote, native), sendNative(fork, native)])
    expect(n1).toBe(n2)
    const evm2 = await evmToBoth(3n)
    for (let n = r.head + 1; n <= r.head + 3; n++) {
      const mine = (await restEnvelope<{ Header: Header }>(forkRest, `/api/v1/block/details/height/${n}`)).Result.Header
      const theirs = (await restEnvelope<{ Header: Header }>(r.restUrl, `/api/v1/block/details/height/${n}`)).Result.Header
      expect(mine.Height).toBe(n)
      expect([mine.TransactionsRoot, mine.BlockRoot]).toEqual([theirs.TransactionsRoot, theirs.BlockRoot])
    }
    const first = (await restEnvelope<{ Header: Header }>(forkRest, `/api/v1/block/details/height/${r.head + 1}`)).Result.Header
    expect(first.PrevBlockHash).toBe(blockHashes[r.head])
    for (const tx of [evm, n1, evm2]) {
      const path = `/api/v1/merkleproof/${tx}`
      const body = await rawRest(forkRest, path)
      expect(body, path).toBe(await rawRest(r.restUrl, path))
      const proof = (JSON.parse(body) as { Error: number; Result: MerkleProof }).Result
      expect(proof.CurBlockHeight).toBe(r.head + 3)
      expect(proof.TargetHashes!.length).toBeGreaterThan(1)
      expect(verifyMerkleProof(proof)).toBe(true)
    }
  })

  it('are the fork’s own; what the remote did after the fork block is not the fork’s', async () => {
    // A transaction only the remote mines, after the fork: the fork does not know it.
    const wallet = new Wallet(r.remote.accounts[1]!.privateKey)
    const nonce = Number(await r.remote.rpc('eth_getTransactionCount', [wallet.address, 'latest']))
    const raw = await wallet.signTransaction({ type: 0, chainId: 4242, nonce, to: STRANGER, value: 5n, gasLimit: 21_000n, gasPrice: GWEI })
    const later = restForm(await r.remote.rpc('eth_sendRawTransaction', [raw]))
    const laterBlock = (await restEnvelope<number>(r.restUrl, `/api/v1/block/height/txhash/${later}`)).Result
    const laterHash = (await restEnvelope<string>(r.restUrl, `/api/v1/block/hash/${laterBlock}`)).Result
    expect(await restEnvelope(forkRest, `/api/v1/transaction/${later}`)).toMatchObject({ Error: 44001, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/block/height/txhash/${later}`)).toMatchObject({ Error: 45001, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/smartcode/event/txhash/${later}`)).toMatchObject({ Error: 0, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/merkleproof/${later}`)).toMatchObject({ Error: 42002, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/block/details/hash/${laterHash}`)).toMatchObject({ Error: 44003, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/block/details/hash/${laterHash}?raw=1`)).toMatchObject({ Error: 44003, Result: '' })
    expect(await restEnvelope(forkRest, `/api/v1/block/details/height/${laterBlock}`)).toMatchObject({ Error: 44003, Result: '' })
  })
})

describe('a fork without the REST URL', () => {
  it('answers the blocks below the fork block as unknown and refuses merkle proofs, as before', async () => {
    const plain = await createDevnet({ fork: { url: r.url, cache: false }, console: false })
    try {
      expect(await plain.rest.get('/api/v1/block/details/height/3')).toMatchObject({ Error: 44003, Result: '' })
      expect(await plain.rest.get(`/api/v1/transaction/${r.restTxs[3]![0]}`)).toMatchObject({ Error: 44001, Result: '' })
      const tx = await plain.rpc('eth_sendTransaction', [{ from: plain.accounts[0]!.address, to: STRANGER, value: '0x1' }])
      const answer = await plain.rest.get(`/api/v1/merkleproof/${restForm(tx)}`)
      expect(answer).toMatchObject({ Error: 45001 })
      expect(answer.Result).toMatch(/^merkle proofs are not served on this fork: the fork has no REST URL of the remote/)
    } finally {
      await plain.close()
    }
  })
})

describe('a remote that serves no merkle proofs', () => {
  it('gives the fork its header, but local BlockRoots start a tree of their own and merkle proofs of local transactions are refused, saying why', async () => {
    const proxy = new FaultProxy(r.restUrl)
    proxy.override = (path) => (path.startsWith('/api/v1/merkleproof/') ? { Action: 'getmerkleproof', Desc: 'INTERNAL ERROR', Error: 45001, Result: 'no proofs here', Version: '1.0.0' } : undefined)
    const restUrl = await proxy.listen()
    const head = Number(await r.remote.rpc('eth_blockNumber'))
    const outer = await createDevnet({ fork: { url: r.url, restUrl, cache: false }, console: false })
    try {
      const base = (await outer.listen()).restUrl!
      const path = `/api/v1/block/details/height/${head}`
      expect(await rawRest(base, path)).toBe(await rawRest(r.restUrl, path))
      const tx = (await outer.rpc('eth_sendTransaction', [{ from: outer.accounts[0]!.address, to: outer.accounts[1]!.address, value: '0x1' }])) as string
      const answer = await outer.rest.get(`/api/v1/merkleproof/${restForm(tx)}`)
      expect(answer.Error).toBe(45001)
      expect(answer.Result).toMatch(/^merkle proofs are not served on this fork: the remote's merkle proof route answered error 45001 "no proofs here" \(GET \/api\/v1\/merkleproof\/[0-9a-f]{64}\)$/)
      // A history answer that is an error with a text is answered as given, and not kept.
      proxy.override = (p) => (p === '/api/v1/block/hash/3' ? { Action: 'getblockhash', Desc: 'INTERNAL ERROR', Error: 45001, Result: 'busy', Version: '1.0.0' } : undefined)
      expect(await rawRest(base, '/api/v1/block/hash/3')).toBe('{"Action":"getblockhash","Desc":"INTERNAL ERROR","Error":45001,"Result":"busy","Version":"1.0.0"}')
      proxy.override = undefined
      expect(await rawRest(base, '/api/v1/block/hash/3')).toBe(await rawRest(r.restUrl, '/api/v1/block/hash/3'))
      // The fork's own blocks still continue the header chain.
      const next = (await outer.rest.get(`/api/v1/block/details/height/${head + 1}`)).Result as { Header: Header }
      expect(next.Header.PrevBlockHash).toBe((await r.remote.rest.get(`/api/v1/block/hash/${head}`)).Result)
    } finally {
      await outer.close()
      await proxy.close()
    }
  })
})

describe('a remote whose last transaction is far below its head', () => {
  it('is walked down 256 blocks at most: beyond that the fork keeps a tree of its own and says why', async () => {
    const quiet = await createDevnet({ chainId: 4245, console: false })
    try {
      const urls = await quiet.listen()
      await quiet.rpc('eth_sendTransaction', [{ from: quiet.accounts[0]!.address, to: STRANGER, value: '0x1' }])
      await quiet.mine(300)
      const outer = await createDevnet({ fork: { url: urls.rpcUrl, restUrl: urls.restUrl!, cache: false }, console: false })
      try {
        const tx = await outer.rpc('eth_sendTransaction', [{ from: outer.accounts[0]!.address, to: outer.accounts[1]!.address, value: '0x1' }])
        expect(await outer.rest.get(`/api/v1/merkleproof/${restForm(tx)}`)).toEqual({
          Action: 'getmerkleproof',
          Desc: 'INTERNAL ERROR',
          Error: 45001,
          Result: "merkle proofs are not served on this fork: no block from 46 to the fork block 301 holds a transaction, whose merkle proof would give the tree's frontier",
          Version: '1.0.0',
        })
      } finally {
        await outer.close()
      }
    } finally {
      await quiet.close()
    }
  }, 120_000)
})
