/**
 * `npm run build`: dist/ as the package's `exports` and bin load it.
 *
 * - JavaScript: esbuild bundles src/ from the entry points (index, cli, vitest, viem,
 *   ethers, the Hardhat 2 and 3 plugins) into one module each plus shared chunks, so that a cold import reads
 *   a few files instead of ~180 (each ES module costs a resolve, a stat, a read, a
 *   compile and a link on the main thread). Code loaded lazily (the EVM, the servers,
 *   the REST router, tracers, persistence) stays behind its dynamic import, in chunks
 *   of its own. Then rollup regroups esbuild's files ({@link mergeStartPath}): every
 *   module a cold `import 'dualnet'` loads goes into one chunk, so that the start reads
 *   two files, not about thirty.
 * - Packages stay external (loaded from node_modules), except two groups bundled in:
 *   {@link BUNDLED_PACKAGES}, the EVM (@ethereumjs/evm's files, through
 *   src/evm/ethereumjsFiles.ts) and the pure ESM packages it and the start path use, so
 *   that the first transaction reads one chunk instead of ~120 files (docs/performance.md,
 *   "Cold start"); and {@link SERVER_PACKAGES} with everything they require, so that
 *   `listen()` reads one chunk instead of ~160 CommonJS files (docs/performance.md, "CLI start").
 * - Declarations: tsc (tsconfig.build.json, declarations only, which also type-checks)
 *   into a scratch directory, then rollup-plugin-dts bundles them per entry point
 *   ({@link bundleDeclarations}): dist/'s .d.ts files hold only the public types and
 *   what they name, and import no package but viem, ethers, abstract-level, Hardhat and
 *   Node's, so that a project with `skipLibCheck: false` type-checks against them
 *   (a declaration tree of src/ reaches the EVM's modules and through them
 *   @ethereumjs/evm's declarations, which do not compile without @types/debug).
 *   Then a copy as .d.cts for the exports map's `require` condition: a
 *   CommonJS project type-checks against declarations in its own module format (and
 *   so sees ethers' and viem's CommonJS types, as its own code does). At run time
 *   `require('dualnet')` loads the same ES modules (require of ESM, Node >= 20.19 and
 *   >= 22.12, the supported lines): one module instance, no dual-package hazard.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire, isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec'
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild'
import { rollup } from 'rollup'
import { dts } from 'rollup-plugin-dts'
import { VERIFIED_VERSIONS } from '../src/evm/ethereumjsFiles.ts'
import { BUILT_DIRECTORY } from '../src/explorer/assets.ts'
import { writeExplorerPage } from '../src/explorer/bundle.ts'

/**
 * The packages bundled into dist/ rather than imported from node_modules: @ethereumjs/evm's
 * files and what they import (except `debug`, CommonJS with dynamic requires, and the
 * package's index with its state manager, which dualnet does not use) and the hashing,
 * RLP and Base58 (bs58, base-x) packages of the start path, and lossless-json (the REST writer's module imports
 * it). All pure ES modules, pinned to exact versions (package.json), so the bundle runs
 * the code the tests ran.
 */
export const BUNDLED_PACKAGES = ['@ethereumjs/common', '@ethereumjs/util', '@ethereumjs/rlp', '@noble/hashes', '@noble/curves', 'eventemitter3', 'hash-wasm', 'lossless-json', 'bs58', 'base-x']

/**
 * The packages `listen()` loads (fastify for the REST server, ws), bundled into the servers'
 * chunks with every package they require: as installed, they are about 160 CommonJS
 * files, whose resolving (stat, package.json reads, realpath) and loading took most of
 * a CLI's start to its first answer; bundled they are one file (docs/performance.md, "CLI start").
 * CommonJS inside an ES module needs a `require` for Node's built-ins: the bundle's
 * banner makes one (createRequire).
 */
export const SERVER_PACKAGES = ['fastify', 'ws']

/**
 * The packages only the CLI loads at its start, bundled into its chunk: commander, as
 * installed, is five CommonJS files, each resolved, read and scanned by Node's CommonJS
 * lexer for its exports when an ES module imports it (docs/performance.md, "CLI start").
 */
export const CLI_PACKAGES = ['commander']

/**
 * What fastify requires only for features the servers do not use, left out of the
 * bundle (a stub that throws if it were ever required): the default schema compilers
 * (ajv, fast-json-stringify; the servers pass their own, src/devnet/servers.ts), the
 * pino logger (no `logger` option) and light-my-request (`inject()`). Two thirds of
 * what the server packages would otherwise bundle.
 */
