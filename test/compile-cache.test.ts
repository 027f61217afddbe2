/**
 * Node's compile cache (src/util/compileCache.ts): importing the package enables it
 * where Node has `module.enableCompileCache()` (≥ 22.8), in Node's default directory
 * (`<os.tmpdir()>/node-compile-cache`; the children get a TMPDIR of their own, and no
 * NODE_COMPILE_CACHE, which would enable it without the package), and leaves it off
 * under NODE_DISABLE_COMPILE_CACHE and while NODE_V8_COVERAGE collects coverage; on
 * Node 20 importing is a no-op.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const INDEX = fileURLToPath(new URL('../src/index.ts', import.meta.url))
const supported = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const dir = mkdtempSync(join(tmpdir(), 'dualnet-compile-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The compile cache directory of a fresh process (TMPDIR `dir`) after it imports the package with `env` added ('none' when off or unsupported). */
function cacheDirAfterImport(env: Record<string, string>): string {
  const script = `
    import * as m from 'node:module'
    await import(${JSON.stringify(INDEX)})
    console.log(m.getCompileCacheDir?.() ?? 'none')`
  const clean = { ...process.env }
  for (const name of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'NODE_V8_COVERAGE']) delete clean[name]
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000, env: { ...clean, TMPDIR: dir, ...env } })
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`)
  return child.stdout.trim().split('\n').at(-1)!
}

describe('compile cache', () => {
  it(supported ? 'importing the package enables it in the default directory' : 'importing the package changes nothing on a Node without the API', () => {
    const cache = cacheDirAfterImport({})
    if (supported) expect(cache.startsWith(join(dir, 'node-compile-cache'))).toBe(true)
    else expect(cache).toBe('none')
  })

  it('stays off with NODE_DISABLE_COMPILE_CACHE=1 and while NODE_V8_COVERAGE collects coverage', () => {
    expect(cacheDirAfterImport({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBe('none')
    expect(cacheDirAfterImport({ NODE_V8_COVERAGE: join(dir, 'coverage') })).toBe('none')
  })
})
