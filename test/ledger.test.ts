/**
 * The chain core: Merkle trees (reference §5.2, §5.3), block hashing (§5.1),
 * Base58 addresses (§3), versioned state with its journal, supply conservation, and
 * write-through persistence.
 */
import bs58 from 'bs58'
import { MemoryLevel } from 'memory-level'
import { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { createDevnet, fromBase58, InvalidAddressError, toBase58 } from '../src/index.ts'
import { serializeUnsignedHeader } from '../src/native/blockHeader.ts'
import { GAS_TOTAL_SUPPLY, MAIN_TOTAL_SUPPLY } from '../src/core/constants.ts'
import { appendLeaf, hashChildren, rootFromPeaks, transactionsRoot } from '../src/native/merkle.ts'
import { Journal } from '../src/state/journal.ts'
import { VersionedMap } from '../src/state/versionedMap.ts'
import { sha256, sha256d } from '../src/util/hash.ts'
import { concatBytes, fromHex, toHexRaw } from '../src/util/hex.ts'
import { chainOf } from '../src/devnet/provider.ts'

const leaf = (i: number) => sha256(Uint8Array.of(i))

/** RFC 6962 Merkle tree hash with leaves used directly: the definition the compact tree must match. */
function referenceRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 1) return leaves[0]!
  let k = 1
  while (k * 2 < leaves.length) k *= 2
  return hashChildren(referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)))
}

describe('TransactionsRoot (reference §5.2)', () => {
  it('is zero without transactions and the hash itself for one', () => {
    expect(transactionsRoot([])).toEqual(new Uint8Array(32))
    expect(transactionsRoot([leaf(1)])).toEqual(leaf(1))
  })

  it('pairs with SHA256d and repeats an odd last node', () => {
    const [a, b, c] = [leaf(1), leaf(2), leaf(3)]
    const ab = sha256d(concatBytes(a, b))
    expect(transactionsRoot([a, b])).toEqual(ab)
    expect(transactionsRoot([a, b, c])).toEqual(sha256d(concatBytes(ab, sha256d(concatBytes(c, c)))))
  })
})

describe('BlockRoot compact tree (reference §5.3)', () => {
  it('internal nodes are SHA256(0x01 ‖ left ‖ right)', () => {
    expect(hashChildren(leaf(1), leaf(2))).toEqual(sha256(concatBytes(Uint8Array.of(1), leaf(1), leaf(2))))
  })

  it('matches the RFC 6962 root for every size from 1 to 70', () => {
    let peaks: Uint8Array[] = []
    const leaves: Uint8Array[] = []
    for (let n = 0; n < 70; n++) {
      peaks = appendLeaf(peaks, n, leaf(n))
      leaves.push(leaf(n))
      expect(toHexRaw(rootFromPeaks(peaks))).toBe(toHexRaw(referenceRoot(leaves)))
      expect(peaks.length).toBe([...(n + 1).toString(2)].filter((bit) => bit === '1').length)
    }
  })
})

describe('Base58 addresses (reference §0, §3)', () => {
  it('renders the native contract addresses as the reference lists them', () => {
    const native = (id: number) => Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? id : 0))
    expect(toBase58(native(0))).toBe('AFmseVrdL9f9oyCzZefL9tG6UbvhPbdYzM')
    expect(toBase58(native(1))).toBe('AFmseVrdL9f9oyCzZefL9tG6UbvhUMqNMV')
    expect(toBase58(native(2))).toBe('AFmseVrdL9f9oyCzZefL9tG6UbvhfRZMHJ')
    expect(toBase58(native(7))).toBe('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK')
    expect(fromBase58('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK')).toEqual(native(7))
  })

  it('refuses bad checksums, versions, lengths and alphabets', () => {
    expect(() => fromBase58('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugL')).toThrow(InvalidAddressError)
    expect(() => fromBase58('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ug')).toThrow(/25 bytes|checksum/)
    expect(() => fromBase58('0OIl')).toThrow(/Base58/)
    const payload = concatBytes(Uint8Array.of(0x00), new Uint8Array(20))
    const wrongVersion = bs58.encode(concatBytes(payload, sha256d(payload).subarray(0, 4)))
    expect(() => fromBase58(wrongVersion)).toThrow(/version byte must be 0x17/)
  })
})

describe('versioned state and journal', () => {
  it('reads any height and undoes writes back to a position', () => {
    const journal = new Journal()
    const map = new VersionedMap<number>(journal)
    map.set('a', 1, 0)
    map.set('a', 2, 3)
    const position = journal.position
    map.set('a', 5, 5)
    map.set('a', 6, 5)
    map.set('b', 9, 5)
    expect([map.get('a', 0), map.get('a', 2), map.get('a', 4), map.get('a', 5)]).toEqual([1, 1, 2, 6])
    journal.revertTo(position)
    expect([map.get('a', 5), map.get('b', 5), map.getNewest('a')]).toEqual([2, undefined, 2])
    journal.trimBefore(journal.position)
    expect(() => journal.revertTo(0)).toThrow(RangeError)
  })

  it('refuses a write below the newest version of a key', () => {
    const map = new VersionedMap<number>(new Journal())
    map.set('a', 1, 4)
    expect(() => map.set('a', 2, 3)).toThrow(RangeError)
  })
})