const UNUSED_SERVER_MODULES = /^(@fastify\/ajv-compiler|@fastify\/fast-json-stringify-compiler|light-my-request|\.\/logger-pino\.js)$/

/**
 * Edits of bundled packages' files, checked at build time: each `from` text must occur in
 * the file exactly once, or the build fails (a new version changed it: look again).
 *
 * @ethereumjs/util's `bytes.js` fills a table of the BigInts 0 to 65,535 when it loads, for
 * `bytesToBigInt` of one- and two-byte values: 65,536 allocations, about 30 ms of CPU on the
 * first transaction of a fresh process, and the collector then traces them all (docs/performance.md,
 * "Cold start"). Here the table fills as values are asked for: the same BigInts, and a warm
 * lookup stays a table read. Its slots start as `undefined`, not as holes: reading holes made
 * V8's optimised code slower (warm `eth_call`s about 30 % slower in interleaved runs).
 *
 * @ethereumjs/evm's `memory.js` gives every call frame an 8 KiB zeroed buffer outside V8's
 * heap before the frame has touched a byte of memory; most frames use a few hundred bytes
 * (Solidity's free-memory pointer, an ABI-encoded result). Here a frame starts with 1 KiB,
 * and `extend` grows it as before (by 8 KiB steps): the same bytes in memory, an eighth of
 * the off-heap allocation per frame, whose volume V8 counts toward its collections.
 */
const PACKAGE_PATCHES: { file: RegExp; edits: [from: string, to: string][] }[] = [
  {
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    edits: [
      ['const BIGINT_CACHE = [];\nfor (let i = 0; i <= 256 * 256 - 1; i++) {\n    BIGINT_CACHE[i] = BigInt(i);\n}', 'const BIGINT_CACHE = new Array(256 * 256).fill(undefined);'],
      ['return BIGINT_CACHE[bytes[0]];', 'return BIGINT_CACHE[bytes[0]] ?? (BIGINT_CACHE[bytes[0]] = BigInt(bytes[0]));'],
      ['return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];', 'const index = bytes[0] * 256 + bytes[1];\n        return BIGINT_CACHE[index] ?? (BIGINT_CACHE[index] = BigInt(index));'],
    ],
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]memory\.js$/,
    edits: [['this._store = new Uint8Array(CONTAINER_SIZE);', 'this._store = new Uint8Array(1024);']],
  },
]

/** `text` with the edits of {@link PACKAGE_PATCHES} for `file` applied; throws if one does not apply exactly once. */
function patched(file: string, text: string, edits: [string, string][]): string {
  let out = text
  for (const [from, to] of edits) {
    const at = out.indexOf(from)
    if (at === -1 || out.indexOf(from, at + 1) !== -1) throw new Error(`${file}: the text to patch is not there exactly once (scripts/build.ts, PACKAGE_PATCHES): ${from.split('\n')[0]}`)
    out = out.slice(0, at) + to + out.slice(at + from.length)
  }
  return out
}

/** The package a bare import specifier names (`@scope/name/file.js` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

/** The package an importing file belongs to (its last `node_modules/` segment), or undefined for dualnet's own files. */
function packageOf(file: string): string | undefined {
  const found = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?!.*[\\/]node_modules[\\/])/.exec(file)
  return found?.[1]?.replace('\\', '/')
}

/**
 * Decides, for each bare import, bundled or external:
 * - Node's built-ins stay external wherever they are imported from; so do ws's optional
 *   native add-ons (bufferutil, utf-8-validate), which ws requires inside try/catch and runs without.
 * - {@link BUNDLED_PACKAGES}, {@link SERVER_PACKAGES} and {@link CLI_PACKAGES} are bundled, and so is whatever a
 *   server package's files import (fastify's dependencies); what the EVM's bundled
 *   files import otherwise (`debug`) stays external, required through the banner's `require`
 *   rather than imported (Node's ES import of CommonJS costs its first transaction about 5 ms).
 * - What fastify requires only for features the servers do not use ({@link UNUSED_SERVER_MODULES})
 *   becomes a stub that throws if it were ever required.
 * It also replaces src/evm/ethereumjsFiles.ts (which loads @ethereumjs/evm's files by URL
 * at run time) with static imports of the same files, after checking the installed
 * version is one that module accepts; it throws (fails the build) otherwise.
 */
