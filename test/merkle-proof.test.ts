/**
 * Merkle proofs (reference §1.4.8, §5.2-§5.4) as a property: over a chain of 200
 * random EVM transactions spread over many blocks, the proof of any included
 * transaction verifies, with the exported `verifyMerkleProof` and with an independent
 * node:crypto implementation of the node's audit-path loop, and stops verifying when
 * any one TargetHash, the TransactionsRoot, the CurBlockRoot or the BlockHeight is
 * tampered with. TransactionsRoots and the BlockRoot are recomputed from the REST
 * transaction lists with SHA256d pairs and the compact tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Interface } from 'ethers'
import { createDevnet, verifyMerkleProof, type Devnet, type MerkleProof } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { compactRoot, rev, sha256, sha256d, strip, transactionsRoot } from './chainRules.ts'

const GWEI = 1_000_000_000n
/** Seed of the random chain; change it to explore another one (the property itself draws fresh cases each run). */
const CHAIN_SEED = 0x5eed
const TX_COUNT = 200

const store = new Interface(Store.abi as never)
const raw = (restHex: string) => Buffer.from(restHex, 'hex').reverse()
const node = (left: Buffer, right: Buffer) => sha256(Buffer.concat([Buffer.of(1), left, right]))

/** The node's client check (§5.4 calculate_root_hash_from_audit_path), written independently of src/. */
function independentVerify(proof: MerkleProof): boolean {
  const path = (proof.TargetHashes ?? []).map(raw)
  let h = raw(proof.TransactionsRoot)
  let i = proof.BlockHeight
  let last = proof.CurBlockHeight
  if (!Number.isInteger(i) || i < 0 || i > last) return false
  let pos = 0
  while (last > 0) {
    if (i % 2 === 1) {
      if (pos >= path.length) return false
      h = node(path[pos++]!, h)
    } else if (i < last) {
      if (pos >= path.length) return false
      h = node(h, path[pos++]!)
    }
    i = Math.floor(i / 2)
    last = Math.floor(last / 2)
  }
  return pos === path.length && h.equals(raw(proof.CurBlockRoot))
}

/** Flips bit `bit` of byte `byte` of a REST hex hash. */
function flip(hex: string, byte: number, bit: number): string {
  const bytes = Buffer.from(hex, 'hex')
  bytes[byte] = bytes[byte]! ^ (1 << bit)
  return bytes.toString('hex')
}

/** One random transaction of the chain, then how many blocks to mine after it (0: keep it pending). */
interface Step {
  sender: number
  kind: 'transfer' | 'increment' | 'deposit'
  to: number
  value: bigint
  gasPriceGwei: bigint
  mineAfter: number
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  sender: fc.nat({ max: 9 }),
  kind: fc.constantFrom('transfer', 'transfer', 'increment', 'deposit'),
  to: fc.nat({ max: 9 }),
  value: fc.bigInt({ min: 0n, max: 10n ** 18n }),
  gasPriceGwei: fc.constantFrom(0n, 0n, 1n, 2n, 7n),
  // Mostly keep sending into the same block; sometimes mine one or a run of (empty) blocks.
  mineAfter: fc.oneof({ arbitrary: fc.constant(0), weight: 5 }, { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 3 }, { arbitrary: fc.integer({ min: 4, max: 40 }), weight: 1 }),
})

type Tamper =
  | { kind: 'target'; index: number; byte: number; bit: number }
  | { kind: 'transactionsRoot' | 'curBlockRoot'; byte: number; bit: number }
  | { kind: 'blockHeight'; offset: number }
  | { kind: 'otherRoot'; index: number }

const tamperArb: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant('target' as const), index: fc.nat(), byte: fc.nat({ max: 31 }), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constantFrom('transactionsRoot' as const, 'curBlockRoot' as const), byte: fc.nat({ max: 31 }), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant('blockHeight' as const), offset: fc.integer({ min: 1, max: 1_000 }) }),
  fc.record({ kind: fc.constant('otherRoot' as const), index: fc.nat() }),
)

