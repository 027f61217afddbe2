/**
 * The Ethereum state trie of the EVM view (option `stateRoot: 'merkle'`), derived from
 * the world state when asked: the real node keeps none and its blocks carry a zero
 * stateRoot (reference §6.3), so this trie exists only in dualnet, for eth_getProof
 * (EIP-1186) and the blocks' `stateRoot`.
 *
 * What goes in (the Yellow Paper's world-state trie, go-ethereum core/types/state_account.go):
 * key keccak256(address), value RLP([nonce, balance, storageRoot, codeHash]), where the
 * balance is the gas-token balance in wei (what eth_getBalance answers, reference §4.1),
 * and each account's storage trie maps keccak256(slot) to RLP(value without leading
 * zeros). An account that is empty to the EVM (nonce 0, balance 0, no code, no storage;
 * a holder of the main token only) is absent, as EIP-161 leaves empty accounts out.
 *
 * The trie is @ethereumjs/mpt's, loaded on the first ask (a devnet without the option
 * never loads it). Roots are computed per height when asked and cached; a height's trie
 * is built from the nearest cached height below it by re-putting only the accounts
 * `WorldState.modifiedAccounts` names (an account's storage trie is rebuilt whole when
 * it changed), or from an empty trie when none is cached. Every node is kept in one
 * in-memory map (content-addressed), so the proof of any computed root can be made
 * later. Nothing is persisted: the root is derived from the state `--db` keeps.
 */
import type { MapDB } from '@ethereumjs/util'
import { RLP } from '@ethereumjs/rlp'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { WorldState } from './worldState.ts'
import { fromHex } from '../util/hex.ts'
import { EMPTY_CODE_HASH, EMPTY_TRIE_ROOT } from '../core/constants.ts'

/** Bytes as lowercase hex (a map key). */
const bytesKey = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/** Whether two byte strings are equal. */
const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i])

/** keccak256 of empty code (go-ethereum types.EmptyCodeHash). */
const KECCAK256_NULL = fromHex(EMPTY_CODE_HASH)
/** Root of an empty trie (go-ethereum types.EmptyRootHash); {@link MerkleState} returns this very object for an empty storage trie. */
const KECCAK256_RLP = fromHex(EMPTY_TRIE_ROOT)

type Util = typeof import('@ethereumjs/util')
let utilModule: Promise<Util> | undefined
/**
 * @ethereumjs/util, imported once on first use: its index loads @noble/curves' secp256k1,
 * which the default start must not load (test/lazy-start.test.ts).
 */
const loadUtil = (): Promise<Util> => (utilModule ??= import('@ethereumjs/util'))

type Mpt = typeof import('@ethereumjs/mpt')
let mptModule: Promise<Mpt> | undefined
/** @ethereumjs/mpt, imported once on first use (the default start never imports it). */
const loadMpt = (): Promise<Mpt> => (mptModule ??= import('@ethereumjs/mpt'))

/** One slot's EIP-1186 storage proof: the slot asked (32 bytes), its value (no leading zeros), the nodes root to leaf. */
export interface StorageProof {
  readonly key: Uint8Array
  readonly value: Uint8Array
  readonly proof: Uint8Array[]
}

/** An account's EIP-1186 proof against the state root of one height (go-ethereum internal/ethapi AccountResult). */
export interface AccountProof {
  readonly accountProof: Uint8Array[]
  readonly nonce: bigint
  /** Gas-token balance in wei. */
  readonly balance: bigint
  /** Keccak-256 of the code (of empty code when none or when the account is absent, as Anvil and reth answer). */
  readonly codeHash: Uint8Array
  /** Root of the account's storage trie (the empty trie's root when it has none). */
  readonly storageHash: Uint8Array
  readonly storageProof: StorageProof[]
}

/**
 * What a block's stateless execution needs of the state before it (reth's
 * `debug_executionWitness`, alloy `ExecutionWitness`): every node of the state trie and
 * of each account's storage trie that is stored by hash (32 bytes of RLP or more, and the
 * roots), every contract's code, and the preimages of the trie keys (20-byte addresses
 * and 32-byte slots), each list without repeats.
 */
export interface StateWitness {
  readonly state: Uint8Array[]
  readonly codes: Uint8Array[]
  readonly keys: Uint8Array[]
}

/** A cached root: `final` when its height was below the latest block when computed (no setter writes there any more). */
interface RootEntry {
  readonly root: Uint8Array
  readonly final: boolean
  /** `WorldState.journal.writes` when computed: a non-final root holds only while no write happened since. */
  readonly writes: number
}

/** The state trie of one world state: roots per height (cached) and proofs against them. */
export class MerkleState {
  readonly #world: WorldState
  /** Every node of every computed trie, by hash (the tries' shared database). */
  #db: MapDB<string, string | Uint8Array> | undefined
  readonly #roots = new Map<number, RootEntry>()
  /** `journal.reverts` the cache was filled under; a revert may change any height's state at or above the snapshot's, so the cache is dropped. */
  #reverts: number
  /** Computations run one at a time (they share the node map and the cache). */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(world: WorldState) {
    this.#world = world
    this.#reverts = world.journal.reverts
  }

  /**
   * State root (32 bytes) of the state as of `height` (a state height the chain has
   * checked). `final`: the height is below the latest block, so setters no longer write
   * there and the root may be cached for good.
   */
  rootAt(height: number, final: boolean): Promise<Uint8Array> {
    const run = this.#queue.then(() => this.#compute(height, final))
    this.#queue = run.catch(() => undefined)
    return run
  }

