/**
 * `npm run build`: dist/ as the package's `exports` and bin load it.
 *
 * - JavaScript: esbuild bundles src/ from the entry points (index, cli, vitest, viem,
 *   ethers, the Hardhat 2 and 3 plugins) into one module each plus shared chunks, so that a cold import reads
 *   a few files instead of ~180 (each ES module costs a resolve, a stat, a read, a
 *   compile and a link on the main thread). Code loaded lazily (the EVM, the servers,
 *   the REST router, tracers, persistence) stays behind its dynamic import, in chunks
 *   of its own. Packages stay external: the EVM patches import @ethereumjs/evm's own
 *   files by URL (src/evm/ethereumjsModules.ts), and users' installs dedupe them;
 *   except the server packages ({@link SERVER_PACKAGES}), bundled with what they require.
 * - Declarations: tsc (tsconfig.build.json, declarations only, which also type-checks),
 *   then a copy of the tree as .d.cts for the exports map's `require` condition: a
 *   CommonJS project type-checks against declarations in its own module format (and
 *   so sees ethers' and viem's CommonJS types, as its own code does). At run time
 *   `require('dualnet')` loads the same ES modules (require of ESM, Node >= 20.19 and
 *   >= 22.12, the supported lines): one module instance, no dual-package hazard.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire, isBuiltin } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Plugin } from 'esbuild'

/**
 * The packages `listen()` loads (fastify, its CORS plugin, ws), bundled into the servers'
 * chunks with every package they require: as installed, they are about 160 CommonJS
 * files, whose resolving (stat, package.json reads, realpath) and loading took most of
 * a CLI's start to its first answer; bundled they are one file (docs/performance-cli.md).
 * CommonJS inside an ES module needs a `require` for Node's built-ins: the bundle's
 * banner makes one (createRequire).
 */
export const SERVER_PACKAGES = ['fastify', '@fastify/cors', 'ws']

/**
 * What fastify requires only for features the servers do not use, left out of the
 * bundle (a stub that throws if it were ever required): the default schema compilers
 * (ajv, fast-json-stringify; the servers pass their own, src/devnet/servers.ts), the
 * pino logger (no `logger` option) and light-my-request (`inject()`). Two thirds of
 * what the server packages would otherwise bundle.
 */
const UNUSED_SERVER_MODULES = /^(@fastify\/ajv-compiler|@fastify\/fast-json-stringify-compiler|light-my-request|\.\/logger-pino\.js)$/

/** The package a bare import specifier names (`@scope/name/file.js` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

/**
 * Keeps bare imports (packages, Node's built-ins) external, except the server packages
 * and what they import: those esbuild resolves and bundles. Node's built-ins stay external
 * wherever they are imported from; so do ws's optional native add-ons (bufferutil,
 * utf-8-validate), which ws requires inside try/catch and runs without.
 */
const serverPackagesPlugin: Plugin = {
  name: 'dualnet-server-packages',
  setup(b) {
    const external = new Set(['bufferutil', 'utf-8-validate'])
    b.onResolve({ filter: UNUSED_SERVER_MODULES }, (args) =>
      /[\\/]node_modules[\\/]/.test(args.importer) ? { path: args.path, namespace: 'dualnet-unused' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'dualnet-unused' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`dualnet's bundle leaves out ${args.path}, which its servers never load (scripts/build.ts)`)})`,
      loader: 'js',
    }))
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || isBuiltin(args.path) || external.has(packageName(args.path))) return { path: args.path, external: true }
      const bundled = SERVER_PACKAGES.includes(packageName(args.path)) || /[\\/]node_modules[\\/]/.test(args.importer)
      return bundled ? undefined : { path: args.path, external: true }
    })
  },
}

/**
 * esbuild's options for dist/'s JavaScript, with paths relative to the repository root;
 * test/lazy-start.test.ts bundles with them too, into a directory of its own (`outdir`).
 */
export function bundleOptions(outdir = 'dist'): BuildOptions {
  return {
    entryPoints: ['src/index.ts', 'src/cli.ts', 'src/vitest.ts', 'src/viem.ts', 'src/ethers.ts', 'src/hardhat/v2.ts', 'src/hardhat/v3.ts'],
    outdir,
    outbase: 'src',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    plugins: [serverPackagesPlugin],
    banner: { js: "import { createRequire as __dualnetCreateRequire } from 'node:module'; const require = __dualnetCreateRequire(import.meta.url);" },
    sourcemap: true,
    logLevel: 'warning',
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.chdir(fileURLToPath(new URL('..', import.meta.url)))
  rmSync('dist', { recursive: true, force: true })
  await build(bundleOptions())
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const declarations = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' })
  if (declarations.status !== 0) process.exit(declarations.status ?? 1)
  chmodSync('dist/cli.js', 0o755)
  // Hardhat 3's plugin types, written by hand (Hardhat 3 is not a dependency to compile against).
  copyFileSync('src/hardhat/hardhat3.d.ts', 'dist/hardhat/hardhat3.d.ts')
  writeCommonJsDeclarations('dist')
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