const bundlePlugin: Plugin = {
  name: 'dualnet-bundle',
  setup(b) {
    const external = new Set(['bufferutil', 'utf-8-validate'])
    const evmSide = new Set(['@ethereumjs/evm', ...BUNDLED_PACKAGES])
    b.onResolve({ filter: UNUSED_SERVER_MODULES }, (args) => (/[\\/]node_modules[\\/]/.test(args.importer) ? { path: args.path, namespace: 'dualnet-unused' } : undefined))
    b.onLoad({ filter: /.*/, namespace: 'dualnet-unused' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`dualnet's bundle leaves out ${args.path}, which its servers never load (scripts/build.ts)`)})`,
      loader: 'js',
    }))
    // The EVM's files ES-import `debug` (CommonJS): required instead (the banner's createRequire), since an ES import of
    // CommonJS runs Node's CommonJS-export lexer and ES translator on it, about 5 ms more of the first transaction (Node 20 and 22).
    b.onResolve({ filter: /^debug$/ }, (args) => (evmSide.has(packageOf(args.importer) ?? '') ? { path: args.path, namespace: 'dualnet-require' } : undefined))
    b.onLoad({ filter: /.*/, namespace: 'dualnet-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)})`, loader: 'js' }))
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isAbsolute(args.path)) return undefined
      const name = packageName(args.path)
      if (args.path.startsWith('node:') || isBuiltin(args.path) || external.has(name)) return { path: args.path, external: true }
      if (BUNDLED_PACKAGES.includes(name) || SERVER_PACKAGES.includes(name) || CLI_PACKAGES.includes(name)) return undefined
      const importer = packageOf(args.importer)
      const fromServerPackage = importer !== undefined && !evmSide.has(importer)
      return fromServerPackage ? undefined : { path: args.path, external: true }
    })
    for (const { file, edits } of PACKAGE_PATCHES) {
      b.onLoad({ filter: file }, (args) => ({ loader: 'js', contents: patched(args.path, readFileSync(args.path, 'utf8'), edits) }))
    }
    b.onLoad({ filter: /[\\/]src[\\/]evm[\\/]ethereumjsFiles\.ts$/ }, () => {
      const entry = import.meta.resolve('@ethereumjs/evm')
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', entry), 'utf8')) as { version: string }
      if (!VERIFIED_VERSIONS.includes(pkg.version)) throw new Error(`@ethereumjs/evm ${pkg.version} is not one of the verified versions (${VERIFIED_VERSIONS.join(', ')})`)
      const file = (name: string) => JSON.stringify(fileURLToPath(new URL(name, entry)))
      return {
        loader: 'js',
        resolveDir: fileURLToPath(new URL('.', entry)),
        contents: [
          `import * as evm from ${file('./evm.js')}`,
          `import * as errors from ${file('./errors.js')}`,
          `import * as interpreter from ${file('./interpreter.js')}`,
          `import * as precompiles from ${file('./precompiles/index.js')}`,
          `import * as opcodes from ${file('./opcodes/index.js')}`,
          `import * as params from ${file('./params.js')}`,
          `import * as eip2200 from ${file('./opcodes/EIP2200.js')}`,
          `import * as eip2929 from ${file('./opcodes/EIP2929.js')}`,
          `export const VERIFIED_VERSIONS = ${JSON.stringify([pkg.version])}`,
          'export async function importEvmFiles() { return { evm, errors, interpreter, precompiles, opcodes, params, eip2200, eip2929 } }',
        ].join('\n'),
      }
    })
  },
}

/**
 * esbuild's options for dist/'s JavaScript, with paths relative to the repository root;
 * test/lazy-start.test.ts bundles with them too, into a directory of its own (`outdir`).
 */
export function bundleOptions(outdir = 'dist'): BuildOptions & { metafile: true } {
  return {
    entryPoints: ['src/index.ts', 'src/cli.ts', 'src/vitest.ts', 'src/vitest/reports.ts', 'src/viem.ts', 'src/ethers.ts', 'src/hardhat/v2.ts', 'src/hardhat/v3.ts'],
    outdir,
    outbase: 'src',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    plugins: [bundlePlugin],
    banner: { js: "import { createRequire as __dualnetCreateRequire } from 'node:module'; const require = __dualnetCreateRequire(import.meta.url);" },
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  }
}