describe('blocks (reference §5.1, §5.5)', () => {
  it('hashes the unsigned header with SHA256d and chains blocks by hash', async () => {
    const devnet = await createDevnet({ accounts: 2, genesisTimestamp: 1_700_000_000 })
    await devnet.mine(2)
    const chain = chainOf(devnet)
    const genesis = chain.blockAt(0)!
    expect(genesis.header.consensusData).toBe(2083236893n)
    expect(genesis.header.bookkeepers).toEqual([])
    expect(genesis.signatures()).toEqual([])
    const block = chain.blockAt(2)!
    expect(block.hash).toEqual(sha256d(serializeUnsignedHeader(block.header)))
    expect(block.header.prevHash).toEqual(chain.blockAt(1)!.hash)
    // version 4 + prev 32 + txRoot 32 + blockRoot 32 + timestamp 4 + height 4 + consensusData 8 + varbytes(empty) 1 + bookkeeper 20
    expect(serializeUnsignedHeader(block.header).length).toBe(137)
    expect(block.header.blockRoot).toEqual(rootFromPeaks(block.peaks))
    expect(block.header.timestamp).toBeGreaterThan(chain.blockAt(1)!.header.timestamp)
    expect(block.header.bookkeepers).toEqual([chain.bookkeeper.publicKey])
    await devnet.close()
  })

  it('is reproducible: the same transactions at the same times give the same block hashes', async () => {
    const hashes = async () => {
      const devnet = await createDevnet({ accounts: 3, genesisTimestamp: 1_700_000_000 })
      const chain = chainOf(devnet)
      const raw = await new Wallet(devnet.accounts[0]!.privateKey).signTransaction({
        type: 0,
        chainId: 12345,
        nonce: 0,
        to: devnet.accounts[1]!.address,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice: 0n,
      })
      chain.clock.setNextBlockTimestamp(1_700_000_100)
      await devnet.rpc('eth_sendRawTransaction', [raw])
      const out = [0, 1].map((h) => toHexRaw(chain.blockAt(h)!.hash))
      await devnet.close()
      return out
    }
    expect(await hashes()).toEqual(await hashes())
  })

  it('signs each block with the bookkeeper P-256 key over SHA256(hash)', async () => {
    const { p256 } = await import('@noble/curves/nist.js')
    const devnet = await createDevnet({ accounts: 1 })
    await devnet.mine()
    const block = chainOf(devnet).blockAt(1)!
    const [signature] = block.signatures()
    expect(signature!.length).toBe(64)
    expect(p256.verify(signature!, block.hash, chainOf(devnet).bookkeeper.publicKey)).toBe(true)
    await devnet.close()
  })
})

describe('supplies and persistence', () => {
  it('conserves both total supplies through transfers and fees, and writes the ledger through to the db', async () => {
    const db = new MemoryLevel<string, string>()
    const devnet = await createDevnet({ accounts: 3, db })
    const wallet = new Wallet(devnet.accounts[0]!.privateKey)
    for (let nonce = 0; nonce < 3; nonce++) {
      const raw = await wallet.signTransaction({
        type: 0,
        chainId: 12345,
        nonce,
        to: devnet.accounts[1]!.address,
        value: 10n ** 18n,
        gasLimit: 21_000n,
        gasPrice: 2_000_000_000n,
      })
      await devnet.rpc('eth_sendRawTransaction', [raw])
    }
    const chain = chainOf(devnet)
    let main = 0n
    let gas = 0n
    for (const address of chain.world.accountKeys()) {
      const account = chain.account(fromHex(address))
      main += account.main
      gas += account.gas
    }
    expect(main).toBe(MAIN_TOTAL_SUPPLY)
    expect(gas).toBe(GAS_TOTAL_SUPPLY)
    expect(chain.account(fromHex('0000000000000000000000000000000000000007')).gas).toBe(3n * 21_000n * 2_000_000_000n)

    await devnet.close()
    await db.open()
    // Layout: persistence/schema.ts.
    expect(JSON.parse((await db.get('m:tip'))!).height).toBe(3)
    const stored = JSON.parse((await db.get('b:0000000003'))!) as { header: string; transactions: { evm: string; from: string }[] }
    expect(stored.header).toBe(toHexRaw(serializeUnsignedHeader(chain.blockAt(3)!.header)))
    const tx = chain.blockAt(3)!.transactions[0]!
    expect(stored.transactions).toEqual([{ evm: toHexRaw(tx.kind === 'evm' ? tx.tx.rlp : tx.raw), from: devnet.accounts[0]!.addressLower.slice(2) }])
    expect((await db.get(`a:${devnet.accounts[0]!.addressLower.slice(2)}:0000000003`))!.split(',')[0]).toBe('3')
    await db.close()
  })
})

describe('native dev accounts (P-256)', () => {
  it('are funded like the EVM dev accounts, with addresses hash160(0x21 ‖ key ‖ 0xAC)', async () => {
    const { p256 } = await import('@noble/curves/nist.js')
    const { hash160 } = await import('../src/util/hash.ts')
    const devnet = await createDevnet({ accounts: 1, nativeAccounts: 2 })
    expect(devnet.nativeAccounts).toHaveLength(2)
    for (const account of devnet.nativeAccounts) {
      const publicKey = p256.getPublicKey(fromHex(account.privateKey), true)
      expect(toHexRaw(publicKey)).toBe(account.publicKey.slice(2))
      const address = hash160(concatBytes(Uint8Array.of(0x21), publicKey, Uint8Array.of(0xac)))
      expect(account.address).toBe(`0x${toHexRaw(address)}`)
      expect(fromBase58(account.base58)).toEqual(address)
      expect(await devnet.rpc('eth_getBalance', [account.address, 'latest'])).toBe(`0x${(10_000n * 10n ** 18n).toString(16)}`)
      expect((await devnet.rest.get(`/api/v1/balance/${account.base58}`)).Result).toEqual({ main: '10000', gas: '10000000000000', height: '0' })
    }
    await devnet.close()
  })
})
