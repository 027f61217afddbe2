/**
 * From the instructions that ran to istanbul's per-file coverage data
 * (istanbul-lib-coverage's `FileCoverageData`: statementMap, fnMap, branchMap and
 * their counts s, f, b), through the compiler's source maps.
 *
 * Each instruction that ran counts for the source range its source-map element
 * names. A statement's count is the largest count of the instructions inside its
 * range (so the condition of a loop counts its iterations); a function's, the largest
 * count of the instructions the compiler attributes to the whole function (its entry
 * and exit). A branch's arms are counted at the JUMPI the compiler attributes to the
 * branch node (the `if` statement, the conditional, the `require` call): how often it
 * jumped and how often it fell through, each direction assigned to its arm by where
 * it leads (into the true arm; into a REVERT for `require`). Where no such JUMPI ran
 * (an optimizer that restructured it), an arm with code of its own counts its
 * instructions and an implicit arm what the branch ran beyond the other.
 */
import type { CoverageFileData as FileCoverageData, CoverageRange as Range } from '../core/rpcObjects.ts'
import type { CompiledBytecode, CompiledContract, SourceUnit } from './buildInfo.ts'
import { instructionIndexes } from './sourceMap.ts'
import { sourceItems, type ByteRange } from './sourceItems.ts'

/** What one compiled bytecode's runs add up to: per code byte, executions and JUMPI jumps. */
export interface BytecodeRuns {
  readonly contract: CompiledContract
  readonly bytecode: CompiledBytecode
  readonly counts: Float64Array
  readonly jumps: Float64Array
}

/** One instruction that ran, where its source-map element puts it. */
interface Executed {
  readonly start: number
  readonly length: number
  readonly count: number
  /** For a JUMPI: its jumps, and whether falling through leads into `fellInto` / to a revert. */
  readonly jumpi?: { readonly jumps: number; readonly next: ByteRange | undefined; readonly fallsToRevert: boolean }
}

const JUMP = 0x56
const JUMPI = 0x57
const STOP = 0x00
const RETURN = 0xf3
const REVERT = 0xfd
const INVALID = 0xfe
const SELFDESTRUCT = 0xff
const PUSH1 = 0x60
const PUSH32 = 0x7f

/**
 * Whether a source belongs in the report: the project's own sources, not its
 * dependencies (npm packages, Foundry's `lib/`), Hardhat's console or Foundry tests
 * and scripts (`.t.sol`, `.s.sol`), as solidity-coverage and `forge coverage` leave them out.
 */
export function isReported(sourcePath: string): boolean {
  return !(
    sourcePath.includes('node_modules/') ||
    sourcePath.startsWith('@') ||
    sourcePath.startsWith('lib/') ||
    sourcePath.startsWith('npm/') ||
    sourcePath.startsWith('forge-std/') ||
    sourcePath === 'hardhat/console.sol' ||
    sourcePath.endsWith('.t.sol') ||
    sourcePath.endsWith('.s.sol')
  )
}

/**
 * istanbul's coverage data of every reported source of `sources` (by source path;
 * `fileName` names the file in the report, e.g. an absolute path), counted from
 * `runs`. A source no run touched is there with zero counts.
 */
export function fileCoverages(runs: Iterable<BytecodeRuns>, sources: ReadonlyMap<string, SourceUnit>, fileName: (unit: SourceUnit) => string): Record<string, FileCoverageData> {
  const executed = new Map<string, Executed[]>()
  for (const run of runs) collect(run, executed)
  const out: Record<string, FileCoverageData> = {}
  for (const unit of sources.values()) {
    if (!isReported(unit.path)) continue
    const name = fileName(unit)
    out[name] = fileCoverage(
      name,
      unit,
      (executed.get(unit.path) ?? []).sort((a, b) => a.start - b.start),
    )
  }
  return out
}

/** Adds the instructions of `run` that ran to `into`, by source path. */
function collect(run: BytecodeRuns, into: Map<string, Executed[]>): void {
  const { object, sourceMap } = run.bytecode
  const indexes = instructionIndexes(object)
  for (let pc = 0; pc < object.length; pc++) {
    const count = run.counts[pc]!
    if (count === 0) continue
    const index = indexes[pc]!
    const entry = index < 0 ? undefined : sourceMap[index]
    if (entry === undefined || entry.start < 0) continue
    const unit = run.contract.sources.get(entry.file)
    if (unit === undefined) continue
    let list = into.get(unit.path)
    if (list === undefined) into.set(unit.path, (list = []))
    if (object[pc] === JUMPI) {
      const next = sourceMap[index + 1]
      list.push({
        start: entry.start,
        length: entry.length,
        count,
        jumpi: { jumps: run.jumps[pc]!, next: next?.file === entry.file ? next : undefined, fallsToRevert: fallsToRevert(run.bytecode, pc + 1, index + 1) },
      })
    } else list.push({ start: entry.start, length: entry.length, count })
  }
}

