/**
 * The packed package's types as a new project meets them: `npm pack`, then a new ES
 * module project and a new CommonJS project each install the tarball with ethers,
 * viem, vitest, TypeScript and @types/node, write README.md's "A test in 20 lines" as
 * it stands, and type-check it with `strict: true` and `skipLibCheck: false` (module
 * and moduleResolution nodenext), then run it with vitest; the CommonJS project also
 * `require()`s the package and a subpath. The types hold only while dist/'s declarations are
 * self-contained (scripts/build.ts bundles them): a declaration that reached the EVM's
 * modules would bring in @ethereumjs/evm's, which do not compile without @types/debug.
 * A third project has no @types/node at all (dualnet, viem and two compilers, none of
 * which brings Node's types): a user's file that imports `dualnet`, `dualnet/vitest`
 * and `dualnet/viem`, as an ES module (.mts) and as CommonJS (.cts), type-checks under
 * TypeScript 5 and TypeScript 7 with `strict` and `skipLibCheck: false`. It holds
 * while the public types name only dualnet's own types, the standard library's and
 * the peers': a type that named abstract-level's (the `db` option's, once) brought in
 * declarations that need Node's `events` and `Buffer` and `Symbol.asyncDispose`
 * (16 errors under TypeScript 7). `dualnet/ethers` and `dualnet/hardhat` are left out
 * there: ethers and Hardhat bring @types/node themselves.
 * And its source maps: a stack trace thrown from inside dualnet, under `node --enable-source-maps`,
 * names the package's src/ files (scripts/build.ts, keepShippedSources), not the packing
 * machine's paths.
 * The installs need the npm registry and take a minute, so this runs under
 * `npm run test:tools`, not `npm test`.
 */
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuild, ROOT, run } from './hardhatExamples.ts'

/** A directory of this run's own: two checkouts testing at once on one machine must not share it. */
let WORK: string

/** The README's vitest test file: the first ```ts block under "## A test in 20 lines". */
async function readmeTest(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## A test in 20 lines'))
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
  if (block === undefined) throw new Error('README.md has no ```ts block under "## A test in 20 lines"')
  return block
}

/**
 * TypeScript 7 (the native compiler), installed by version in the project that checks
 * it: as a devDependency alias of this package it would link a second `tsc` into
 * node_modules/.bin beside TypeScript 5's.
 */
const TYPESCRIPT_7 = '7.0.2'

/** A user's file that uses every entry point whose peers bring no Node types; `imports` is its import form. */
function userFile(imports: (specifier: string, names: string) => string): string {
  return `${imports('dualnet', 'createDevnet, type Devnet, type DevnetOptions, type DevAccount, type LevelDatabase')}
${imports('dualnet/vitest', 'useDevnet, type DevnetHandle')}
${imports('dualnet/viem', 'devnetTransport, dualnetChain, dualnetRpcSchema')}

export async function balanceOfFirst(db?: LevelDatabase): Promise<string> {
  const options: DevnetOptions = { chainId: 12345, db }
  const devnet: Devnet = await createDevnet(options)
  const first: DevAccount = devnet.accounts[0]!
  const balance: \`0x\${string}\` = await devnet.rpc('eth_getBalance', [first.address, 'latest'])
  await devnet.close()
  return balance
}
export const setUp: (options?: DevnetOptions) => DevnetHandle = useDevnet
export const chain = dualnetChain()
export const transport = devnetTransport
export const schema = dualnetRpcSchema
`
}

/** The version of `name` this checkout has installed, so that the projects install what the suite tests with. */
async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
}

let tarball: string
beforeAll(async () => {
  await ensureBuild()
  WORK = await mkdtemp(join(tmpdir(), 'dualnet-package-types-'))
  // dist/ is built: --ignore-scripts skips `prepare`, which would build it again.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', WORK], ROOT)
  expect(packed.code, packed.output).toBe(0)
  tarball = join(WORK, `dualnet-${(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}.tgz`)
}, 600_000)
// WORK is unset when the build before it failed: that failure, not this one, is the report.
afterAll(() => ((WORK as string | undefined) === undefined ? undefined : rm(WORK, { recursive: true, force: true })))

describe('the packed package in a new project, skipLibCheck: false', () => {
  for (const type of ['module', 'commonjs'] as const) {
    it(`type-checks and runs the README's test in a "type": "${type}" project`, async () => {
      const dir = join(WORK, type)
      await mkdir(join(dir, 'test'), { recursive: true })
      await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: `readme-test-${type}`, version: '1.0.0', private: true, type }, null, 2)}\n`)
      const compilerOptions = { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }
      await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['test'] }, null, 2)}\n`)
      await writeFile(join(dir, 'test/transfer.test.ts'), await readmeTest())
      const packages = await Promise.all(['ethers', 'viem', 'vitest', 'typescript', '@types/node'].map(async (name) => `${name}@${await installedVersion(name)}`))
      const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball, ...packages], dir)
      expect(installed.code, installed.output).toBe(0)
      const checked = await run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir)
      // tsc prints nothing when every file type-checks; anything else is the error list.
      expect(checked.output).toBe('')
      expect(checked.code).toBe(0)
      // And it passes, as the README says: `npx vitest run`.
      const tested = await run(process.execPath, [join(dir, 'node_modules/vitest/vitest.mjs'), 'run'], dir)
      expect(tested.output).toMatch(/Tests\s+1 passed \(1\)/)
      expect(tested.code).toBe(0)
      if (type === 'commonjs') {
        // require() of the package and a subpath, from CommonJS (Node's require of ES modules, 20.19 and later).
        const script = `const { createDevnet } = require('dualnet'); const { dualnetProvider } = require('dualnet/ethers');
          createDevnet().then(async (d) => { const p = dualnetProvider(d); console.log(await d.rpc('eth_chainId'), await p.getBlockNumber()); await d.close() })`
        const required = await run(process.execPath, ['-e', script], dir)
        expect(required.output.trim()).toBe('0x3039 0')
        expect(required.code).toBe(0)
      }
    }, 600_000)
  }
})

