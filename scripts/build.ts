/**
 * `npm run build`: dist/ as the package's `exports` and bin load it.
 *
 * - JavaScript: esbuild bundles src/ from the entry points (index, cli, vitest, viem,
 *   ethers, the Hardhat 2 and 3 plugins) into one module each plus shared chunks, so that a cold import reads
 *   a few files instead of ~180 (each ES module costs a resolve, a stat, a read, a
 *   compile and a link on the main thread). Code loaded lazily (the EVM, the servers,
 *   the REST router, tracers, persistence) stays behind its dynamic import, in chunks
 *   of its own. Packages stay external: the EVM patches import @ethereumjs/evm's own
 *   files by URL (src/evm/ethereumjsModules.ts), and users' installs dedupe them.
 * - Declarations: tsc (tsconfig.build.json, declarations only, which also type-checks).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions } from 'esbuild'

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
    packages: 'external',
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
