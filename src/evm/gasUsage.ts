/**
 * Gas usage of mined transactions, for the gas report (issue 38, item 2): per runtime
 * code and function selector the gas of each successful transaction that enters it
 * (its receipt's gas used) and of each successful internal call to it (the frame's
 * execution gas, as a trace's call frame reports it), and per deployed code the gas
 * of each top-level creation. Calls and estimates are not counted, as
 * hardhat-gas-reporter counts only transactions.
 *
 * Collected from the EVM's `beforeMessage` and `afterMessage` events (one listener
 * call per frame; the interpreter loop keeps its fast path, which only step listeners
 * leave), only while a mined transaction runs. Without a recorder the engine adds no
 * listener. The evm layer only counts; names come from the artifacts above
 * (src/gas/report.ts).
 */
import type { EVM, Message } from '@ethereumjs/evm'
import { keccak256 } from '../util/hash.ts'
import { toHex } from '../util/hex.ts'

/** The gas measured for one code: by selector (0x-hex, 4 bytes; `''` for a call without one), and its deployments. */
export interface CodeGasUsage {
  /** keccak-256 of the runtime code, 0x-hex. */
  readonly codeHash: `0x${string}`
  readonly code: Uint8Array
  /** Gas of the transactions that entered the code through this selector, in order. */
  readonly transactions: ReadonlyMap<string, readonly bigint[]>
  /** Gas of the internal calls to the code through this selector, in order. */
  readonly internal: ReadonlyMap<string, readonly bigint[]>
  /** Gas used by the transactions that deployed this code, in order. */
  readonly deployments: readonly bigint[]
}

/** What the layers above read: the usage since the last take. */
export interface GasUsageSource {
  /** The usage recorded since the last take, one entry per code, and starts afresh. */
  take(): CodeGasUsage[]
}

interface Entry {
  codeHash: `0x${string}`
  code: Uint8Array
  transactions: Map<string, bigint[]>
  internal: Map<string, bigint[]>
  deployments: bigint[]
}

/** Adds up the gas usage of the devnet's mined transactions. */
export class GasUsageRecorder implements GasUsageSource {
  #byArray = new WeakMap<Uint8Array, Entry>()
  #byHash = new Map<string, Entry>()

  #entry(code: Uint8Array): Entry {
    let entry = this.#byArray.get(code)
    if (entry !== undefined) return entry
    const codeHash = toHex(keccak256(code))
    entry = this.#byHash.get(codeHash)
    if (entry === undefined) {
      entry = { codeHash, code: code.slice(), transactions: new Map(), internal: new Map(), deployments: [] }
      this.#byHash.set(codeHash, entry)
    }
    this.#byArray.set(code, entry)
    return entry
  }

  /** A successful transaction entered `code` with call data `data` and used `gas` (its receipt's). */
  transaction(code: Uint8Array, data: Uint8Array, gas: bigint): void {
    push(this.#entry(code).transactions, selectorOf(data), gas)
  }

  /** A successful internal call ran `code` with `data`, its frame spending `gas`. */
  internal(code: Uint8Array, data: Uint8Array, gas: bigint): void {
    push(this.#entry(code).internal, selectorOf(data), gas)
  }

  /** A successful top-level creation deployed `code`, its transaction using `gas`. */
  deployment(code: Uint8Array, gas: bigint): void {
    this.#entry(code).deployments.push(gas)
  }

  take(): CodeGasUsage[] {
    const taken = [...this.#byHash.values()]
    this.#byArray = new WeakMap()
    this.#byHash = new Map()
    return taken
  }
}

function push(map: Map<string, bigint[]>, key: string, gas: bigint): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [gas])
  else list.push(gas)
}

/** The 4-byte selector of call data as 0x-hex, `''` for data shorter than 4 bytes (fallback or receive). */
function selectorOf(data: Uint8Array): string {
  return data.length < 4 ? '' : toHex(data.subarray(0, 4))
}

/** The frames of one transaction, watched between {@link GasFrames.begin} and {@link GasFrames.end}. */
export interface GasFrames {
  /** A mined transaction starts: its internal calls are recorded from now on. */
  begin(): void
  /** It ended: nothing more is recorded until the next {@link begin}. */
  end(): void
}

/**
 * Listens to `evm`'s frames and records each successful internal call (depth 1 and
 * deeper, with code) into `recorder`, between `begin` and `end`.
 */
export function watchGasFrames(evm: EVM, recorder: GasUsageRecorder): GasFrames {
  let on = false
  const open: (Message | undefined)[] = []
  evm.events.on('beforeMessage', (message: Message) => {
    if (on) open.push(message)
  })
  evm.events.on('afterMessage', (result: { execResult: { executionGasUsed: bigint; exceptionError?: unknown } }) => {
    if (!on) return
    const message = open.pop()
    if (message === undefined || message.depth === 0 || result.execResult.exceptionError !== undefined) return
    // Creations (init code) and precompiles are no function calls of a deployed code.
    const code = message.code
    if (message.to === undefined || !(code instanceof Uint8Array) || code.length === 0) return
    recorder.internal(code, message.data, result.execResult.executionGasUsed)
  })
  return {
    begin() {
      on = true
      open.length = 0
    },
    end() {
      on = false
      open.length = 0
    },
  }
}
