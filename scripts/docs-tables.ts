/**
 * `npm run docs:tables`: renders the method, route and error code tables of the guides
 * (docs/json-rpc.md, docs/rest.md, docs/api.md) from the code, so that the documentation
 * cannot drift from what the devnet serves.
 *
 * - JSON-RPC methods: every key of `rpcMethods` (src/rpc/methods/index.ts), in table
 *   order. Keys bound to the same function are one row: the function's own name, with
 *   the other keys as aliases (how `anvil_*` names reuse the `hardhat_*` modules).
 * - REST routes: every entry of `restRoutes` (src/rest/routes/index.ts), in matching
 *   order, with the envelope's `Action`.
 * - Anvil compatibility: every name of Anvil's list (scripts/anvil-methods.json) with
 *   Anvil, Hardhat (EDR) and dualnet columns, in docs/json-rpc.md after the method table.
 * - Error codes: every code of the registry (src/errors/codes.ts), in its order, with
 *   its answer on each surface from that surface's table (rpc/errorCodes.ts,
 *   rest/errorCodes.ts, devnet/providerErrors.ts); docs/api.md holds it.
 *
 * Descriptions are the first sentence of the docstring on each method's or route's
 * declaration, read from its source file, so they change with the code they describe.
 * A leading `name:` or `name / alias:` is dropped (the row already names it), and a
 * parenthetical beside the name, e.g. `(non-standard, reference §6.2)`, moves to the end.
 * Citations of the reference (`reference §6.2`, `§1.5`), a document users do not have,
 * stay in the code and are left out of the tables: the sentence around them states the fact.
 *
 * Usage: `npm run docs:tables` rewrites each guide between its marker comments;
 * `npm run docs:tables -- --check` only compares and exits 1 on a difference
 * (test/docs-tables.test.ts does the same in the suite).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rpcMethods } from '../src/rpc/methods/index.ts'
import { restRoutes } from '../src/rest/routes/index.ts'
import { DUALNET_ERROR_CODES, dualnetErrorCodes } from '../src/errors/codes.ts'
import { RPC_ERROR_CONVENTIONS } from '../src/rpc/errorCodes.ts'
import { REST_ERROR_CONVENTIONS } from '../src/rest/errorCodes.ts'
import { describe as restDesc } from '../src/rest/errors.ts'
import { EIP1193_ERROR_CONVENTIONS } from '../src/devnet/providerErrors.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const METHODS_DIR = join(ROOT, 'src/rpc/methods')
const ROUTES_DIR = join(ROOT, 'src/rest/routes')
/** The guide that holds each generated table. */
export const TABLE_FILES = {
  'rpc-methods': join(ROOT, 'docs', 'json-rpc.md'),
  'anvil-compat': join(ROOT, 'docs', 'json-rpc.md'),
  'rest-routes': join(ROOT, 'docs', 'rest.md'),
  'error-codes': join(ROOT, 'docs', 'api.md'),
} as const

/** A generated block of a guide: its marker name and its Markdown. */
export interface GeneratedTable {
  readonly name: keyof typeof TABLE_FILES
  readonly markdown: string
}

/** A source file's text, by path (each file is read once per run). */
type Sources = ReadonlyMap<string, string>

function readSources(dir: string): Sources {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .sort()
  return new Map(files.map((f) => [join(dir, f), readFileSync(join(dir, f), 'utf8')]))
}

/**
 * The docstring written right before the `export` declaration that contains `index`
 * of `text`, as one line of prose; undefined when that declaration has none.
 */
