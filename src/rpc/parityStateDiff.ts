/**
 * Parity's `stateDiff` (OpenEthereum trace/types/state_diff.rs, as Erigon's and Anvil's
 * trace_replay* answer it) and the replay that gives it with the flat traces
 * (rpc/parityTrace.ts). Per account the transaction changed: `balance` (the gas token,
 * wei), `nonce`, `code` and `storage` (slot to value, changed slots only), each `"="`
 * (unchanged), `{ "+": v }` (the account came to exist), `{ "-": v }` (it ceased to:
 * self-destructed), or `{ "*": { from, to } }`. The fee payment shows here as the
 * sender's and fee recipient's balances, not as a trace (the chain's gas-token fee
 * logs are no calls).
 *
 * The replay runs the block's earlier EVM transactions on an overlay of the state
 * before the block (chain/replay.ts ReplayWorld), then the transaction with the
 * callTracer, recording the value of every account and slot before the transaction's
 * first write to it.
 */
import type { CallFrameJson, ParityStateDiff, ParityDiff, ParityAccountDiff } from '../core/rpcObjects.ts'
import { ReplayWorld, replayInBlock, type ReplayBudget } from '../chain/replay.ts'
import type { Chain } from '../chain/chain.ts'
import type { ChainBlock } from '../chain/block.ts'
import type { IncludedTransaction } from '../chain/chainTypes.ts'
import type { EvmWorld } from '../evm/execution.ts'
import { CallTracer } from '../evm/tracing/callTracer.ts'
import { TraceUnavailableError } from '../evm/tracing/tracer.ts'
import { EMPTY_ACCOUNT, type AccountRecord } from '../state/worldState.ts'
import { toHex, toQuantity } from '../util/hex.ts'

/** A world that passes everything to `inner` and, while recording, keeps the value before the first write of each account and slot. */
class DiffWorld implements EvmWorld {
  readonly inner: ReplayWorld
  recording = false
  readonly accounts = new Map<string, AccountRecord>()
  readonly slots = new Map<string, Map<string, Uint8Array>>()

  constructor(inner: ReplayWorld) {
    this.inner = inner
  }

  getAccount(address: string): AccountRecord {
    return this.inner.getAccount(address)
  }
  setAccount(address: string, record: AccountRecord | undefined): void {
    if (this.recording && !this.accounts.has(address)) this.accounts.set(address, this.inner.getAccount(address))
    this.inner.setAccount(address, record)
  }
  getStorage(address: string, slot: string): Uint8Array {
    return this.inner.getStorage(address, slot)
  }
  setStorage(address: string, slot: string, value: Uint8Array): void {
    if (this.recording) this.#keepSlot(address, slot)
    this.inner.setStorage(address, slot, value)
  }
  clearStorage(address: string): void {
    // Slots a clear hides are not enumerable here: a self-destructed account's diff is its fields, with the slots the transaction wrote.
    if (this.recording && !this.accounts.has(address)) this.accounts.set(address, this.inner.getAccount(address))
    this.inner.clearStorage(address)
  }
  getCodeByHash(codeHash: string | undefined): Uint8Array {
    return this.inner.getCodeByHash(codeHash)
  }
  putCode(codeHash: string, code: Uint8Array): void {
    this.inner.putCode(codeHash, code)
  }

  #keepSlot(address: string, slot: string): void {
    let slots = this.slots.get(address)
    if (slots === undefined) this.slots.set(address, (slots = new Map()))
    if (!slots.has(slot)) slots.set(slot, this.inner.getStorage(address, slot))
  }
}

/** The result of one replay: the callTracer tree and the state diff. */
export interface ParityReplay {
  root: CallFrameJson
  stateDiff: ParityStateDiff
}

/**
 * Replays the mined EVM transaction `found` (see the module docstring) with the
 * callTracer (size limit `sizeLimit`) under `budget`; throws TraceUnavailableError when
 * a native transaction precedes it in its block, as chain/replay.ts does.
 */
