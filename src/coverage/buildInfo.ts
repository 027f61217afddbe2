/**
 * The compiler output coverage reads: solc standard-JSON output with its input, as
 * Hardhat 2 (`artifacts/build-info/<id>.json`: `{ _format, id, solcVersion, input,
 * output }`), Hardhat 3 (`artifacts/build-info/<id>.json` with the input and
 * `<id>.output.json` with the output) and Foundry (`out/build-info/<id>.json`) write
 * it, or a bare standard-JSON output file (`{ contracts, sources }`). From each: the
 * sources (path, solc's source id, AST, text) and every contract's creation and runtime
 * bytecode with its source map, immutable and link references.
 *
 * A source's text comes from the input's `sources[path].content`; where the file
 * holds no input (a bare output, Foundry without `--build-info` input), from the
 * disk, relative to the project root (or the current directory).
 *
 * Read without sources (`{ sources: false }`, what the explorer names contracts with),
 * source maps and ASTs are not needed, every contract's ABI counts (interfaces too),
 * and where no compilation is found the per-contract artifacts are read instead:
 * Hardhat 2 and 3 (`artifacts/**\/<Name>.json`: `{ contractName, sourceName, abi,
 * bytecode, deployedBytecode }`) and Foundry (`out/<File>.sol/<Name>.json`: `{ abi,
 * bytecode: { object }, deployedBytecode: { object, immutableReferences }, metadata }`).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { parseSourceMap, type SourceMapEntry } from './sourceMap.ts'
import { keccak256 } from '../util/hash.ts'
import { toHex } from '../util/hex.ts'

/** A node of solc's compact JSON AST, as far as coverage reads it. */
export interface AstNode {
  readonly nodeType: string
  /** `start:length:sourceIndex`, byte offsets. */
  readonly src: string
  readonly [field: string]: unknown
}

/** One source file of a compilation. */
export interface SourceUnit {
  /** The source id of this compilation (`output.sources[path].id`; what source maps name). */
  readonly id: number
  /** The source's name in the compilation (e.g. `contracts/Token.sol`). */
  readonly path: string
  /** Its text. */
  readonly content: string
  readonly ast: AstNode
  /** The directory its path is relative to: the project's (the directory holding `artifacts/` or `out/`), else the current directory. */
  readonly root: string
}

/** One bytecode (creation or runtime) of a contract. */
export interface CompiledBytecode {
  /** The bytes, link placeholders as zeros. */
  readonly object: Uint8Array
  /** One entry per instruction. */
  readonly sourceMap: readonly SourceMapEntry[]
  /** Byte ranges [start, length] whose deployed value differs from `object`: immutables and library addresses. */
  readonly masked: readonly (readonly [number, number])[]
}

/** A contract of a compilation. */
export interface CompiledContract {
  readonly sourcePath: string
  readonly name: string
  readonly creation: CompiledBytecode | undefined
  readonly runtime: CompiledBytecode | undefined
  /** The sources of its compilation by source id (generated sources are not among them). */
  readonly sources: ReadonlyMap<number, SourceUnit>
  /** Its functions' signatures by selector (0x-hex), from `evm.methodIdentifiers` or else its ABI. */
  readonly methods: ReadonlyMap<string, string>
  /** Its ABI as the compiler wrote it (JSON items: functions, events, errors, …); `[]` when the output has none. */
  readonly abi: readonly unknown[]
}

/** What {@link loadCompilations} found. */
export interface Compilations {
  readonly contracts: readonly CompiledContract[]
  /** Every source by path (the first compilation's where several hold one). */
  readonly sources: ReadonlyMap<string, SourceUnit>
}

/**
 * Coverage that cannot be made: asked of a devnet without the `coverage` option, or
 * from an artifacts path that holds no compiler output coverage can read (JSON-RPC
 * -32000). Nothing changes: the coverage recorded so far is kept.
 */
export class CoverageError extends DualnetError {
  override readonly name = 'CoverageError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_COVERAGE'
}

