/**
 * Foundry's binaries for the tool tests (`npm run test:tools`): forge (test/forge.test.ts)
 * and anvil (test/fork-history-anvil.test.ts), release {@link FOUNDRY_VERSION}. Not a
 * test file itself.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Foundry's release the tool tests run. */
export const FOUNDRY_VERSION = '1.7.1'

/**
 * The platform's `tool` binary (`@foundry-rs/<tool>-<os>-<arch>`, what the wrapper
 * packages @foundry-rs/forge and @foundry-rs/anvil run). Not devDependencies: the
 * wrappers' lock entries name platform packages the registry here does not serve,
 * which `npm ci` refuses, and their scripts (1.7.1) exit 0 whatever the tool's exit
 * code. So the binary for this platform is installed once into a cache directory
 * outside the repository (`DUALNET_FORGE_DIR` / `DUALNET_ANVIL_DIR`, or
 * `~/.cache/dualnet-test/<tool>-<version>`), as .ci/run installs Node 22.
 */
export async function foundryBinary(tool: 'forge' | 'anvil'): Promise<string> {
  const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const pkg = `@foundry-rs/${tool}-${platform}`
  const dir = process.env[`DUALNET_${tool.toUpperCase()}_DIR`] ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'dualnet-test', `${tool}-${FOUNDRY_VERSION}`)
  const binary = join(dir, 'node_modules', pkg, 'bin', tool)
  if (!existsSync(binary)) {
    await new Promise<void>((resolve, reject) =>
      execFile('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${pkg}@${FOUNDRY_VERSION}`], (err, _out, stderr) =>
        err === null ? resolve() : reject(new Error(`installing ${pkg}@${FOUNDRY_VERSION} failed: ${stderr}`)),
      ),
    )
  }
  return binary
}
