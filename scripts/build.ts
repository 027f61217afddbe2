/**
 * `npm run build`: dist/ as the package's `exports` and bin load it.
 *
 * - JavaScript: esbuild bundles src/ from the entry points (index, cli, vitest, viem,
 *   ethers, the Hardhat 2 and 3 plugins) into one module each plus shared chunks, so that a cold import reads
 *   a few files instead of ~180 (each ES module costs a resolve, a stat, a read, a
 *   compile and a link on the main thread). Code loaded lazily (the EVM, the servers,
 *   the REST router, tracers, persistence) stays behind its dynamic import, in chunks
 *   of its own.
 * - Packages stay external (loaded from node_modules), except {@link BUNDLED_PACKAGES}:
 *   the EVM (@ethereumjs/evm's files, through src/evm/ethereumjsFiles.ts) and the pure
 *   ESM packages it and the start path use, bundled in so that the first transaction
 *   reads one chunk instead of ~120 files (see docs/performance.md, "Cold start").
 * - Declarations: tsc (tsconfig.build.json, declarations only, which also type-checks).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Plugin } from 'esbuild'
import { VERIFIED_VERSIONS } from '../src/evm/ethereumjsFiles.ts'

/**
 * The packages bundled into dist/ rather than imported from node_modules: @ethereumjs/evm's
 * files and what they import (except `debug`, CommonJS with dynamic requires, and the
 * package's index with its state manager, which dualnet does not use) and the hashing
 * and RLP packages of the start path. All pure ES modules, pinned to exact versions
 * (package.json), so the bundle runs the code the tests ran.
 */
export const BUNDLED_PACKAGES = ['@ethereumjs/common', '@ethereumjs/util', '@ethereumjs/rlp', '@noble/hashes', '@noble/curves', 'eventemitter3']

/** The package a bare import specifier names (`@scope/name/file.js` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/**
 * Marks every package import external except those of {@link BUNDLED_PACKAGES}, and
 * replaces src/evm/ethereumjsFiles.ts (which loads @ethereumjs/evm's files by URL at
 * run time) with static imports of the same files, after checking the installed
 * version is one that module accepts. Throws (fails the build) otherwise.
 */
const bundlePlugin: Plugin = {
  name: 'dualnet-bundle',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isAbsolute(args.path) || BUNDLED_PACKAGES.includes(packageName(args.path))) return undefined
      return { path: args.path, external: true }
    })
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
          `export const VERIFIED_VERSIONS = ${JSON.stringify([pkg.version])}`,
          'export async function importEvmFiles() { return { evm, errors, interpreter, precompiles } }',
        ].join('\n'),
      }
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
    plugins: [bundlePlugin],
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
}