describe('merkle proofs over a random chain', () => {
  let devnet: Devnet
  let storeAddress: string
  /** Included transactions: 0x hash and block height. */
  const included: { hash: string; height: number }[] = []
  /** Raw TransactionsRoot of every block, recomputed from its REST transaction list. */
  const leaves: Buffer[] = []
  let tip = 0

  const proofOf = async (hash: string) => {
    const envelope = await devnet.rest.get(`/api/v1/merkleproof/${rev(hash)}`)
    expect(envelope).toMatchObject({ Action: 'getmerkleproof', Desc: 'SUCCESS', Error: 0, Version: '1.0.0' })
    return envelope.Result as MerkleProof
  }

  beforeAll(async () => {
    devnet = await createDevnet({ automine: false })
    const accounts = devnet.accounts
    const deploy = await devnet.rpc('eth_sendTransaction', [{ from: accounts[0]!.address, data: Store.bytecode, gasPrice: '0x0' }])
    await devnet.mine()
    storeAddress = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
    const steps = fc.sample(fc.array(stepArb, { minLength: TX_COUNT, maxLength: TX_COUNT }), { seed: CHAIN_SEED, numRuns: 1 })[0]!
    const sent: string[] = [deploy]
    for (const step of steps) {
      const from = accounts[step.sender]!.address
      const gasPrice = `0x${(step.gasPriceGwei * GWEI).toString(16)}`
      const fields =
        step.kind === 'transfer'
          ? { to: accounts[step.to]!.address, value: `0x${step.value.toString(16)}` }
          : step.kind === 'increment'
            ? { to: storeAddress, data: store.encodeFunctionData('increment') }
            : { to: storeAddress, data: store.encodeFunctionData('deposit'), value: `0x${(step.value / 1000n).toString(16)}` }
      sent.push(await devnet.rpc('eth_sendTransaction', [{ from, gasPrice, ...fields }]))
      if (step.mineAfter > 0) await devnet.mine(step.mineAfter)
    }
    await devnet.mine()
    expect((await devnet.rest.get('/api/v1/mempool/txcount')).Result).toEqual([0, 0])
    for (const hash of sent) {
      const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
      included.push({ hash, height: Number(receipt.blockNumber) })
    }
    tip = (await devnet.rest.get('/api/v1/block/height')).Result
    for (let h = 0; h <= tip; h++) {
      const list = (await devnet.rest.get(`/api/v1/block/transactions/height/${h}`)).Result
      leaves.push(transactionsRoot(list.Transactions.map(raw)))
    }
  })
  afterAll(() => devnet.close())

  it('the chain: 201 transactions over many blocks, some holding several, some empty', () => {
    expect(included).toHaveLength(TX_COUNT + 1)
    const perBlock = new Map<number, number>()
    for (const { height } of included) perBlock.set(height, (perBlock.get(height) ?? 0) + 1)
    expect(perBlock.size).toBeGreaterThan(40)
    expect(Math.max(...perBlock.values())).toBeGreaterThan(2)
    expect(tip + 1 - perBlock.size).toBeGreaterThan(20)
  })

  it('TransactionsRoot of every block = SHA256d pairs over its transactions (REST lists), as the header and eth_getBlockByNumber say', async () => {
    for (let h = 0; h <= tip; h++) {
      const header = (await devnet.rest.get(`/api/v1/block/details/height/${h}`)).Result.Header
      expect(header.TransactionsRoot).toBe(rev(leaves[h]!.toString('hex')))
      const eth = (await devnet.rpc('eth_getBlockByNumber', [`0x${h.toString(16)}`, false]))!
      if (eth.transactions.length > 0) expect(strip(eth.transactionsRoot)).toBe(leaves[h]!.toString('hex'))
    }
    // An odd count pairs the last hash with itself: spell it out for a block of three.
    const counts = new Map<number, string[]>()
    for (const { hash, height } of included) counts.set(height, [...(counts.get(height) ?? []), hash])
    const [height, hashes] = [...counts.entries()].find(([, list]) => list.length === 3)!
    const listed = (await devnet.rest.get(`/api/v1/block/transactions/height/${height}`)).Result.Transactions.map(raw)
    expect(listed.map((b) => `0x${b.toString('hex')}`).sort()).toEqual([...hashes].sort())
    const [a, b, c] = listed as [Buffer, Buffer, Buffer]
    expect(leaves[height]).toEqual(sha256d(Buffer.concat([sha256d(Buffer.concat([a, b])), sha256d(Buffer.concat([c, c]))])))
  })

  it('the latest BlockRoot is the compact tree over every TransactionsRoot', async () => {
    const latest = (await devnet.rest.get(`/api/v1/block/details/height/${tip}`)).Result.Header
    expect(latest.BlockRoot).toBe(rev(compactRoot(leaves).toString('hex')))
  })

  it('property: the proof of any included transaction verifies; any one tampered field makes it fail', async () => {
    const roots = [...new Set(leaves.map((l) => rev(l.toString('hex'))))]
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: included.length - 1 }), tamperArb, async (i, tamper) => {
        const { hash, height } = included[i]!
        const proof = await proofOf(hash)
        expect(proof.Type).toBe('MerkleProof')
        expect(proof.BlockHeight).toBe(height)
        expect(proof.CurBlockHeight).toBe(tip)
        expect(proof.TransactionsRoot).toBe(rev(leaves[height]!.toString('hex')))
        expect(verifyMerkleProof(proof)).toBe(true)
        expect(independentVerify(proof)).toBe(true)

        const bad: MerkleProof = { ...proof, TargetHashes: proof.TargetHashes === null ? null : [...proof.TargetHashes] }
        switch (tamper.kind) {
          case 'target': {
            const targets = bad.TargetHashes!
            const j = tamper.index % targets.length
            targets[j] = flip(targets[j]!, tamper.byte, tamper.bit)
            break
          }
          case 'transactionsRoot':
            bad.TransactionsRoot = flip(bad.TransactionsRoot, tamper.byte, tamper.bit)
            break
          case 'curBlockRoot':
            bad.CurBlockRoot = flip(bad.CurBlockRoot, tamper.byte, tamper.bit)
            break
          case 'blockHeight':
            // Another height of the chain (wrapping), or one beyond the tip.
            bad.BlockHeight = tamper.offset % 7 === 0 ? tip + tamper.offset : (height + tamper.offset) % (tip + 1)
            if (bad.BlockHeight === height) bad.BlockHeight = (height + 1) % (tip + 1)
            break
          case 'otherRoot': {
            // Another block's (real) TransactionsRoot.
            const others = roots.filter((r) => r !== proof.TransactionsRoot)
            bad.TransactionsRoot = others[tamper.index % others.length]!
            break
          }
        }
        expect(verifyMerkleProof(bad)).toBe(false)
        expect(independentVerify(bad)).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('a transaction in the latest block: BlockHeight = CurBlockHeight; also dropped or extra TargetHashes fail', async () => {
    const hash = await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[3]!.address, to: devnet.accounts[4]!.address, value: '0x1', gasPrice: '0x0' }])
    await devnet.mine()
    tip += 1
    const list = (await devnet.rest.get(`/api/v1/block/transactions/height/${tip}`)).Result.Transactions
    expect(list).toEqual([rev(hash)])
    leaves.push(transactionsRoot(list.map(raw)))
    const proof = await proofOf(hash)
    expect(proof).toMatchObject({ BlockHeight: tip, CurBlockHeight: tip, TransactionsRoot: rev(hash), CurBlockRoot: rev(compactRoot(leaves).toString('hex')) })
    expect(proof.TargetHashes).not.toBeNull()
    expect(verifyMerkleProof(proof)).toBe(true)
    expect(independentVerify(proof)).toBe(true)
    const targets = proof.TargetHashes!
    for (const bad of [targets.slice(1), [...targets, targets[0]!], null, [...targets].reverse()]) {
      if (JSON.stringify(bad) === JSON.stringify(targets)) continue
      expect(verifyMerkleProof({ ...proof, TargetHashes: bad })).toBe(false)
      expect(independentVerify({ ...proof, TargetHashes: bad })).toBe(false)
    }
    // Every earlier proof now has the new CurBlockRoot and still verifies.
    const earlier = await proofOf(included[0]!.hash)
    expect(earlier.CurBlockRoot).toBe(proof.CurBlockRoot)
    expect(verifyMerkleProof(earlier)).toBe(true)
  })
})

