/**
 * go-ethereum's prestateTracer (eth/tracers/native/prestate.go): the accounts an
 * execution touches as they were before it, `{ <address>: { balance, nonce?, code?,
 * storage? } }` (balance: gas-token wei as 0x-hex; nonce a JSON number, omitted when
 * 0; code omitted when empty; storage: the slots read or written, 32-byte hex, omitted
 * when none). Touched: the sender, the recipient or created contract, the block's
 * coinbase and the chain's fee recipient, governance 0x…07 (reference §6.4: the chain
 * pays every fee there, where geth's fee recipient is the coinbase), every call target and created contract, the address operand of BALANCE,
 * EXTCODE* and SELFDESTRUCT, and the slots of SLOAD and SSTORE. `diffMode` answers
 * `{ pre, post }` instead: only accounts that changed, `pre` with the slots that
 * changed, `post` with the fields that changed (zeroed slots left out; a destroyed
 * account only in `pre`). `disableCode` / `disableStorage` leave those fields out.
 * A contract the execution created, empty before, is not in `pre` (geth's rule), but
 * diffMode's `post` has it (its code and nonce), as geth diffs before dropping it.
 * diffMode needs the state after the execution: debug_traceCall's simulation keeps
 * none, and is refused (-32000) rather than answered with an empty diff.
 */
import { toHex, toQuantity } from '../../util/hex.ts'
import { GOVERNANCE_ADDRESS } from '../../core/constants.ts'
import type { AccountRecord } from '../../state/worldState.ts'
import { configObject, defineTracer, flag } from './definition.ts'
import { listen, TraceUnavailableError, type EvmEvents, type StepEvent, type Tracer, type TraceState } from './tracer.ts'
import type { PrestateAccountJson, PrestateResult } from '../../core/rpcObjects.ts'

export type { PrestateAccountJson, PrestateResult } from '../../core/rpcObjects.ts'

/** `tracerConfig` of the prestateTracer (go-ethereum `prestateTracerConfig`). */
export interface PrestateTracerConfig {
  diffMode?: boolean
  disableCode?: boolean
  disableStorage?: boolean
}

/** An account as recorded: its record, and its slots (64 hex) with their values. */
export interface AccountSnapshot {
  record: AccountRecord
  code: Uint8Array
  storage: Map<string, Uint8Array>
}

const ADDRESS_OPS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT'])
const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

const raw = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
const addressOf = (word: bigint): string => word.toString(16).padStart(64, '0').slice(-40)
const slotOf = (word: bigint): string => word.toString(16).padStart(64, '0')
const word32 = (value: Uint8Array): `0x${string}` => `0x${raw(value).padStart(64, '0').slice(-64)}`
const isZero = (value: Uint8Array): boolean => value.every((b) => b === 0)
const isEmpty = (record: AccountRecord): boolean => record.nonce === 0n && record.gas === 0n && record.codeHash === undefined

/** An account's JSON as the prestateTracer renders it (geth's `account`, omitempty fields left out). */
export function renderAccount(snapshot: AccountSnapshot, config: PrestateTracerConfig): PrestateAccountJson {
  const out: PrestateAccountJson = { balance: toQuantity(snapshot.record.gas) }
  if (snapshot.record.nonce !== 0n) out.nonce = Number(snapshot.record.nonce)
  if (!config.disableCode && snapshot.code.length > 0) out.code = toHex(snapshot.code)
  if (!config.disableStorage && snapshot.storage.size > 0) {
    out.storage = {}
    for (const [slot, value] of [...snapshot.storage].sort(([a], [b]) => (a < b ? -1 : 1))) out.storage[`0x${slot}`] = word32(value)
  }
  return out
}

/**
 * The state diff of go-ethereum's prestateTracer in diffMode (`processDiffState`):
 * from the accounts as they were (`pre`, with the slots touched) and the state after
 * (`state`), the accounts that changed, `pre` keeping the changed slots only and `post`
 * the changed fields (zeroed slots and destroyed accounts left out). Exported for the
 * Parity-style state diffs (trace_* `stateDiff`).
 */
export function diffPrestate(
  pre: ReadonlyMap<string, AccountSnapshot>,
  state: TraceState,
): {
  pre: Map<string, AccountSnapshot>
  post: Map<string, { record: AccountRecord; code: Uint8Array | undefined; storage: Map<string, Uint8Array>; changed: { balance: boolean; nonce: boolean; code: boolean } }>
} {
  const before = new Map<string, AccountSnapshot>()
  const after = new Map<string, { record: AccountRecord; code: Uint8Array | undefined; storage: Map<string, Uint8Array>; changed: { balance: boolean; nonce: boolean; code: boolean } }>()
  for (const [address, old] of pre) {
    const record = state.account(address)
    if (isEmpty(record) && !isEmpty(old.record)) {
      // Destroyed: its state is only in pre.
      before.set(address, old)
      continue
    }
    const changed = { balance: record.gas !== old.record.gas, nonce: record.nonce !== old.record.nonce, code: record.codeHash !== old.record.codeHash }
    const keptSlots = new Map<string, Uint8Array>()
    const postSlots = new Map<string, Uint8Array>()
    for (const [slot, value] of old.storage) {
      const now = state.storage(address, slot)
      if (word32(now) === word32(value)) continue
      keptSlots.set(slot, value)
      if (!isZero(now)) postSlots.set(slot, now)
    }
    if (!changed.balance && !changed.nonce && !changed.code && keptSlots.size === 0) continue
    before.set(address, { ...old, storage: keptSlots })
    after.set(address, { record, code: changed.code ? state.code(record.codeHash) : undefined, storage: postSlots, changed })
  }
  return { pre: before, post: after }
}

