/**
 * Code coverage collected by the EVM itself (issue 38): per code the program
 * counters its frames executed and, per JUMPI, whether it jumped and whether it fell
 * through. The patched interpreter loop (patches/interpreterLoop.ts) writes into the
 * recorder of an EVM registered with {@link recordCoverage}; an EVM without one
 * pays one WeakMap lookup per frame and one `undefined` check per opcode.
 *
 * The recorder keeps two counters per code byte (executions, and jumps of a JUMPI:
 * 8 bytes per code byte), one pair per distinct code: runtime code is
 * found by the identity of its `Uint8Array` (the ledger hands out one array per
 * code hash, as the jump-analysis cache relies on), then by its keccak-256 hash the
 * first time an array is seen; init code (a fresh array per creation) likewise, merged by hash across creations.
 * So memory is bounded by the distinct code run, not by the number of executions;
 * a take drops the init code's entries (one per set of constructor arguments).
 *
 * Runtime code and init code (constructors, CREATE/CREATE2 init code) are recorded
 * apart even when their bytes are equal, since their source maps differ
 * (`evm.deployedBytecode` against `evm.bytecode` of solc's output). Init code is the
 * creation bytecode with the constructor's ABI-encoded arguments appended.
 *
 * The evm layer only collects; mapping to sources lives in src/coverage/, above.
 */
import { keccak256 } from '../util/hash.ts'
import { toHex } from '../util/hex.ts'

/** What one code's frames executed, as {@link CoverageSource.take} hands it out. */
export interface CodeCoverage {
  /** keccak-256 of {@link code}, 0x-hex. */
  readonly codeHash: `0x${string}`
  /** True for init code (a constructor's run), false for runtime code. */
  readonly creation: boolean
  /** The code's bytes (runtime code, or init code with its constructor arguments). */
  readonly code: Uint8Array
  /** Per code byte: how many times an instruction starting there ran (0 for push data and code never reached). */
  readonly counts: Uint32Array
  /**
   * Per code byte: how many times the JUMPI there jumped (condition non-zero); it fell
   * through `counts - jumps` times (an invalid destination, which ends the frame, counts
   * as falling through: compilers never emit one).
   */
  readonly jumps: Uint32Array
}

/** The coverage an EVM collected, read and reset by the layers above (the chain's executor exposes it). */
export interface CoverageSource {
  /**
   * The coverage recorded since the last take (or since the start), one entry per
   * distinct code run, and starts afresh when `reset` (default true). The arrays are
   * copies: later executions do not change what was taken.
   */
  take(reset?: boolean): CodeCoverage[]
  /** Set by the reader: called when the recorder holds many init codes and the reader should take now. */
  onFull: (() => void) | undefined
}

/** The two arrays the interpreter loop writes for one frame's code. */
export interface CodeHits {
  readonly counts: Uint32Array
  readonly jumps: Uint32Array
}

/** One code's entry. */
interface Entry extends CodeHits {
  readonly codeHash: `0x${string}`
  readonly creation: boolean
  readonly code: Uint8Array
}

/** Collects the coverage of the EVMs registered with it (the devnet's main engine). */
export class CoverageRecorder implements CoverageSource {
  /** Runtime code by array identity (weak: nothing outlives the ledger's arrays). */
  readonly #byArray = new WeakMap<Uint8Array, Entry>()
  /** Init code by array identity, for the frames of one creation (a step of ethereumjs' own loop asks per opcode). */
  #creationByArray = new WeakMap<Uint8Array, Entry>()
  /** Init code entries made since the last take. */
  #creations = 0
  /** Every entry by kind and hash. */
  readonly #byHash = new Map<string, Entry>()

  /**
   * The hit map of a frame running `code` (`creation`: init code), made the first time
   * the code runs; the interpreter loop sets bits in it for each opcode the frame
   * executes. Called once per frame.
   */
  hitsFor(code: Uint8Array, creation: boolean): CodeHits {
    const byArray = creation ? this.#creationByArray : this.#byArray
    const known = byArray.get(code)
    if (known !== undefined) return known
    const codeHash = toHex(keccak256(code))
    const key = creation ? `c${codeHash}` : `r${codeHash}`
    let entry = this.#byHash.get(key)
    if (entry === undefined) {
      if (creation && ++this.#creations > CREATION_LIMIT) {
        // Before the new entry: the reader's take drops the init code entries held so far.
        this.#creations = 1
        this.onFull?.()
      }
      entry = { codeHash, creation, code: code.slice(), counts: new Uint32Array(code.length), jumps: new Uint32Array(code.length) }
      this.#byHash.set(key, entry)
    }
    ;(creation ? this.#creationByArray : this.#byArray).set(code, entry)
    return entry
  }

  /**
   * Called when the init code entries held reach {@link CREATION_LIMIT} (each set of
   * constructor arguments is a code of its own): the reader takes now, which drops
   * them, so that a suite deploying thousands of contracts holds no more. Without
   * one, they are held until the next take.
   */
  onFull: (() => void) | undefined

  take(reset = true): CodeCoverage[] {
    const taken: CodeCoverage[] = []
    for (const entry of this.#byHash.values()) {
      if (!entry.counts.some((n) => n !== 0)) continue
      taken.push({ codeHash: entry.codeHash, creation: entry.creation, code: entry.code, counts: entry.counts.slice(), jumps: entry.jumps.slice() })
    }
    if (reset) {
      // Runtime code's arrays are zeroed in place, not replaced: a frame under way (a take
      // between two awaits of an execution) keeps counting into them, so none of its
      // counts is lost. Init code's entries are dropped: each set of constructor
      // arguments is a code of its own, and keeping them would grow with every deployment.
      for (const [key, entry] of this.#byHash) {
        if (entry.creation) this.#byHash.delete(key)
        else {
          entry.counts.fill(0)
          entry.jumps.fill(0)
        }
      }
      this.#creationByArray = new WeakMap()
      this.#creations = 0
    }
    return taken
  }
}

/** Init code entries a recorder holds before it asks its reader to take ({@link CoverageRecorder.onFull}). */
export const CREATION_LIMIT = 256

const recorders = new WeakMap<object, CoverageRecorder>()

/** Has the interpreter loop record the coverage of every frame `evm` runs into `recorder`. */
export function recordCoverage(evm: object, recorder: CoverageRecorder): void {
  recorders.set(evm, recorder)
}

/** The recorder of `evm`, or undefined (coverage off: the common case). */
export function coverageRecorderOf(evm: object): CoverageRecorder | undefined {
  return recorders.get(evm)
}