describe('merkle proofs of small trees', () => {
  it("genesis only: a one-leaf tree, TargetHashes null; the genesis header's BlockRoot is zero, so the proof only verifies from block 1 on", async () => {
    const devnet = await createDevnet()
    try {
      const genesis = (await devnet.rest.get('/api/v1/block/details/height/0')).Result.Header
      const list = (await devnet.rest.get('/api/v1/block/transactions/height/0')).Result.Transactions
      // Block 0 holds the native genesis transactions (reference §5.5): its TransactionsRoot is theirs, not zero.
      expect(genesis.TransactionsRoot).toBe(rev(transactionsRoot(list.map(raw)).toString('hex')))
      expect(genesis.TransactionsRoot).not.toBe('00'.repeat(32))
      // The genesis header's BlockRoot is all zero (§5.3), so at height 0 a genesis transaction's proof
      // names a CurBlockRoot its TransactionsRoot does not lead to, as on the node.
      const proof = (await devnet.rest.get(`/api/v1/merkleproof/${list[0]!}`)).Result
      expect(proof).toEqual({
        Type: 'MerkleProof',
        TransactionsRoot: genesis.TransactionsRoot,
        BlockHeight: 0,
        CurBlockRoot: '00'.repeat(32),
        CurBlockHeight: 0,
        TargetHashes: null,
      })
      expect(verifyMerkleProof(proof)).toBe(false)
      expect(independentVerify(proof)).toBe(false)
      // Against the root of the one-leaf tree (the leaf itself) it verifies; tampering does not.
      const oneLeaf = { ...proof, CurBlockRoot: genesis.TransactionsRoot }
      expect(verifyMerkleProof(oneLeaf)).toBe(true)
      expect(independentVerify(oneLeaf)).toBe(true)
      expect(verifyMerkleProof({ ...oneLeaf, TargetHashes: [] })).toBe(true)
      expect(verifyMerkleProof({ ...oneLeaf, TargetHashes: ['00'.repeat(32)] })).toBe(false)
      expect(verifyMerkleProof({ ...oneLeaf, CurBlockRoot: flip(oneLeaf.CurBlockRoot, 0, 0) })).toBe(false)
      expect(verifyMerkleProof({ ...oneLeaf, BlockHeight: 1 })).toBe(false)
      // One block later the genesis transactions' proof verifies: TargetHashes = [block 1's (zero) root].
      await devnet.mine()
      const later = (await devnet.rest.get(`/api/v1/merkleproof/${list.at(-1)!}`)).Result
      expect(later).toMatchObject({ TransactionsRoot: genesis.TransactionsRoot, BlockHeight: 0, CurBlockHeight: 1, TargetHashes: ['00'.repeat(32)] })
      expect(later.CurBlockRoot).toBe(rev(node(raw(genesis.TransactionsRoot), Buffer.alloc(32)).toString('hex')))
      expect(verifyMerkleProof(later)).toBe(true)
      expect(independentVerify(later)).toBe(true)
    } finally {
      await devnet.close()
    }
  })

  it('one transaction in block 1: a two-leaf tree whose only TargetHash is the genesis root; malformed input is false, not a throw', async () => {
    const devnet = await createDevnet()
    try {
      const hash = await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: '0x1', gasPrice: '0x0' }])
      const proof = (await devnet.rest.get(`/api/v1/merkleproof/${rev(hash)}`)).Result
      const genesisRoot = (await devnet.rest.get('/api/v1/block/details/height/0')).Result.Header.TransactionsRoot
      expect(proof).toEqual({
        Type: 'MerkleProof',
        TransactionsRoot: rev(hash),
        BlockHeight: 1,
        CurBlockRoot: rev(node(raw(genesisRoot), raw(rev(hash))).toString('hex')),
        CurBlockHeight: 1,
        TargetHashes: [genesisRoot],
      })
      expect(verifyMerkleProof(proof)).toBe(true)
      for (const bad of [
        { ...proof, TargetHashes: null },
        { ...proof, TargetHashes: ['zz'] },
        { ...proof, TransactionsRoot: `0x${proof.TransactionsRoot.slice(2)}` },
        { ...proof, BlockHeight: -1 },
        { ...proof, BlockHeight: 1.5 },
        { ...proof, CurBlockHeight: 0 },
        { ...proof, CurBlockHeight: 2 },
      ]) {
        expect(verifyMerkleProof(bad)).toBe(false)
      }
    } finally {
      await devnet.close()
    }
  })
})