/** How {@link loadCompilations} reads. */
export interface LoadOptions {
  /**
   * Default true (coverage, gas reports): only compilations with sources, ASTs and source
   * maps count, and a path without one is an error. False (the explorer): ABIs and
   * bytecodes are enough, per-contract artifacts are read where no compilation is, and a
   * path holding none yet (a project not compiled yet) gives no contracts.
   */
  readonly sources?: boolean
}

/**
 * Reads the compiler output under `paths`: each a project directory (its
 * `artifacts/build-info` or `out/build-info`), a build-info directory, or one JSON
 * file (build-info or standard-JSON output); without sources (`options.sources`
 * false), also an artifacts directory of per-contract files (Hardhat's `artifacts/`,
 * Foundry's `out/`). Throws {@link CoverageError} naming the path for one that does
 * not exist or, with sources, holds no compilation with source maps.
 */
export async function loadCompilations(paths: readonly string[], options: LoadOptions = {}): Promise<Compilations> {
  const withSources = options.sources !== false
  const contracts: CompiledContract[] = []
  const sources = new Map<string, SourceUnit>()
  for (const given of paths) {
    const files = await jsonFiles(given)
    let found = 0
    for (const { file, root } of files) {
      // Without sources the path may be a project's root, whose JSON files are not all JSON (tsconfig.json's comments).
      const json = withSources ? await readJson(file) : await readJson(file).catch(() => undefined)
      if (isHardhat3Output(json)) continue // read beside its input file
      const compilation = await compilationOf(json, file, root, withSources)
      if (compilation === undefined) continue
      found++
      for (const unit of compilation.sources.values()) if (!sources.has(unit.path)) sources.set(unit.path, unit)
      contracts.push(...compilation.contracts)
    }
    if (found === 0 && !withSources) {
      contracts.push(...(await contractArtifacts(given)))
      continue
    }
    if (found === 0)
      throw new CoverageError(
        `${given}: no solc output with source maps and ASTs (a Hardhat or Foundry build-info, or standard-JSON output with evm.bytecode.sourceMap, evm.deployedBytecode.sourceMap and ast)`,
      )
  }
  return { contracts, sources }
}

/** The JSON files `given` names, each with the directory its sources' paths are relative to. */
async function jsonFiles(given: string): Promise<{ file: string; root: string }[]> {
  const info = await stat(given).catch(() => undefined)
  if (info === undefined) throw new CoverageError(`${given}: no such file or directory`)
  if (info.isFile()) return [{ file: given, root: process.cwd() }]
  for (const [sub, root] of [
    [path.join(given, 'artifacts', 'build-info'), given],
    [path.join(given, 'out', 'build-info'), given],
    [path.join(given, 'build-info'), path.dirname(given)],
  ] as const) {
    if ((await stat(sub).catch(() => undefined))?.isDirectory() === true) return listJson(sub, root)
  }
  // A build-info directory itself: its project is two levels up (artifacts/build-info, out/build-info).
  return listJson(given, path.dirname(path.dirname(path.resolve(given))))
}

async function listJson(dir: string, root: string): Promise<{ file: string; root: string }[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()
  return names.map((n) => ({ file: path.join(dir, n), root }))
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8')
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new CoverageError(`${file}: not JSON (${(err as Error).message})`)
  }
}

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isHardhat3Output(json: unknown): boolean {
  return isObject(json) && json._format === 'hh3-sol-build-info-output-1'
}

