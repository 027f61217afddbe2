/**
 * The devnet's gas snapshots: `devnet.gasSnapshot(name, txHash | receipt)` and
 * `dualnet_gasSnapshot`, with the option `gasSnapshot` (the CLI's `--gas-snapshot`,
 * `--gas-snapshot-check`, `--gas-snapshot-tolerance`). The rules and the file are
 * src/gas/ (docs/gas-snapshots.md), shared with the vitest matcher.
 */
import { resolve } from 'node:path'
import { changedGasSnapshots, GasSnapshotMismatchError, type GasSnapshotChange } from '../gas/snapshots.ts'
import { readGasSnapshotFile, writeGasSnapshotFile } from '../gas/snapshotFile.ts'

/** The `gasSnapshot` option of createDevnet. */
export interface GasSnapshotOption {
  /** The snapshot file, relative to the working directory. Default `.gas-snapshot.json`. */
  file?: string
  /** Check mode: compare each measurement with the file and refuse a change, writing nothing. Default false. */
  check?: boolean
  /** In check mode, how far a measurement may move and pass, in percent of the file's gas (Foundry's `--tolerance`), 0 to 1,000,000. Default 0. */
  tolerance?: number
}

/** Gas measurements of one devnet, written into or checked against its snapshot file. */
export class GasSnapshotRecorder {
  /** The snapshot file, absolute. */
  readonly file: string
  readonly #check: boolean
  readonly #tolerance: number
  /** Whether the devnet was given the `gasSnapshot` option (the gas report's figures go into the file only then). */
  readonly configured: boolean
  readonly #changes: GasSnapshotChange[] = []

  constructor(option?: GasSnapshotOption) {
    this.configured = option !== undefined
    option ??= {}
    this.file = resolve(option.file ?? '.gas-snapshot.json')
    this.#check = option.check ?? false
    this.#tolerance = option.tolerance ?? 0
  }

  /**
   * Records `gas` under `name`. Without check mode it is merged into the file at once
   * (under the file's lock). In check mode it is compared with the file's entry; a gas
   * that moved by more than the tolerance, or a name the file lacks, is kept for
   * {@link changes} and throws {@link GasSnapshotMismatchError}.
   */
  record(name: string, gas: bigint): bigint {
    const measured = new Map([[name, gas]])
    if (!this.#check) {
      writeGasSnapshotFile(this.file, measured)
      return gas
    }
    const changed = changedGasSnapshots(readGasSnapshotFile(this.file), measured, { tolerance: this.#tolerance })
    if (changed.length > 0) {
      this.#changes.push(...changed)
      throw new GasSnapshotMismatchError(this.file, changed, this.#tolerance)
    }
    return gas
  }

  /**
   * Records every entry of `measured` at once (the gas report's figures at close):
   * merged into the file in one write, or in check mode compared, each change kept for
   * {@link changes} without throwing (the close reports them all).
   */
  recordAll(measured: ReadonlyMap<string, bigint>): void {
    if (measured.size === 0) return
    if (!this.#check) writeGasSnapshotFile(this.file, measured)
    else this.#changes.push(...changedGasSnapshots(readGasSnapshotFile(this.file), measured, { tolerance: this.#tolerance }))
  }

  /** The measurements that failed the check so far, in order (the CLI lists them and exits with 1). */
  get changes(): readonly GasSnapshotChange[] {
    return this.#changes
  }

  /** In check mode: the error listing every change so far, or undefined when there is none. */
  mismatch(): GasSnapshotMismatchError | undefined {
    return this.#changes.length === 0 ? undefined : new GasSnapshotMismatchError(this.file, this.#changes, this.#tolerance)
  }
}