/** The prestateTracer; one instance per trace. */
export class PrestateTracer implements Tracer<PrestateResult> {
  readonly #config: PrestateTracerConfig
  #state: TraceState | undefined
  readonly #pre = new Map<string, AccountSnapshot>()
  readonly #created = new Set<string>()

  constructor(config: PrestateTracerConfig = {}) {
    this.#config = config
  }

  bind(state: TraceState): void {
    if (this.#config.diffMode && !state.committed) {
      throw new TraceUnavailableError('prestateTracer diffMode: this trace (debug_traceCall) keeps no state after the call to diff against; trace a mined transaction')
    }
    this.#state = state
  }

  attach(events: EvmEvents): () => void {
    return listen(events, {
      step: (step) => this.#step(step),
      beforeMessage: (message) => {
        if (message.depth === 0) {
          this.#touch(raw(message.caller.bytes))
          if (this.#state !== undefined) this.#touch(raw(this.#state.coinbase))
          this.#touch(raw(GOVERNANCE_ADDRESS))
        }
        if (message.to !== undefined) this.#touch(raw(message.to.bytes))
      },
      afterMessage: (result) => {
        const created = result.createdAddress
        if (created === undefined) return
        const address = raw(created.bytes)
        this.#created.add(address)
        this.#touch(address)
      },
    })
  }

  #step(step: StepEvent): void {
    const { name } = step.opcode
    const stack = step.stack
    const top = stack[stack.length - 1]
    if (top === undefined) return
    if (name === 'SLOAD' || name === 'SSTORE') this.#touchSlot(raw(step.address.bytes), slotOf(top))
    else if (ADDRESS_OPS.has(name)) this.#touch(addressOf(top))
    else if (CALL_OPS.has(name)) {
      const target = stack[stack.length - 2]
      if (target !== undefined) this.#touch(addressOf(target))
    }
  }

  /** Records `address` as it is before the execution, once (the world holds the state before it until it ends). */
  #touch(address: string): AccountSnapshot {
    let snapshot = this.#pre.get(address)
    if (snapshot === undefined) {
      const state = this.#need()
      const record = state.account(address)
      snapshot = { record, code: state.code(record.codeHash), storage: new Map() }
      this.#pre.set(address, snapshot)
    }
    return snapshot
  }

  #touchSlot(address: string, slot: string): void {
    const snapshot = this.#touch(address)
    if (!snapshot.storage.has(slot)) snapshot.storage.set(slot, this.#need().storage(address, slot))
  }

  #need(): TraceState {
    if (this.#state === undefined) throw new Error('prestateTracer: the replay gave no state to read')
    return this.#state
  }

  result(): PrestateResult {
    // geth's order: the diff first, then a contract created here, empty before, is dropped from pre (it had no prestate).
    const diff = this.#config.diffMode ? diffPrestate(this.#pre, this.#need()) : undefined
    const before = diff?.pre ?? this.#pre
    for (const address of this.#created) if (isEmpty(before.get(address)?.record ?? { nonce: 0n, gas: 0n, main: 0n, codeHash: undefined })) before.delete(address)
    const render = (map: ReadonlyMap<string, AccountSnapshot>): Record<`0x${string}`, PrestateAccountJson> => {
      const out: Record<`0x${string}`, PrestateAccountJson> = {}
      for (const [address, snapshot] of map) out[`0x${address}`] = renderAccount(snapshot, this.#config)
      return out
    }
    if (diff === undefined) return render(this.#pre)
    const { pre, post } = diff
    const postJson: Record<`0x${string}`, PrestateAccountJson> = {}
    for (const [address, entry] of post) {
      const json: PrestateAccountJson = {}
      if (entry.changed.balance) json.balance = toQuantity(entry.record.gas)
      if (entry.changed.nonce) json.nonce = Number(entry.record.nonce)
      if (entry.changed.code && !this.#config.disableCode && entry.code !== undefined && entry.code.length > 0) json.code = toHex(entry.code)
      if (!this.#config.disableStorage && entry.storage.size > 0) {
        json.storage = {}
        for (const [slot, value] of entry.storage) json.storage[`0x${slot}`] = word32(value)
      }
      postJson[`0x${address}`] = json
    }
    return { pre: render(pre), post: postJson }
  }
}

/** The prestateTracer's declaration (registry.ts): `tracerConfig` `{ diffMode?, disableCode?, disableStorage? }` (go-ethereum `prestateTracerConfig`), result {@link PrestateResult}. */
export const prestateTracer = defineTracer({
  name: 'prestateTracer',
  config: (value, ctx): PrestateTracerConfig => {
    const config = configObject(value, 'native.prestateTracerConfig', ctx)
    return {
      diffMode: flag(config, 'diffMode', 'prestateTracerConfig', ctx),
      disableCode: flag(config, 'disableCode', 'prestateTracerConfig', ctx),
      disableStorage: flag(config, 'disableStorage', 'prestateTracerConfig', ctx),
    }
  },
  create: (config) => new PrestateTracer(config),
})