export async function replayWithDiff(chain: Chain, found: IncludedTransaction, sizeLimit: number | undefined, budget: ReplayBudget): Promise<ParityReplay> {
  const world = new DiffWorld(new ReplayWorld(chain.world, found.block.header.height - 1))
  const {
    engine,
    ctx,
    budget: limits,
  } = await replayInBlock(chain, found.block, world, budget, {
    before: found.index,
    nativeError: () => new TraceUnavailableError(`transaction ${toHex(found.tx.hash)} follows a native transaction in its block, which the EVM replay cannot run`),
  })
  if (found.tx.kind !== 'evm') throw new TraceUnavailableError(`transaction ${toHex(found.tx.hash)} is a native transaction`)
  const tracer = new CallTracer({ sizeLimit })
  const detach = tracer.attach(engine.events)
  world.recording = true
  let outcome
  try {
    outcome = await engine.executeTransaction(found.tx.tx, ctx, limits)
  } finally {
    detach()
    world.recording = false
  }
  return { root: tracer.result(outcome, found.tx.tx.gasLimit), stateDiff: diffOf(world) }
}

/**
 * Replays every EVM transaction of `block` in order, once, each with a callTracer of
 * its own and its own state diff (the values before its first write to each account
 * and slot, the earlier transactions' writes included), under one `budget`
 * (trace_replayBlockTransactions). Replaying each on its own would run the ones before
 * it again, quadratic in the block's size. Throws TraceUnavailableError for an EVM
 * transaction a native one precedes, as {@link replayWithDiff} does.
 */
export async function replayBlockWithDiff(chain: Chain, block: ChainBlock, sizeLimit: number | undefined, budget: ReplayBudget): Promise<(ParityReplay & { hash: Uint8Array })[]> {
  const world = new DiffWorld(new ReplayWorld(chain.world, block.header.height - 1))
  const { engine, ctx, budget: limits } = await replayInBlock(chain, block, world, budget)
  const out: (ParityReplay & { hash: Uint8Array })[] = []
  let afterNative = false
  for (const entry of block.transactions) {
    if (entry.kind !== 'evm') {
      afterNative = true
      continue
    }
    if (afterNative) throw new TraceUnavailableError(`transaction ${toHex(entry.hash)} follows a native transaction in its block, which the EVM replay cannot run`)
    world.accounts.clear()
    world.slots.clear()
    const tracer = new CallTracer({ sizeLimit })
    const detach = tracer.attach(engine.events)
    world.recording = true
    let outcome
    try {
      outcome = await engine.executeTransaction(entry.tx, ctx, limits)
    } finally {
      detach()
      world.recording = false
    }
    out.push({ hash: entry.hash, root: tracer.result(outcome, entry.tx.gasLimit), stateDiff: diffOf(world) })
  }
  return out
}

/** EIP-161: an account with no nonce, no balance and no code does not exist. */
const exists = (a: AccountRecord): boolean => a.nonce !== 0n || a.gas !== 0n || a.codeHash !== undefined

function diff(before: string, after: string, existedBefore: boolean, existsAfter: boolean): ParityDiff {
  if (!existedBefore) return { '+': after }
  if (!existsAfter) return { '-': before }
  return before === after ? '=' : { '*': { from: before, to: after } }
}

const word = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex').padStart(64, '0')}`
const slotKey = (slot: string): string => `0x${slot.padStart(64, '0')}`

function diffOf(world: DiffWorld): ParityStateDiff {
  const addresses = new Set([...world.accounts.keys(), ...world.slots.keys()])
  const out: ParityStateDiff = {}
  for (const address of [...addresses].sort()) {
    const before = world.accounts.get(address) ?? world.inner.getAccount(address)
    const after = world.getAccount(address) ?? EMPTY_ACCOUNT
    const was = exists(before)
    const is = exists(after)
    if (!was && !is) continue
    const storage: Record<string, ParityDiff> = {}
    for (const [slot, old] of world.slots.get(address) ?? []) {
      const from = word(old)
      const to = word(world.inner.getStorage(address, slot))
      if (from === to && was && is) continue
      storage[slotKey(slot)] = diff(from, to, was, is)
    }
    const account: ParityAccountDiff = {
      balance: diff(toQuantity(before.gas), toQuantity(after.gas), was, is),
      code: diff(toHex(world.getCodeByHash(before.codeHash)), toHex(world.getCodeByHash(after.codeHash)), was, is),
      nonce: diff(toQuantity(before.nonce), toQuantity(after.nonce), was, is),
      storage,
    }
    if (account.balance === '=' && account.code === '=' && account.nonce === '=' && Object.keys(storage).length === 0) continue
    out[`0x${address}`] = account
  }
  return out
}