/** The compilation a JSON file holds, or undefined for a file that is none (an artifact, a debug file). */
async function compilationOf(json: unknown, file: string, root: string, withSources: boolean): Promise<{ sources: Map<number, SourceUnit>; contracts: CompiledContract[] } | undefined> {
  if (!isObject(json)) return undefined
  const input: unknown = json.input
  let output: unknown = json.output
  if (json._format === 'hh3-sol-build-info-1' && output === undefined) {
    // Hardhat 3 keeps the output beside: <id>.output.json.
    const outFile = file.replace(/\.json$/, '.output.json')
    const outJson = await readJson(outFile).catch(() => undefined)
    output = isObject(outJson) ? outJson.output : undefined
  }
  if (output === undefined && isObject(json.contracts) && isObject(json.sources)) output = json
  if (!isObject(output) || !isObject(output.sources) || !isObject(output.contracts)) return undefined
  const inputSources = isObject(input) && isObject(input.sources) ? input.sources : {}
  const sources = new Map<number, SourceUnit>()
  for (const [sourcePath, value] of withSources ? Object.entries(output.sources) : []) {
    if (!isObject(value) || typeof value.id !== 'number' || !isObject(value.ast)) continue
    const given = inputSources[sourcePath]
    const content = isObject(given) && typeof given.content === 'string' ? given.content : await readFile(path.resolve(root, sourcePath), 'utf8').catch(() => undefined)
    if (content === undefined) continue
    sources.set(value.id, { id: value.id, path: sourcePath, content, ast: value.ast as unknown as AstNode, root })
  }
  if (withSources && sources.size === 0) return undefined
  const contracts: CompiledContract[] = []
  for (const [sourcePath, byName] of Object.entries(output.contracts)) {
    if (!isObject(byName)) continue
    for (const [name, contract] of Object.entries(byName)) {
      // Without sources an ABI alone counts (`outputSelection` of `abi` only, an interface).
      const evm = isObject(contract) && isObject(contract.evm) ? contract.evm : withSources || !isObject(contract) ? undefined : {}
      if (evm === undefined) continue
      const creation = bytecodeOf(evm.bytecode, `${file}: ${sourcePath}:${name} bytecode`, withSources)
      const runtime = bytecodeOf(evm.deployedBytecode, `${file}: ${sourcePath}:${name} deployedBytecode`, withSources)
      if (withSources && creation === undefined && runtime === undefined) continue
      const abi = (contract as Json).abi
      contracts.push({ sourcePath, name, creation, runtime, sources, methods: methodsOf(evm.methodIdentifiers, abi), abi: Array.isArray(abi) ? abi : [] })
    }
  }
  return { sources, contracts }
}

/**
 * A bytecode object with its source map, or undefined when either is missing or empty
 * (interfaces, abstract contracts). Without `withSourceMap`, the map may be missing (then
 * empty), and `value` may be the 0x-hex string of a Hardhat artifact, its immutables in
 * `immutables` (Hardhat 3's `immutableReferences` beside the bytecode).
 */
function bytecodeOf(value: unknown, label: string, withSourceMap: boolean, immutables?: unknown): CompiledBytecode | undefined {
  if (typeof value === 'string' && !withSourceMap) value = { object: value, immutableReferences: immutables }
  if (!isObject(value) || typeof value.object !== 'string' || value.object === '' || value.object === '0x') return undefined
  if (withSourceMap && (typeof value.sourceMap !== 'string' || value.sourceMap === '')) return undefined
  const hex = value.object.startsWith('0x') ? value.object.slice(2) : value.object
  const masked: [number, number][] = []
  // Unlinked library placeholders, 40 characters for a 20-byte address: `__$<34 hex>$__`
  // (solc 0.5 and later) or `__<name padded with _>` (earlier); hex has no `_`.
  const linked = hex.replace(/__.{38}/g, (placeholder, offset: number) => {
    masked.push([offset / 2, 20])
    return '0'.repeat(placeholder.length)
  })
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(linked)) throw new CoverageError(`${label}: not hex`)
  for (const refs of Object.values(isObject(value.immutableReferences) ? value.immutableReferences : {})) {
    if (!Array.isArray(refs)) continue
    for (const ref of refs) if (isObject(ref) && typeof ref.start === 'number' && typeof ref.length === 'number') masked.push([ref.start, ref.length])
  }
  let sourceMap: SourceMapEntry[] = []
  try {
    if (typeof value.sourceMap === 'string' && value.sourceMap !== '') sourceMap = parseSourceMap(value.sourceMap)
  } catch (err) {
    throw new CoverageError(`${label}: ${(err as Error).message}`)
  }
  return { object: Uint8Array.from(Buffer.from(linked, 'hex')), sourceMap, masked }
}

