/**
 * The method, route and error code tables of docs/json-rpc.md, docs/rest.md and
 * docs/api.md equal what `npm run docs:tables` renders from the method and route tables
 * and the error registry, so the documentation cannot drift from the code.
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  anvilMethods,
  applyTables,
  NOT_YET,
  renderAnvilCompat,
  renderedFiles,
  SERVED,
  renderErrorCodes,
  renderRestRoutes,
  renderRpcMethods,
  renderTables,
  summary,
  TABLE_FILES,
  withoutCitations,
} from '../scripts/docs-tables.ts'
import { dualnetErrorCodes } from '../src/errors/codes.ts'
import { rpcMethods } from '../src/rpc/methods/index.ts'
import { restRoutes } from '../src/rest/routes/index.ts'

describe('generated reference tables', () => {
  it('equal the tables generated from the code (run `npm run docs:tables` after adding a method or route)', () => {
    const files = renderedFiles()
    expect(files.map((f) => relative(process.cwd(), f.path)).sort()).toEqual(['docs/api.md', 'docs/json-rpc.md', 'docs/rest.md'])
    for (const { current, updated } of files) expect(updated).toBe(current)
  })

  it('list every JSON-RPC method name, with aliases on the row of the module they reuse', () => {
    const table = renderRpcMethods().markdown
    for (const name of Object.keys(rpcMethods)) expect(table).toContain(`\`${name}\``)
    expect(table).toContain('| `hardhat_mine` | `anvil_mine` | mines `blocks` blocks (default 1)')
    expect(table).toContain('| `eth_chainId` |  | the EIP-155 chain id ("0x3039" on solo) |')
  })

  it("list every name of Anvil's list, and mark served only names of the method table", () => {
    const list = anvilMethods()
    expect(new Set(list.methods).size).toBe(list.methods.length)
    for (const name of [...list.hardhat.served, ...Object.keys(list.notForThisChain)]) expect(list.methods).toContain(name)
    // Read back from the guide as committed, so a hand edit that marks a name served is caught too.
    const guide = readFileSync(TABLE_FILES['anvil-compat'], 'utf8')
    const rows = [...guide.matchAll(/^\| `(\w+)` \| yes \| (?:yes)? \| ([^|\n]+?) \|$/gm)]
    expect(rows.map((r) => r[1])).toEqual(list.methods)
    for (const [, name, cell] of rows) {
      if (cell === SERVED) expect(Object.hasOwn(rpcMethods, name!), `${name} is marked served but is not in the method table`).toBe(true)
      else expect(cell === NOT_YET || cell!.startsWith('no use on this chain: ')).toBe(true)
    }
    expect(renderAnvilCompat().markdown).toContain('| `eth_getWork` | yes |  | no use on this chain: proof-of-work mining')
  })

  it("serves every name of Anvil's list but those this chain has no use for (issue 34's acceptance)", () => {
    const list = anvilMethods()
    const unserved = list.methods.filter((name) => !Object.hasOwn(rpcMethods, name) && list.notForThisChain[name] === undefined)
    expect(unserved, 'Anvil names neither served nor listed in scripts/anvil-methods.json notForThisChain with the reason').toEqual([])
    expect(renderAnvilCompat().markdown).not.toContain(`| ${NOT_YET} |`)
  })

  it('list every REST route with its Action', () => {
    const table = renderRestRoutes().markdown
    for (const route of restRoutes) expect(table).toContain(`| ${route.method} | \`${route.path}\` | \`${route.action}\` |`)
    expect(table).toContain('| GET | `/api/v1/block/height` | `getblockheight` | the current height (genesis = 0) |')
  })

  it('list every error code with its answer on JSON-RPC, REST and EIP-1193', () => {
    const table = renderErrorCodes().markdown
    for (const code of dualnetErrorCodes) expect(table).toContain(`| \`${code}\` |`)
    expect(table).toContain('| -32000, message `header not found` | 45001 INTERNAL ERROR, Result the message | the JSON-RPC code |')
  })

  it('cite no section of the reference, a document users do not have', () => {
    for (const { markdown } of renderTables()) expect(markdown).not.toMatch(/§|reference decisions/)
  })

  it('take the first sentence of a docstring, without its label, escaping pipes', () => {
    expect(summary('eth_x (non-standard, §6.2): the logs; null when unknown. More text.')).toBe('the logs; null when unknown (non-standard)')
    expect(summary('hardhat_a / anvil_a: sets A|B; true.')).toBe('sets A\\|B; true')
    expect(summary('The real spelling.')).toBe('the real spelling')
    expect(summary(undefined)).toBe('')
  })

  it('drop citations with the punctuation they leave', () => {
    expect(withoutCitations('"0x3039" on solo (reference §6.2)')).toBe('"0x3039" on solo')
    expect(withoutCitations('a chain id ("0x3039" on solo, reference §6.2)')).toBe('a chain id ("0x3039" on solo)')
    expect(withoutCitations('constant 1 (reference §6.2, §8)')).toBe('constant 1')
    expect(withoutCitations('writes nothing (reference §6.2: the block argument is required)')).toBe('writes nothing (the block argument is required)')
    expect(withoutCitations('the solo constants of §1.2')).toBe('the solo constants')
    expect(withoutCitations('at the real path (reference decisions table: serve both)')).toBe('at the real path (serve both)')
  })

  it('refuse a guide without the markers', () => {
    expect(() => applyTables('# no markers\n', renderTables())).toThrow(/lacks the markers/)
  })
})
