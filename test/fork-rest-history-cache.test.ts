/**
 * The REST view's history is kept (docs/fork.md "History before the fork", "The disk
 * cache", "A fork in a database"): once read it answers without the remote, in the same
 * process and, through the disk cache, in a later run of the same fork block, which
 * also rebuilds the BlockRoot frontier without asking the remote; what was not read
 * fails with the error naming the remote call. A database keeps the fork block's
 * native header and frontier, so that a resumed fork serves merkle proofs of its own
 * transactions without the remote. Both of the remote's interfaces sit behind loopback
 * proxies that can stop answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { createDevnet, type Devnet } from '../src/index.ts'
import { verifyMerkleProof, type MerkleProof } from '../src/rest/merkleProof.ts'
import { FaultProxy } from './fork-support.ts'
import { historyPaths, rawRest, restForm, restEnvelope, restHistoryRemote, type RestHistoryRemote } from './fork-rest-support.ts'

let r: RestHistoryRemote
let rpc: FaultProxy
let rest: FaultProxy
let urls: { url: string; restUrl: string }
let dir: string
let paths: string[]
/** The remote's body of each path. */
const bodies = new Map<string, string>()

beforeAll(async () => {
  r = await restHistoryRemote()
  rpc = new FaultProxy(r.url)
  rest = new FaultProxy(r.restUrl)
  urls = { url: await rpc.listen(), restUrl: await rest.listen() }
  dir = mkdtempSync(join(tmpdir(), 'dualnet-fork-rest-history-'))
  const blockHashes: string[] = []
  for (let n = 0; n <= r.head; n++) blockHashes.push((await restEnvelope<string>(r.restUrl, `/api/v1/block/hash/${n}`)).Result)
  paths = historyPaths(r, blockHashes)
  for (const path of paths) bodies.set(path, await rawRest(r.restUrl, path))
}, 120_000)

afterAll(async () => {
  await rpc?.close()
  await rest?.close()
  await r?.remote.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** Both proxies in `mode`. */
const remoteMode = (mode: 'forward' | 'down') => {
  rpc.mode = mode
  rest.mode = mode
}

/** The fork's options: behind the proxies, at the remote's head, with the disk cache in `dir`; one attempt per call. */
const options = (extra: { cache?: string | false } = {}) => ({ fork: { ...urls, blockNumber: r.head, cache: dir, remote: { retries: 0, timeout: 5_000 }, ...extra }, console: false })

/** Expects the fork's body of every history path to be the remote's. */
async function expectHistory(fork: Devnet): Promise<void> {
  const base = (await fork.listen()).restUrl!
  for (const path of paths) expect(await rawRest(base, path), path).toBe(bodies.get(path))
}

/** The REST-form hash of a local EVM transfer the fork mines (between dev accounts, which the fork fetched when it started). */
async function localTransfer(fork: Devnet): Promise<string> {
  const hash = (await fork.rpc('eth_sendTransaction', [{ from: fork.accounts[0]!.address, to: fork.accounts[1]!.address, value: '0x1' }])) as string
  return restForm(hash)
}

describe('kept REST history', () => {
  it('answers what was read with the remote down, fails what was not naming the remote call, and proves local transactions offline', async () => {
    const fork = await createDevnet(options())
    try {
      await expectHistory(fork)
      remoteMode('down')
      await expectHistory(fork)
      const unread = '6b'.repeat(32)
      const answer = await fork.rest.get(`/api/v1/transaction/${unread}`)
      expect(answer.Error).toBe(45001)
      expect(answer.Result).toMatch(new RegExp(`^fork: the remote call GET /api/v1/(block/height/txhash|transaction)/${unread} to http://127\\.0\\.0\\.1:\\d+ failed: .* \\(1 attempt\\)$`))
      const local = await localTransfer(fork)
      const proof = await fork.rest.get(`/api/v1/merkleproof/${local}`)
      expect(proof).toMatchObject({ Error: 0, Result: { BlockHeight: r.head + 1, CurBlockHeight: r.head + 1 } })
    } finally {
      remoteMode('forward')
      await fork.close()
    }
  })

  it('answers it in a later run of the same fork block from the disk cache, asking the remote’s REST only its network id', async () => {
    const files = readdirSync(join(dir, '4242'))
    expect(files).toHaveLength(1)
    const file = join(dir, '4242', files[0]!)
    const held = JSON.parse(readFileSync(file, 'utf8')) as { rest: [string, number, string][] }
    expect(held.rest.map(([path]) => path)).toEqual(expect.arrayContaining([`/api/v1/merkleproof/${r.restTxs[6]![0]}`, '/api/v1/block/details/height/6']))
    const before = rest.requests
    const again = await createDevnet(options())
    try {
      expect(rest.requests - before).toBe(1)
      await expectHistory(again)
      expect(rest.requests - before).toBe(1)
    } finally {
      await again.close()
    }
    // A file of a program that kept no REST history (no `rest` field) is still read; the frontier is fetched again.
    const { rest: _rest, ...older } = held
    writeFileSync(file, JSON.stringify(older))
    const start = rest.requests
    const third = await createDevnet(options())
    try {
      // The network id, blocks 9, 8 and then 7 and 6 together (6 holds the newest transaction), and its merkle proof.
      expect(rest.requests - start).toBe(6)
      const local = await localTransfer(third)
      expect(await third.rest.get(`/api/v1/merkleproof/${local}`)).toMatchObject({ Error: 0 })
    } finally {
      await third.close()
    }
  })
})

describe('a fork in a database', () => {
  it('keeps the fork block’s native header and frontier: a resumed fork proves its transactions without the remote', async () => {
    const path = join(dir, 'db')
    const first = await createDevnet({ ...options({ cache: false }), db: new ClassicLevel<string, string>(path) })
    const local = await localTransfer(first)
    const proof = await first.rest.get(`/api/v1/merkleproof/${local}`)
    await first.close()
    remoteMode('down')
    try {
      const second = await createDevnet({ ...options({ cache: false }), db: new ClassicLevel<string, string>(path) })
      try {
        expect(await second.rest.get(`/api/v1/merkleproof/${local}`)).toEqual(proof)
        // Its next block continues the tree: a proof in it checks against its BlockRoot.
        const next = await localTransfer(second)
        const nextProof = await second.rest.get(`/api/v1/merkleproof/${next}`)
        expect(nextProof).toMatchObject({ Error: 0, Result: { BlockHeight: r.head + 2 } })
        expect(verifyMerkleProof(nextProof.Result as MerkleProof)).toBe(true)
      } finally {
        await second.close()
      }
    } finally {
      remoteMode('forward')
    }
  }, 120_000)
})