  /**
   * EIP-1186 proof of `address` (40 hex) and its `slots` (32 bytes each) against
   * {@link rootAt}`(height, final)`. The values are read from the trie, so they are
   * what the proof proves.
   */
  async proofAt(height: number, final: boolean, address: string, slots: readonly Uint8Array[]): Promise<AccountProof> {
    const root = await this.rootAt(height, final)
    const mpt = await loadMpt()
    const trie = await this.#trie(root)
    const addressKey = fromHex(address)
    const accountProof = await mpt.createMerkleProof(trie, addressKey)
    const leaf = await trie.get(addressKey)
    const account = leaf === null ? undefined : (await loadUtil()).createAccountFromRLP(leaf)
    const storageHash = account?.storageRoot ?? KECCAK256_RLP
    const storage = await this.#trie(storageHash)
    const storageProof: StorageProof[] = []
    for (const key of slots) {
      const value = await storage.get(key)
      storageProof.push({ key, value: value === null ? new Uint8Array(0) : (RLP.decode(value) as Uint8Array), proof: await mpt.createMerkleProof(storage, key) })
    }
    return {
      accountProof,
      nonce: account?.nonce ?? 0n,
      balance: account?.balance ?? 0n,
      codeHash: account?.codeHash ?? KECCAK256_NULL,
      storageHash,
      storageProof,
    }
  }

  /**
   * The whole state as of `height` as a {@link StateWitness} against {@link rootAt}`(height,
   * final)`: a superset of what one block touches, as Anvil builds its witness from the
   * full parent state (foundry crates/anvil/src/eth/backend/mem/mod.rs
   * `debug_execution_witness`). Grows with the state, not with the block.
   */
  async witnessAt(height: number, final: boolean): Promise<StateWitness> {
    const root = await this.rootAt(height, final)
    const state = new Map<string, Uint8Array>()
    const codes = new Map<string, Uint8Array>()
    const keys = new Map<string, Uint8Array>()
    const collect = async (trieRoot: Uint8Array): Promise<void> => {
      const trie = await this.#trie(trieRoot)
      await trie.walkAllNodes(async (node) => {
        const rlp = node.serialize()
        // A node under 32 bytes of RLP sits inside its parent, not under a hash of its own.
        if (rlp.length >= 32) state.set(bytesKey(rlp), rlp)
      })
    }
    if (!equalBytes(root, KECCAK256_RLP)) await collect(root)
    const world = this.#world
    const accounts = await this.#trie(root)
    for (const address of world.accountKeys()) {
      const key = fromHex(address)
      const leaf = await accounts.get(key)
      if (leaf === null) continue
      keys.set(address, key)
      const account = (await loadUtil()).createAccountFromRLP(leaf)
      if (!equalBytes(account.codeHash, KECCAK256_NULL)) {
        const record = world.getAccount(address, height)
        codes.set(bytesKey(account.codeHash), world.getCodeByHash(record.codeHash))
      }
      if (equalBytes(account.storageRoot, KECCAK256_RLP)) continue
      await collect(account.storageRoot)
      for (const [slot, value] of world.storageEntries(address, height)) if (value.some((byte) => byte !== 0)) keys.set(slot, fromHex(slot))
    }
    const sorted = (map: Map<string, Uint8Array>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value)
    return { state: sorted(state), codes: sorted(codes), keys: sorted(keys) }
  }

  /** A trie over the shared node map, at `root` (the empty trie's root when omitted). */
  async #trie(root?: Uint8Array): Promise<MerklePatriciaTrie> {
    const [mpt, util] = await Promise.all([loadMpt(), loadUtil()])
    this.#db ??= new util.MapDB<string, string | Uint8Array>()
    return mpt.createMPT({ db: this.#db, useKeyHashing: true, root })
  }

  async #compute(height: number, final: boolean): Promise<Uint8Array> {
    const journal = this.#world.journal
    if (journal.reverts !== this.#reverts) {
      this.#roots.clear()
      this.#reverts = journal.reverts
    }
    const cached = this.#roots.get(height)
    if (cached !== undefined && (cached.final || cached.writes === journal.writes)) return cached.root
    // The nearest height below whose cached root still holds: only what changed since is put again.
    let base: number | undefined
    for (const [h, entry] of this.#roots) {
      if (h < height && (entry.final || entry.writes === journal.writes) && (base === undefined || h > base)) base = h
    }
    const world = this.#world
    const util = await loadUtil()
    const trie = await this.#trie(base === undefined ? undefined : this.#roots.get(base)!.root)
    const addresses = base === undefined ? world.accountKeys() : world.modifiedAccounts(base, height)
    for (const address of addresses) {
      const record = world.getAccount(address, height)
      const storageRoot = await this.#storageRoot(address, height)
      const key = fromHex(address)
      if (record.nonce === 0n && record.gas === 0n && record.codeHash === undefined && storageRoot === KECCAK256_RLP) {
        if (base !== undefined) await trie.del(key)
        continue
      }
      const codeHash = record.codeHash === undefined ? KECCAK256_NULL : fromHex(record.codeHash)
      await trie.put(key, new util.Account(record.nonce, record.gas, storageRoot, codeHash).serialize())
    }
    const root = trie.root()
    this.#roots.set(height, { root, final, writes: journal.writes })
    return root
  }

  /** Root of the storage trie of `address` as of `height`, built whole ({@link KECCAK256_RLP} when it holds nothing). */
  async #storageRoot(address: string, height: number): Promise<Uint8Array> {
    let trie: MerklePatriciaTrie | undefined
    for (const [slot, value] of this.#world.storageEntries(address, height)) {
      let start = 0
      while (start < value.length && value[start] === 0) start++
      if (start === value.length) continue
      trie ??= await this.#trie()
      await trie.put(fromHex(slot), RLP.encode(value.subarray(start)))
    }
    return trie === undefined ? KECCAK256_RLP : trie.root()
  }
}