/**
 * Whether the straight line of code from `pc` (instruction `index`) ends in REVERT or
 * INVALID: calls into internal functions (JUMPs the source map marks `i`) return to
 * the next instruction and are stepped over; any other JUMP, STOP or RETURN ends it.
 */
function fallsToRevert(bytecode: CompiledBytecode, pc: number, index: number): boolean {
  const { object, sourceMap } = bytecode
  for (let steps = 0; pc < object.length && steps < 512; steps++, index++) {
    const op = object[pc]!
    if (op === REVERT || op === INVALID) return true
    if (op === STOP || op === RETURN || op === SELFDESTRUCT) return false
    if (op === JUMP && sourceMap[index]?.jump !== 'i') return false
    pc += op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 2 : 1
  }
  return false
}

/** The executed instructions of `sorted` inside `range`. */
function inside(sorted: readonly Executed[], range: ByteRange): Executed[] {
  const end = range.start + range.length
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]!.start < range.start) lo = mid + 1
    else hi = mid
  }
  const found: Executed[] = []
  for (let i = lo; i < sorted.length && sorted[i]!.start < end; i++) if (sorted[i]!.start + sorted[i]!.length <= end) found.push(sorted[i]!)
  return found
}

function maxCount(list: readonly Executed[]): number {
  let max = 0
  for (const e of list) if (e.count > max) max = e.count
  return max
}

function contains(outer: ByteRange, inner: ByteRange): boolean {
  return inner.start >= outer.start && inner.start + inner.length <= outer.start + outer.length
}

/** One source's istanbul data. */
function fileCoverage(name: string, unit: SourceUnit, executed: readonly Executed[]): FileCoverageData {
  const items = sourceItems(unit.ast)
  const locate = locator(unit.content)
  const data: FileCoverageData = { path: name, statementMap: {}, fnMap: {}, branchMap: {}, s: {}, f: {}, b: {} }
  items.statements.forEach((statement, i) => {
    data.statementMap[i] = locate(statement)
    data.s[i] = maxCount(inside(executed, statement))
  })
  items.functions.forEach((fn, i) => {
    const within = inside(executed, fn)
    const whole = within.filter((e) => e.start === fn.start && e.length === fn.length)
    const loc = locate(fn)
    data.fnMap[i] = { name: fn.name, decl: locate(fn.decl), loc, line: loc.start.line }
    data.f[i] = maxCount(whole.length > 0 ? whole : within)
  })
  items.branches.forEach((branch, i) => {
    const loc = locate(branch)
    data.branchMap[i] = { loc, type: branch.type === 'require' ? 'if' : branch.type, locations: branch.arms.map(locate), line: loc.start.line }
    const within = inside(executed, branch)
    const governing = within.filter((e) => e.jumpi !== undefined && e.start === branch.start && e.length === branch.length)
    const counts: [number, number] = [0, 0]
    if (governing.length > 0) {
      for (const { count, jumpi } of governing) {
        const jumped = jumpi!.jumps
        const fell = count - jumped
        // Falling through enters the true arm (if, ?:) or the revert (require): that direction is its arm.
        const fellIsFirst = branch.type === 'require' ? !jumpi!.fallsToRevert : jumpi!.next !== undefined && contains(branch.arms[0], jumpi!.next)
        counts[0] += fellIsFirst ? fell : jumped
        counts[1] += fellIsFirst ? jumped : fell
      }
    } else {
      const total = maxCount(within)
      const first = branch.armHasCode[0] ? maxCount(inside(executed, branch.arms[0])) : total
      const second = branch.armHasCode[1] ? maxCount(inside(executed, branch.arms[1])) : Math.max(0, total - first)
      counts[0] = first
      counts[1] = second
    }
    data.b[i] = counts
  })
  return data
}

/** Byte offset to istanbul's position (line from 1, column from 0 in characters). */
function locator(content: string): (range: ByteRange) => Range {
  const bytes = Buffer.from(content, 'utf8')
  const lineStarts = [0]
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineStarts.push(i + 1)
  const position = (offset: number) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: bytes.toString('utf8', lineStarts[lo]!, Math.min(offset, bytes.length)).length }
  }
  return (range) => ({ start: position(range.start), end: position(range.start + range.length) })
}
