/**
 * Changes outside any transaction (architecture: chain/, the controls' side): the
 * state setters, loading a state document, the block settings, the mining mode and
 * the pool's edits. Each runs in the chain's queue, is persisted, and is undone by
 * restoring an earlier checkpoint. The public face is Chain's methods of the same names.
 */
import type { BlockSettings } from './blockSettings.ts'
import type { ChainCore } from './chainCore.ts'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import type { AccountRecord, WorldState } from '../state/worldState.ts'

/**
 * Changes the latest state of `address` outside any transaction (the state setters:
 * balances of both tokens, nonce, code). Persisted; undone by restoring an earlier
 * checkpoint. `code` of zero length removes the code.
 */
export function setAccount(core: ChainCore, address: Uint8Array, change: { main?: bigint; gas?: bigint; nonce?: bigint; code?: Uint8Array }): Promise<void> {
  return core.queue.run(async () => {
    const fields: { -readonly [K in keyof AccountRecord]?: AccountRecord[K] } = {}
    if (change.main !== undefined) fields.main = change.main
    if (change.gas !== undefined) fields.gas = change.gas
    if (change.nonce !== undefined) fields.nonce = change.nonce
    if (change.code !== undefined) {
      if (change.code.length === 0) fields.codeHash = undefined
      else {
        const codeHash = toHexRaw(keccak256(change.code))
        core.world.putCode(codeHash, change.code)
        fields.codeHash = codeHash
      }
    }
    core.world.updateAccount(toHexRaw(address), core.blocks.height, fields)
    committed(core)
  })
}

/** Chain.setStorage: sets a storage slot in the latest state (a value of all zeros clears it). */
export function setStorage(core: ChainCore, address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
  return core.queue.run(async () => {
    // Stored without its leading zero bytes (all zeros: empty, i.e. cleared).
    let i = 0
    while (i < value.length && value[i] === 0) i++
    core.world.setStorage(toHexRaw(address), toHexRaw(slot), value.subarray(i), core.blocks.height)
    committed(core)
  })
}

/**
 * Writes state outside any transaction in one step of the queue (loading a state
 * document): `write` gets the world and the height to write at. Persisted as one
 * batch; if `write` throws, everything it wrote is undone and nothing persists.
 */
export function writeState(core: ChainCore, write: (world: WorldState, height: number) => void): Promise<void> {
  return core.queue.run(async () => {
    const position = core.world.journal.position
    try {
      write(core.world, core.blocks.height)
    } catch (err) {
      core.world.journal.revertTo(position)
      throw err
    }
    committed(core)
  })
}

/**
 * Changes the block settings in the chain's queue, so that a block being mined
 * keeps the environment it started with (see {@link BlockSettings}); with a
 * durable database, writes them at once.
 */
export function changeBlockSettings(core: ChainCore, change: (settings: BlockSettings) => void): Promise<void> {
  return core.queue.run(async () => {
    change(core.settings)
    // As a moved clock (saveClock): with a durable database the settings survive a crash.
    if (core.store.durable) core.store.persist()
  })
}

/** Chain.setAutomine: switches automine; turning it on mines what the pool holds that is executable, one block per transaction. */
export function setAutomine(core: ChainCore, on: boolean): Promise<void> {
  return core.queue.run(async () => {
    core.automine = on
    if (!on) return
    try {
      for (const tx of core.mempool.executable((sender) => core.world.getAccount(sender, core.blocks.height).nonce)) {
        await core.miner.mineReady(toHexRaw(tx.from))
      }
    } finally {
      core.watchers.announce(core.blocks.height)
    }
  })
}

/**
 * Removes pending transactions (hardhat_dropTransaction and Anvil's pool edits):
 * with `hashes` (raw hex, no 0x) those of either kind; with `sender` (20 bytes)
 * every EVM transaction from it; with neither, the whole pool. A later
 * transaction of the same sender stays, waiting for the freed nonce. Resolves to
 * the raw hashes removed. Mined transactions are not touched.
 */
export function dropPending(core: ChainCore, which: { hashes?: readonly string[]; sender?: Uint8Array }): Promise<string[]> {
  return core.queue.run(async () => {
    const { mempool } = core
    const dropped = which.hashes !== undefined ? which.hashes.filter((hash) => mempool.drop(hash)) : which.sender !== undefined ? mempool.dropSender(toHexRaw(which.sender)) : mempool.dropAll()
    core.store.persistPool()
    return dropped
  })
}

/** After a write outside any transaction: persists it and trims the journal to what live checkpoints need. */
function committed(core: ChainCore): void {
  core.store.persist()
  core.checkpoints.trimJournal()
}
