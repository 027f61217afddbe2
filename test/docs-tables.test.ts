/**
 * The README's reference tables equal what `npm run docs:tables` renders from the
 * method and route tables, so the documentation cannot drift from the code.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { applyTables, README_PATH, renderRestRoutes, renderRpcMethods, renderTables, summary } from '../scripts/docs-tables.ts'
import { rpcMethods } from '../src/rpc/methods/index.ts'
import { restRoutes } from '../src/rest/routes/index.ts'

describe('README reference tables', () => {
  it('equal the tables generated from the code (run `npm run docs:tables` after adding a method or route)', () => {
    const readme = readFileSync(README_PATH, 'utf8')
    expect(applyTables(readme, renderTables())).toBe(readme)
  })

  it('list every JSON-RPC method name, with aliases on the row of the module they reuse', () => {
    const table = renderRpcMethods().markdown
    for (const name of Object.keys(rpcMethods)) expect(table).toContain(`\`${name}\``)
    expect(table).toContain('| `hardhat_mine` | `anvil_mine` | mines `blocks` blocks (default 1)')
    expect(table).toContain('| `eth_chainId` |  | the EIP-155 chain id ("0x3039" on solo, reference §6.2) |')
  })

  it('list every REST route with its Action', () => {
    const table = renderRestRoutes().markdown
    for (const route of restRoutes) expect(table).toContain(`| ${route.method} | \`${route.path}\` | \`${route.action}\` |`)
    expect(table).toContain('| GET | `/api/v1/block/height` | `getblockheight` | the current height (genesis = 0) |')
  })

  it('take the first sentence of a docstring, without its label, escaping pipes', () => {
    expect(summary('eth_x (non-standard, §6.2): the logs; null when unknown. More text.')).toBe('the logs; null when unknown (non-standard, §6.2)')
    expect(summary('hardhat_a / anvil_a: sets A|B; true.')).toBe('sets A\\|B; true')
    expect(summary('The real spelling.')).toBe('the real spelling')
    expect(summary(undefined)).toBe('')
  })

  it('refuse a README without the markers', () => {
    expect(() => applyTables('# no markers\n', renderTables())).toThrow(/lacks the markers/)
  })
})