function docstringBefore(text: string, index: number): string | undefined {
  const declaration = text.lastIndexOf('\nexport ', index)
  if (declaration < 0) return undefined
  const head = text.slice(0, declaration + 1).trimEnd()
  if (!head.endsWith('*/')) return undefined
  const open = head.lastIndexOf('/**')
  if (open < 0) return undefined
  return head
    .slice(open + 3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * The docstring's first sentence, without a leading `name:` label; a parenthetical
 * beside the label moves to the end. Table cells escape `|`.
 */
export function summary(doc: string | undefined): string {
  if (doc === undefined || doc === '') return ''
  const sentence = doc.split(/(?<=\.)\s+(?=[A-Z`"'(])/)[0]!.replace(/\.$/, '')
  const label = /^\w+(?:\s*\/\s*\w+)*\s*(?:\(([^)]*)\))?:\s+/.exec(sentence)
  let text = sentence
  if (label !== null) {
    text = sentence.slice(label[0].length)
    if (label[1] !== undefined) text = `${text} (${label[1]})`
  }
  // "The real node's spelling" reads as the other cells do; "EVM nonce" keeps its capitals.
  if (/^[A-Z][a-z]/.test(text)) text = text[0]!.toLowerCase() + text.slice(1)
  return withoutCitations(text).replace(/\|/g, '\\|')
}

/**
 * `text` without its citations of the reference (`reference §6.2`, `§1.4.3`, `reference
 * decisions table`), and without the punctuation and empty parentheses they leave.
 */
export function withoutCitations(text: string): string {
  return text
    .replace(/\(§1\.4\.5 field names\)/g, "(the node's field names)")
    .replace(/(?:reference )?§[\d.]*\d(?:, §[\d.]*\d)*|reference decisions table/g, '')
    .replace(/\(\s*[,;:]\s*/g, '(')
    .replace(/\s*[,;]\s*\)/g, ')')
    .replace(/\s*\(\s*\)/g, '')
    .replace(/ of\s*(?=[,;)]|$)/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
}

function missing(what: string): string {
  process.stderr.write(`docs-tables: no docstring for ${what}; its row has no description\n`)
  return ''
}

/** The docstring of the exported declaration named `name` in any of `sources`, preferring `<name>.ts`. */
function docOfExport(sources: Sources, dir: string, name: string): string | undefined {
  const declaration = new RegExp(`^export (?:const|let|function|async function) ${name}\\b`, 'm')
  const preferred = join(dir, `${name}.ts`)
  const ordered = [...sources].sort(([a], [b]) => Number(b === preferred) - Number(a === preferred))
  for (const [, text] of ordered) {
    const match = declaration.exec(text)
    if (match !== null) return docstringBefore(text, match.index + 1)
  }
  return undefined
}

/** The docstring of the route declared with this path literal (`path: '/api/v1/…'`). */
function docOfRoute(sources: Sources, path: string): string | undefined {
  for (const quote of [`'`, `"`, '`']) {
    const literal = `path: ${quote}${path}${quote}`
    for (const [, text] of sources) {
      const at = text.indexOf(literal)
      if (at >= 0) return docstringBefore(text, at)
    }
  }
  return undefined
}

/** The JSON-RPC method table, rendered from `rpcMethods`. */
export function renderRpcMethods(): GeneratedTable {
  const sources = readSources(METHODS_DIR)
  const keysByFunction = new Map<unknown, string[]>()
  for (const [key, entry] of Object.entries(rpcMethods)) {
    // An alias (rpc/declare.ts `alias`) is a declaration of its own that runs the same handler; an `anvilAlias` names it as `runs`.
    const fn = typeof entry === 'function' ? entry : (entry.runs ?? entry.handler)
    const keys = keysByFunction.get(fn)
    if (keys === undefined) keysByFunction.set(fn, [key])
    else keys.push(key)
  }
  const rows = [...keysByFunction].map(([fn, keys]) => {
    // A declaration's handler has no name of the table: its first key (the aliased method comes first) names the row.
    const own = (fn as { name?: string }).name
    const name = own !== undefined && keys.includes(own) ? own : keys[0]!
    const aliases = keys.filter((k) => k !== name)
    const description = summary(docOfExport(sources, METHODS_DIR, name)) || missing(`JSON-RPC method ${name}`)
    return `| \`${name}\` | ${aliases.map((a) => `\`${a}\``).join(', ')} | ${description} |`
  })
  const count = Object.keys(rpcMethods).length
  const markdown = [
    `${count} method names (${rows.length} methods and their aliases), in the order of \`src/rpc/methods/index.ts\`:`,
    '',
    '| method | also answers as | what it does |',
    '|---|---|---|',
    ...rows,
  ].join('\n')
  return { name: 'rpc-methods', markdown }
}

/**
 * Anvil's method list (scripts/anvil-methods.json): every serde name of foundry's
 * `EthRequest` enum (crates/anvil/core/src/eth/mod.rs), the names EDR (Hardhat's network)
 * answers, and the names this chain has no use for, each with its reason.
 */
export interface AnvilMethods {
  readonly source: string
  readonly commit: string
  readonly date: string
  readonly methods: readonly string[]
  readonly hardhat: { readonly source: string; readonly served: readonly string[] }
  readonly notForThisChain: Readonly<Record<string, string>>
}

/** scripts/anvil-methods.json, parsed. */
export function anvilMethods(): AnvilMethods {
  return JSON.parse(readFileSync(join(ROOT, 'scripts', 'anvil-methods.json'), 'utf8')) as AnvilMethods
}

/** The dualnet cell of a served name in the compatibility table (test/docs-tables.test.ts reads it). */
export const SERVED = 'served'
/** The dualnet cell of a name Anvil serves that dualnet does not serve yet. */
export const NOT_YET = 'not yet'

/**
 * The compatibility table: each of Anvil's names, in Anvil's order, with Anvil, Hardhat
 * (EDR) and dualnet columns. dualnet's cell is `served` when `rpcMethods` has the name,
 * the reason when the chain has no use for it, `not yet` otherwise.
 */
export function renderAnvilCompat(list: AnvilMethods = anvilMethods()): GeneratedTable {
  const edr = new Set(list.hardhat.served)
  let served = 0
  let irrelevant = 0
  const rows = list.methods.map((name) => {
    const reason = list.notForThisChain[name]
    let cell: string
    if (Object.hasOwn(rpcMethods, name)) {
      served++
      cell = SERVED
    } else if (reason !== undefined) {
      irrelevant++
      cell = `no use on this chain: ${reason.replace(/\|/g, '\\|')}`
    } else cell = NOT_YET
    return `| \`${name}\` | yes | ${edr.has(name) ? 'yes' : ''} | ${cell} |`
  })
  const rest = list.methods.length - served - irrelevant
  const markdown = [
    `Anvil's ${list.methods.length} method names (foundry \`crates/anvil/core/src/eth/mod.rs\`, the \`EthRequest\` enum's serde names and aliases, commit ${list.commit.slice(0, 10)} of ${list.date}; kept in \`scripts/anvil-methods.json\`): dualnet serves ${served}, ${irrelevant} have no use on this chain, ${rest} are not served yet. Hardhat: ${list.hardhat.source}.`,
    '',
    '| method | Anvil | Hardhat (EDR) | dualnet |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n')
  return { name: 'anvil-compat', markdown }
}

/** The REST route table, rendered from `restRoutes`. */
export function renderRestRoutes(): GeneratedTable {
  const sources = readSources(ROUTES_DIR)
  const rows = restRoutes.map((route) => {
    const description = summary(docOfRoute(sources, route.path)) || missing(`REST route ${route.method} ${route.path}`)
    return `| ${route.method} | \`${route.path}\` | \`${route.action}\` | ${description} |`
  })
  const markdown = [
    `${restRoutes.length} routes, in the matching order of \`src/rest/routes/index.ts\` (\`:name\` is one path segment):`,
    '',
    '| method | path | Action | what it answers |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n')
  return { name: 'rest-routes', markdown }
}

/** The error code table, rendered from the registry and each surface's table. */
export function renderErrorCodes(): GeneratedTable {
  const rows = dualnetErrorCodes.map((code) => {
    const { className, summary: meaning } = DUALNET_ERROR_CODES[code]
    const rpc = RPC_ERROR_CONVENTIONS[code]
    const rpcCell = [
      rpc.code === 'own' ? (rpc.data === 'own' ? 'its own code and data' : 'its own code') : String(rpc.code),
      rpc.message === undefined ? '' : `message \`${rpc.message}\``,
      rpc.data === 'revert' ? 'data: the revert data' : '',
    ]
      .filter((part) => part !== '')
      .join(', ')
    const rest = REST_ERROR_CONVENTIONS[code]
    const restCell =
      'http' in rest ? `HTTP ${rest.http}` : rest.error === 'own' ? 'its own Error and Result' : `${rest.error} ${restDesc(rest.error)}, Result ${rest.result === 'empty' ? '""' : 'the message'}`
    const eip1193 = EIP1193_ERROR_CONVENTIONS[code]
    const eip1193Cell = eip1193 === 'rpc' ? 'the JSON-RPC code' : String(eip1193)
    return `| \`${code}\` | \`${className}\` | ${meaning.replace(/\|/g, '\\|')} | ${rpcCell} | ${restCell} | ${eip1193Cell} |`
  })
  const markdown = [
    `${dualnetErrorCodes.length} codes, in the order of \`src/errors/codes.ts\` (JSON-RPC: the error object's code; REST: the envelope's \`Error\`, \`Desc\` and \`Result\`):`,
    '',
    '| code | class | what it means | JSON-RPC | REST | EIP-1193 |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n')
  return { name: 'error-codes', markdown }
}

/** Every table, as the guides hold them. */
export function renderTables(): GeneratedTable[] {
  return [renderRpcMethods(), renderAnvilCompat(), renderRestRoutes(), renderErrorCodes()]
}

const begin = (name: string) => `<!-- BEGIN GENERATED ${name}: npm run docs:tables -->`
const end = (name: string) => `<!-- END GENERATED ${name} -->`

/**
 * `doc` with each table put between its markers. Throws when a pair of markers is
 * missing, so an edit that drops them is caught rather than silently skipped.
 */
export function applyTables(doc: string, tables: readonly GeneratedTable[]): string {
  let text = doc
  for (const { name, markdown } of tables) {
    const from = text.indexOf(begin(name))
    const to = text.indexOf(end(name))
    if (from < 0 || to < from) throw new Error(`${relative(ROOT, TABLE_FILES[name])} lacks the markers ${begin(name)} … ${end(name)}`)
    text = `${text.slice(0, from)}${begin(name)}\n${markdown}\n${text.slice(to)}`
  }
  return text
}

/** Each guide with a generated table: its path, its text now and its text with the tables rendered. */
export function renderedFiles(): { path: string; current: string; updated: string }[] {
  // A guide may hold several tables (docs/json-rpc.md: the methods and Anvil's list): one entry per guide.
  const byPath = new Map<string, GeneratedTable[]>()
  for (const table of renderTables()) {
    const path = TABLE_FILES[table.name]
    byPath.set(path, [...(byPath.get(path) ?? []), table])
  }
  return [...byPath].map(([path, tables]) => {
    const current = readFileSync(path, 'utf8')
    return { path, current, updated: applyTables(current, tables) }
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  let stale = 0
  for (const { path, current, updated } of renderedFiles()) {
    const name = relative(ROOT, path)
    if (updated === current) {
      console.log(`docs-tables: ${name} is up to date`)
    } else if (process.argv.includes('--check')) {
      process.stderr.write(`docs-tables: ${name} differs from the generated table; run \`npm run docs:tables\`\n`)
      stale++
    } else {
      writeFileSync(path, updated)
      console.log(`docs-tables: ${name} updated`)
    }
  }
  if (stale > 0) process.exit(1)
}
