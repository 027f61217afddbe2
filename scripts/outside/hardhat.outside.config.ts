/**
 * Hardhat config wrapper for running a third-party project's own suite against
 * dualnet and Anvil over HTTP (see scripts/outside/README.md).
 *
 * It loads the project's own hardhat.config.ts unchanged and adds only:
 *  - `paths.root`: the project directory (this file lives outside it);
 *  - two network entries, `dualnet` and `anvil` (URLs from DUALNET_URL / ANVIL_URL;
 *    accounts are the node's own, i.e. Hardhat's default `accounts: 'remote'`);
 *  - mocha's per-test timeout, OUTSIDE_MOCHA_TIMEOUT ms when set (the same for every
 *    run: over HTTP on a busy machine a test takes longer than in-process);
 *  - with OUTSIDE_PLUGIN=1, `require('dualnet/hardhat')` (dualnet installed in the
 *    checkout; Hardhat 2.22 or later there) and its `dualnet` key: the in-process network
 *    `dualnet` (in place of the URL entry) on DUALNET_HARDFORK (default istanbul, the
 *    chain's) with 20 dev accounts (Hardhat's default count).
 *
 * It compiles nothing and holds no way to: the runs pass --no-compile, on a checkout
 * compiled beforehand (scripts/outside/README.md).
 *
 * Environment: OUTSIDE_PROJECT (project dir, default the working directory),
 * DUALNET_URL, ANVIL_URL,
 * OUTSIDE_MOCHA_TIMEOUT, OUTSIDE_PLUGIN, DUALNET_HARDFORK, OUTSIDE_HARDHAT_HARDFORK (the built-in network's hardfork, for the
 * `hardhat-istanbul` and `hardhat-node` runs; `hardhat node` is then reached through
 * the `anvil` entry, which is only a URL).
 * Written in the TypeScript the project's ts-node accepts (TS 3.x, CommonJS).
 */
/* eslint-disable @typescript-eslint/no-var-requires */
const path = require('node:path')
const { createRequire } = require('node:module')

const projectDir: string = path.resolve(process.env.OUTSIDE_PROJECT || process.cwd())
// Resolve everything (hardhat, the project's config and its plugins) from the project, so
// the plugin registers on the same Hardhat instance that runs.
const projectRequire = createRequire(path.join(projectDir, 'package.json'))

const loaded = projectRequire('./hardhat.config.ts')
const base = loaded.default || loaded
const plugin = process.env.OUTSIDE_PLUGIN === '1'
if (plugin) projectRequire('dualnet/hardhat')

module.exports = {
  ...base,
  paths: { ...(base.paths || {}), root: projectDir },
  mocha: process.env.OUTSIDE_MOCHA_TIMEOUT ? { ...(base.mocha || {}), timeout: Number(process.env.OUTSIDE_MOCHA_TIMEOUT) } : base.mocha,
  networks: {
    ...(base.networks || {}),
    // OUTSIDE_HARDHAT_HARDFORK: Hardhat's own network on another hardfork (the gas oracle for istanbul).
    hardhat: process.env.OUTSIDE_HARDHAT_HARDFORK ? { ...((base.networks || {}).hardhat || {}), hardfork: process.env.OUTSIDE_HARDHAT_HARDFORK } : (base.networks || {}).hardhat,
    // The plugin adds `dualnet` itself (in process) and refuses a network of that name.
    ...(plugin ? {} : { dualnet: { url: process.env.DUALNET_URL || 'http://127.0.0.1:20339', timeout: 120000 } }),
    anvil: { url: process.env.ANVIL_URL || 'http://127.0.0.1:8545', timeout: 120000 },
  },
  ...(plugin ? { dualnet: { hardfork: process.env.DUALNET_HARDFORK || 'istanbul', accounts: 20 } } : {}),
}