/** Signatures by selector: solc's `methodIdentifiers` (signature to selector), else computed from the ABI's functions. */
function methodsOf(identifiers: unknown, abi: unknown): Map<string, string> {
  const methods = new Map<string, string>()
  if (isObject(identifiers)) {
    for (const [signature, selector] of Object.entries(identifiers)) if (typeof selector === 'string') methods.set(`0x${selector}`, signature)
    return methods
  }
  if (!Array.isArray(abi)) return methods
  for (const item of abi) {
    if (!isObject(item) || item.type !== 'function') continue
    const signature = signatureOf(item)
    if (signature !== undefined) methods.set(toHex(keccak256(new TextEncoder().encode(signature)).subarray(0, 4)), signature)
  }
  return methods
}

/**
 * An ABI item's canonical signature, `transfer(address,uint256)` (tuples as their
 * components in parentheses), what its selector or event topic is the keccak-256 of
 * (Solidity ABI spec, "Function Selector"); undefined for an item without a name or inputs.
 */
export function signatureOf(item: unknown): string | undefined {
  if (!isObject(item) || typeof item.name !== 'string' || !Array.isArray(item.inputs)) return undefined
  return `${item.name}(${item.inputs.map(canonicalType).join(',')})`
}

/** An ABI parameter's canonical type: tuples as their components in parentheses, array suffixes kept. */
function canonicalType(param: unknown): string {
  if (!isObject(param) || typeof param.type !== 'string') return ''
  if (!param.type.startsWith('tuple')) return param.type
  const components = Array.isArray(param.components) ? param.components.map(canonicalType).join(',') : ''
  return `(${components})${param.type.slice('tuple'.length)}`
}

/** Directories an artifacts walk passes over: not per-contract artifacts, or not the project's. */
const NOT_ARTIFACTS = new Set(['build-info', 'node_modules', 'cache', '.git'])

/** The most files an artifacts walk reads: a wrong path (a home directory) stops there. */
const MAX_ARTIFACT_FILES = 20_000

/**
 * The contracts of the per-contract artifacts under `given` (its `artifacts/` or `out/`
 * when it is a project): Hardhat 2 and 3 (`{ contractName, sourceName, abi, bytecode,
 * deployedBytecode, immutableReferences? }`, its `.dbg.json` files passed over) and
 * Foundry (`{ abi, bytecode: { object }, deployedBytecode: { object, immutableReferences },
 * metadata.settings.compilationTarget }`, the source from the directory name when the
 * metadata is missing). A JSON file that is neither is passed over.
 */
async function contractArtifacts(given: string): Promise<CompiledContract[]> {
  if ((await stat(given).catch(() => undefined))?.isDirectory() !== true) return []
  let dir = given
  for (const sub of ['artifacts', 'out']) {
    if ((await stat(path.join(given, sub)).catch(() => undefined))?.isDirectory() === true) {
      dir = path.join(given, sub)
      break
    }
  }
  const files: string[] = []
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      if (files.length >= MAX_ARTIFACT_FILES) return
      const full = path.join(at, entry.name)
      if (entry.isDirectory() && !NOT_ARTIFACTS.has(entry.name)) await walk(full)
      else if (entry.isFile() && entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json')) files.push(full)
    }
  }
  await walk(dir)
  const contracts: CompiledContract[] = []
  for (const file of files.sort()) {
    const json = await readJson(file).catch(() => undefined)
    if (!isObject(json) || !Array.isArray(json.abi)) continue
    const target =
      isObject(json.metadata) && isObject(json.metadata.settings) && isObject(json.metadata.settings.compilationTarget) ? Object.entries(json.metadata.settings.compilationTarget)[0] : undefined
    const name = typeof json.contractName === 'string' ? json.contractName : typeof target?.[1] === 'string' ? target[1] : path.basename(file, '.json')
    const sourcePath = typeof json.sourceName === 'string' ? json.sourceName : (target?.[0] ?? path.basename(path.dirname(file)))
    let creation: CompiledBytecode | undefined
    let runtime: CompiledBytecode | undefined
    try {
      creation = bytecodeOf(json.bytecode, `${file}: bytecode`, false)
      runtime = bytecodeOf(json.deployedBytecode, `${file}: deployedBytecode`, false, json.immutableReferences)
    } catch {
      continue // not hex: no artifact of a compiler
    }
    contracts.push({ sourcePath, name, creation, runtime, sources: new Map(), methods: methodsOf(json.methodIdentifiers, json.abi), abi: json.abi })
  }
  return contracts
}