describe("the packed package's source maps", () => {
  it("a stack trace under --enable-source-maps names the package's own src/ files, which it ships, and every map's sources exist", async () => {
    const dir = join(WORK, 'source-maps')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'source-maps', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`)
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', tarball], dir)
    expect(installed.code, installed.output).toBe(0)
    // Thrown from inside dualnet: a refused option (src/options/), and a refused JSON-RPC param (src/rpc/dispatch.ts).
    const script = `import { createDevnet } from 'dualnet'
      try { await createDevnet({ chainId: 0 }) } catch (e) { console.log(e.stack) }
      const devnet = await createDevnet()
      try { await devnet.rpc('eth_getBalance', ['0x12', 'latest']) } catch (e) { console.log(e.stack) }
      await devnet.close()`
    await writeFile(join(dir, 'throw.mjs'), script)
    const thrown = await run(process.execPath, ['--enable-source-maps', 'throw.mjs'], dir)
    expect(thrown.code, thrown.output).toBe(0)
    const files = [...thrown.output.matchAll(/^\s+at (?:.* \()?(\/[^():]+):\d+:\d+\)?$/gm)].map((frame) => frame[1]!)
    const installedAt = join(dir, 'node_modules/dualnet')
    expect(files).toContain(join(installedAt, 'src/options/rules.ts'))
    expect(files).toContain(join(installedAt, 'src/rpc/dispatch.ts'))
    for (const file of files) await access(file)
    // Every map under dist/ names only files the package holds (a bundled package's code keeps no mapping).
    const maps = (await readdir(join(installedAt, 'dist'), { recursive: true })).filter((name) => name.endsWith('.js.map'))
    expect(maps.length).toBeGreaterThan(0)
    for (const map of maps) {
      const { sources } = JSON.parse(await readFile(join(installedAt, 'dist', map), 'utf8')) as { sources: string[] }
      for (const source of sources) {
        const file = resolve(installedAt, 'dist', dirname(map), source)
        expect(file.startsWith(join(installedAt, 'src/')), `${map}: ${source}`).toBe(true)
        await access(file)
      }
    }
  }, 600_000)
})

describe('the packed package without @types/node, skipLibCheck: false', () => {
  let dir: string
  beforeAll(async () => {
    dir = join(WORK, 'no-node-types')
    await mkdir(join(dir, 'src'), { recursive: true })
    await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'no-node-types', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`)
    // types: [] as well, so that nothing but what the files import is loaded.
    const compilerOptions = { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, noEmit: true, types: [] }
    await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['src'] }, null, 2)}\n`)
    await writeFile(
      join(dir, 'src/user.mts'),
      userFile((specifier, names) => `import { ${names} } from '${specifier}'`),
    )
    // CommonJS: the same imports resolve through the package's require conditions (.d.cts).
    await writeFile(
      join(dir, 'src/user.cts'),
      userFile((specifier, names) => `import { ${names} } from '${specifier}'`),
    )
    const packages = [`typescript@${await installedVersion('typescript')}`, `typescript7@npm:typescript@${TYPESCRIPT_7}`, `viem@${await installedVersion('viem')}`]
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball, ...packages], dir)
    expect(installed.code, installed.output).toBe(0)
    // The point of this project: nothing installed brings Node's types.
    await expect(access(join(dir, 'node_modules/@types/node'))).rejects.toThrow()
  }, 600_000)

  for (const [name, compiler] of [
    ['TypeScript 5', 'typescript'],
    ['TypeScript 7', 'typescript7'],
  ] as const) {
    it(`a user's file importing dualnet, dualnet/vitest and dualnet/viem (ES module and CommonJS) type-checks under ${name}`, async () => {
      const checked = await run(process.execPath, [join(dir, 'node_modules', compiler, 'bin/tsc'), '-p', 'tsconfig.json'], dir)
      expect(checked.output).toBe('')
      expect(checked.code).toBe(0)
      // The version the project installed is the one named.
      const version = (JSON.parse(await readFile(join(dir, 'node_modules', compiler, 'package.json'), 'utf8')) as { version: string }).version
      expect(version.split('.')[0]).toBe(name.split(' ')[1])
    }, 300_000)
  }
})
