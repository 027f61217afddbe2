/**
 * Node's compile cache (src/util/compileCache.ts): the CLI enables it where Node has
 * `module.enableCompileCache()` (≥ 22.8), in Node's default directory
 * (`<os.tmpdir()>/node-compile-cache`; the children get a TMPDIR of their own and no
 * NODE_COMPILE_CACHE, which would enable it without the CLI), and leaves it off under
 * NODE_DISABLE_COMPILE_CACHE and while NODE_V8_COVERAGE collects coverage. Importing the
 * library never enables it (it is process-wide: a user's own modules would be cached).
 * On Node 20 nothing changes.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const INDEX = fileURLToPath(new URL('../src/index.ts', import.meta.url))
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const supported = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const root = mkdtempSync(join(tmpdir(), 'dualnet-compile-cache-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Runs `args` under node with tsx in a fresh TMPDIR, `env` added; resolves to stdout and whether Node's default cache directory exists after. */
function run(args: string[], env: Record<string, string> = {}): { stdout: string; cached: boolean } {
  const dir = mkdtempSync(join(root, 'tmp-'))
  const clean = { ...process.env }
  for (const name of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'NODE_V8_COVERAGE']) delete clean[name]
  const child = spawnSync(process.execPath, ['--import', 'tsx', ...args], { encoding: 'utf8', timeout: 120_000, env: { ...clean, TMPDIR: dir, ...env } })
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`)
  return { stdout: child.stdout, cached: existsSync(join(dir, 'node-compile-cache')) }
}

// Each child starts the CLI under tsx from a fresh TMPDIR (so no tsx cache: the whole source
// tree is transformed again), up to two children a test: on a loaded machine that is far
// beyond the default 30 s, so the limit is the children's own (120 s each) and some.
describe('compile cache', { timeout: 300_000 }, () => {
  it(supported ? 'the CLI enables it in the default directory' : 'the CLI runs unchanged on a Node without the API', () => {
    const { stdout, cached } = run([CLI, '--version'])
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    expect(cached).toBe(supported)
  })

  it('importing the library leaves it off', () => {
    const script = `import * as m from 'node:module'; await import(${JSON.stringify(INDEX)}); console.log(m.getCompileCacheDir?.() ?? 'none')`
    expect(run(['--input-type=module', '-e', script]).stdout.trim().split('\n').at(-1)).toBe('none')
  })

  it('the CLI leaves it off with NODE_DISABLE_COMPILE_CACHE=1 and while NODE_V8_COVERAGE collects coverage', () => {
    expect(run([CLI, '--version'], { NODE_DISABLE_COMPILE_CACHE: '1' }).cached).toBe(false)
    expect(run([CLI, '--version'], { NODE_V8_COVERAGE: join(root, 'coverage') }).cached).toBe(false)
  })
})
