/**
 * The contracts the explorer names (the `explorer: { artifacts }` listen option,
 * `--artifacts`): the compiler output under the given paths, read with coverage's
 * loader without sources (src/coverage/buildInfo.ts: Hardhat 2 and 3, Foundry, a
 * build-info directory, solc standard-JSON output, or per-contract artifacts) and
 * matched with its bytecode matcher (src/coverage/match.ts: immutables, library
 * addresses and the metadata trailer masked).
 *
 * The files are read when the page first asks, not when the devnet starts, and read
 * again when they change: each request lists the JSON files under the paths with their
 * modification times and sizes, and a listing that differs from the one read last
 * (a project compiled after the devnet started, or again) loads them afresh.
 */
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { type CompiledContract, loadCompilations, signatureOf } from '../coverage/buildInfo.ts'
import { BytecodeMatcher } from '../coverage/match.ts'
import { keccak256 } from '../util/hash.ts'
import { toHex } from '../util/hex.ts'
import type { AbiParam, ExplorerAbiItem, ExplorerContract, SignatureMatch } from './api/contractTypes.ts'

/** What one reading of the artifacts gives. */
interface Loaded {
  readonly matcher: BytecodeMatcher
  /** Each contract's answer, built once. */
  readonly described: Map<CompiledContract, ExplorerContract>
  /** Every function, event and error by selector, one per signature. */
  readonly bySelector: ReadonlyMap<string, readonly SignatureMatch[]>
}

/** Directories a listing passes over, as the loader does (and where a project's packages are). */
const SKIPPED = new Set(['node_modules', '.git', 'cache'])

/** The most files a listing stats: beyond, a change is noticed by the count only. */
const MAX_LISTED = 20_000

/** The contracts of the artifacts under some paths, read lazily and again when they change. */
export class ExplorerArtifacts {
  readonly #paths: readonly string[]
  #loaded: Promise<Loaded> | undefined
  /** The listing {@link #loaded} was read at. */
  #loadedStamp = ''
  /** One listing serves the requests that arrive while it runs. */
  #stamping: Promise<string> | undefined

  /** `paths`: project directories, artifacts or build-info directories, or JSON files (the listen option's `artifacts`). */
  constructor(paths: readonly string[]) {
    this.#paths = paths
  }

  /**
   * The contract whose runtime bytecode `code` is, or `null` for empty code or none of
   * the artifacts. Rejects with CoverageError (src/coverage/buildInfo.ts) when a path
   * is gone or a file is not JSON.
   */
  async contractOf(code: Uint8Array): Promise<ExplorerContract | null> {
    if (code.length === 0) return null
    const loaded = await this.#current()
    const found = loaded.matcher.match(code, false)
    return found === undefined ? null : describe(found.contract, loaded.described)
  }

  /** The ABI items of all artifacts with `selector` (0x and 8 or 64 lower-case hex digits); `[]` for none. Rejects as {@link contractOf}. */
  async signature(selector: string): Promise<readonly SignatureMatch[]> {
    return (await this.#current()).bySelector.get(selector) ?? []
  }

  async #current(): Promise<Loaded> {
    const stamp = await (this.#stamping ??= listing(this.#paths).finally(() => {
      this.#stamping = undefined
    }))
    if (this.#loaded !== undefined && this.#loadedStamp === stamp) return this.#loaded
    this.#loadedStamp = stamp
    const loading: Promise<Loaded> = load(this.#paths).catch((err: unknown) => {
      // A failed reading is not kept: the next request tries again.
      if (this.#loaded === loading) this.#loaded = undefined
      throw err
    })
    this.#loaded = loading
    return loading
  }
}

async function load(paths: readonly string[]): Promise<Loaded> {
  const { contracts } = await loadCompilations(paths, { sources: false })
  const described = new Map<CompiledContract, ExplorerContract>()
  const bySelector = new Map<string, SignatureMatch[]>()
  const seen = new Set<string>()
  for (const contract of contracts) {
    const { name, abi } = describe(contract, described)
    for (const item of abi) {
      // ERC-20's and ERC-721's Transfer share a signature, not which parameters are topics.
      const key = `${item.type} ${item.signature} ${item.inputs.map((p) => (p.indexed === true ? 'i' : '-')).join('')}`
      if (seen.has(key)) continue
      seen.add(key)
      const list = bySelector.get(item.selector) ?? []
      list.push({ contract: name, item })
      bySelector.set(item.selector, list)
    }
  }
  return { matcher: new BytecodeMatcher(contracts), described, bySelector }
}

/** The answer for `contract`: its name and its functions, events and errors with their selectors. */
function describe(contract: CompiledContract, cache: Map<CompiledContract, ExplorerContract>): ExplorerContract {
  let answer = cache.get(contract)
  if (answer !== undefined) return answer
  const abi: ExplorerAbiItem[] = []
  for (const item of contract.abi) {
    const entry = item as { type?: unknown; name?: unknown; inputs?: unknown; outputs?: unknown; anonymous?: unknown }
    if (entry.type !== 'function' && entry.type !== 'event' && entry.type !== 'error') continue
    const signature = signatureOf(item)
    if (signature === undefined || typeof entry.name !== 'string') continue
    const hash = keccak256(new TextEncoder().encode(signature))
    abi.push({
      type: entry.type,
      name: entry.name,
      inputs: entry.inputs as AbiParam[],
      ...(entry.type === 'function' && Array.isArray(entry.outputs) ? { outputs: entry.outputs as AbiParam[] } : {}),
      ...(entry.anonymous === true ? { anonymous: true } : {}),
      signature,
      selector: toHex(entry.type === 'event' ? hash : hash.subarray(0, 4)),
    })
  }
  answer = { name: `${contract.sourcePath}:${contract.name}`, abi }
  cache.set(contract, answer)
  return answer
}

/**
 * What the artifacts under `paths` are now, as one string: each JSON file's path,
 * modification time and size (a project's `artifacts/` or `out/` where it has one,
 * else the directory; node_modules, .git and cache passed over). Equal strings: the
 * loader would read the same.
 */
async function listing(paths: readonly string[]): Promise<string> {
  const lines: string[] = []
  const add = async (file: string) => {
    const info = await stat(file).catch(() => undefined)
    if (info !== undefined) lines.push(`${file} ${info.mtimeMs} ${info.size}`)
  }
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (lines.length >= MAX_LISTED) return
      const full = path.join(dir, entry.name)
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) await walk(full)
      else if (entry.isFile() && entry.name.endsWith('.json')) await add(full)
    }
  }
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined)
    if (info === undefined) lines.push(`${given} missing`)
    else if (info.isFile()) await add(given)
    else {
      const subs = []
      for (const sub of ['artifacts', 'out']) if ((await stat(path.join(given, sub)).catch(() => undefined))?.isDirectory() === true) subs.push(path.join(given, sub))
      for (const dir of subs.length === 0 ? [given] : subs) await walk(dir)
    }
  }
  return lines.join('\n')
}