/** The files esbuild writes for the entry points of {@link bundleOptions}, relative to its `outdir` and without `.js`: `src/hardhat/v2.ts` is `hardhat/v2`. */
const ENTRY_FILES = (bundleOptions().entryPoints as string[]).map((entry) => entry.replace(/^src\//, '').replace(/\.ts$/, ''))

/**
 * `entry` (an output path of esbuild's `metafile`) and every output it imports statically,
 * transitively, as absolute paths (resolved against `workingDir`, esbuild's
 * `absWorkingDir`): what importing it loads before any dynamic import.
 */
function staticClosure(metafile: Metafile, entry: string, workingDir: string, into = new Set<string>()): Set<string> {
  const file = resolve(workingDir, entry)
  if (into.has(file)) return into
  into.add(file)
  for (const imported of metafile.outputs[entry]?.imports ?? []) {
    if (imported.kind === 'import-statement' && imported.external !== true) staticClosure(metafile, imported.path, workingDir, into)
  }
  return into
}

/**
 * Regroups esbuild's output in `outdir` with rollup, so that the start path is one file;
 * `metafile` is that build's (`metafile: true` in {@link bundleOptions}), which names
 * each output's static and dynamic imports.
 *
 * esbuild splits shared code by the set of entry points and dynamic imports that reach
 * it, which left the modules a cold `import 'dualnet'` needs in about thirty chunks, and
 * Node's ES module loader spends about half a millisecond of the main thread on each
 * file (resolve, read, compile, link): merged, the import took 43 → 25 ms on Node 20 and
 * 40 → 24 ms on Node 22 (docs/performance.md, "Cold start"). Here every file that dist/index.js
 * imports statically becomes one chunk, `chunks/start.js`; the lazily loaded
 * chunks stay behind their dynamic imports and import from it. rollup only moves
 * esbuild's modules (no tree-shaking, the same evaluation order); the source maps are
 * chained to esbuild's, so they name the files under src/ and node_modules (dist/'s then
 * keep only src/'s, {@link keepShippedSources}).
 */
export async function mergeStartPath(outdir: string, metafile: Metafile, workingDir = process.cwd()): Promise<void> {
  const root = resolve(workingDir, outdir)
  const index = Object.keys(metafile.outputs).find((output) => resolve(workingDir, output) === join(root, 'index.js'))
  if (index === undefined) throw new Error(`start-path merge: esbuild's metafile has no ${join(outdir, 'index.js')}`)
  const start = staticClosure(metafile, index, workingDir)
  const warnings: string[] = []
  const bundle = await rollup({
    input: Object.fromEntries(ENTRY_FILES.map((name) => [name, join(root, `${name}.js`)])),
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    treeshake: false,
    plugins: [{ name: 'esbuild-output', load: (id) => ({ code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') }) }],
    onwarn: (warning) => {
      // esbuild's chunks import each other in cycles (a shared chunk and the lazily loaded ones); rollup keeps their order.
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warnings.push(warning.message)
    },
  })
  const merged = mkdtempSync(join(tmpdir(), 'dualnet-merged-'))
  try {
    await bundle.write({
      dir: merged,
      format: 'es',
      entryFileNames: '[name].js',
      // esbuild's names already carry a hash of their content.
      chunkFileNames: 'chunks/[name].js',
      sourcemap: true,
      // Chunks export their bindings under their own names, as esbuild's did (readable stack traces and imports).
      minifyInternalExports: false,
      // rollup writes each map's `sources` relative to where it writes the map (the scratch directory); the map is read from
      // `root`, so they are made relative to the map's place there (`../../src/rpc/dispatch.ts` from dist/chunks/).
      sourcemapPathTransform: (source, mapPath) => relative(dirname(join(root, relative(merged, mapPath))), resolve(dirname(mapPath), source)),
      manualChunks: (id) => (start.has(id) ? 'start' : undefined),
    })
    await bundle.close()
    if (warnings.length > 0) throw new Error(`start-path merge: ${warnings.join('\n')}`)
    rmSync(join(root, 'chunks'), { recursive: true, force: true })
    for (const name of ENTRY_FILES) {
      rmSync(join(root, `${name}.js`))
      rmSync(join(root, `${name}.js.map`))
    }
    cpSync(merged, root, { recursive: true })
  } finally {
    rmSync(merged, { recursive: true, force: true })
  }
}

/** Rewrites every source map under `dir` by {@link keepShippedSources}. */
function keepShippedSourcesIn(dir: string, srcDir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.js.map')) keepShippedSources(join(entry.parentPath, entry.name), srcDir)
  }
}

/**
 * Rewrites the source map `mapFile` so that it names only files under `srcDir`, which the
 * package ships (package.json `files`): in an installed package, `node --enable-source-maps`
 * and debuggers resolve `sources` against the map, and a bundled package's file
 * (`../../node_modules/@ethereumjs/evm/...`, the packing machine's node_modules) or one of
 * esbuild's virtual modules (`dualnet-require:debug`) is not there. Their code keeps no
 * mapping (a one-field segment, ECMA-426 §"Mappings"): a stack frame in it names the
 * dist/ file that holds it, which exists. Their `sourcesContent` goes too.
 */
function keepShippedSources(mapFile: string, srcDir: string): void {
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[]; mappings: string; names: string[] }
  const mapDir = dirname(mapFile)
  const shipped = map.sources.map((source) => {
    const path = resolve(mapDir, source)
    return !/^[a-z][\w+.-]*:/i.test(source) && !relative(srcDir, path).startsWith('..') && !isAbsolute(relative(srcDir, path))
  })
  // Old source index -> new one, for the sources kept.
  const index = new Map<number, number>()
  shipped.forEach((keep, i) => {
    if (keep) index.set(i, index.size)
  })
  const mappings = decode(map.mappings).map((line) =>
    line.map((segment): SourceMapSegment => {
      if (segment.length === 1) return segment
      const kept = index.get(segment[1])
      if (kept === undefined) return [segment[0]]
      return segment.length === 5 ? [segment[0], kept, segment[2], segment[3], segment[4]] : [segment[0], kept, segment[2], segment[3]]
    }),
  )
  map.sources = map.sources.filter((_, i) => shipped[i])
  if (map.sourcesContent !== undefined) map.sourcesContent = map.sourcesContent.filter((_, i) => shipped[i])
  map.mappings = encode(mappings)
  writeFileSync(mapFile, JSON.stringify(map))
}

/** The declaration entry points: dist/`name`.d.ts for each, as the exports map names them. */
const DECLARATION_ENTRIES = ['index', 'vitest', 'vitest/reports', 'viem', 'ethers', 'hardhat/v2', 'hardhat/hardhat3']

/**
 * Bundles the declaration tree `tree` (tsc's output for src/) into `outdir`: one
 * .d.ts per {@link DECLARATION_ENTRIES} entry, and the types they share in
 * `chunks/types-<hash>.d.ts`, so that every entry sees the same declarations. Package
 * imports stay imports. Any warning of rollup-plugin-dts (a public type that names one
 * no entry exports, which a user's declaration emit could not name) fails the build.
 */
async function bundleDeclarations(tree: string, outdir: string): Promise<void> {
  const warnings: string[] = []
  const bundle = await rollup({
    input: Object.fromEntries(DECLARATION_ENTRIES.map((name) => [name, join(tree, `${name}.d.ts`)])),
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [dts()],
    onwarn: (warning) => void warnings.push(warning.message),
  })
  await bundle.write({ dir: outdir, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/types-[hash].d.ts' })
  await bundle.close()
  if (warnings.length > 0) throw new Error(`declaration bundle: ${warnings.join('\n')}`)
}

/**
 * Writes `x.d.cts` beside every `x.d.ts` under `dir`, with relative imports pointing at
 * the .d.cts files (`./devnet.ts` becomes `./devnet.cjs`, which TypeScript resolves to
 * devnet.d.cts).
 */
function writeCommonJsDeclarations(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = join(entry.parentPath, entry.name)
    const text = readFileSync(file, 'utf8').replace(/(["'])(\.\.?\/[^"']*?)\.(?:d\.)?(?:ts|js)\1/g, '$1$2.cjs$1')
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.chdir(fileURLToPath(new URL('..', import.meta.url)))
  rmSync('dist', { recursive: true, force: true })
  const { metafile } = await build(bundleOptions())
  await mergeStartPath('dist', metafile)
  // The package's maps only: test/lazy-start.test.ts reads the bundled packages' files in its own bundle's.
  keepShippedSourcesIn('dist', resolve('src'))
  chmodSync('dist/cli.js', 0o755)
  // The explorer page's script and style sheet (issue 37), read by src/explorer/assets.ts from beside its chunk.
  await writeExplorerPage(join('dist', BUILT_DIRECTORY))
  const tree = mkdtempSync(join(tmpdir(), 'dualnet-declarations-'))
  try {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const declarations = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', tree], { stdio: 'inherit' })
    if (declarations.status !== 0) process.exit(declarations.status ?? 1)
    // Hardhat 3's plugin types, written by hand (Hardhat 3 is not a dependency to compile against).
    copyFileSync('src/hardhat/hardhat3.d.ts', join(tree, 'hardhat/hardhat3.d.ts'))
    await bundleDeclarations(tree, 'dist')
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
  writeCommonJsDeclarations('dist')
}
