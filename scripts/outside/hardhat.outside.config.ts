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
 *    chain's) with 20 dev accounts (Hardhat's default count);
 *  - an override of the TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD subtask that returns
 *    solc-js from npm (the `solc` package at OUTSIDE_SOLCJS, a soljson.js) instead of
 *    downloading a compiler, which needs a host this machine cannot reach. Only a
 *    compile uses it (preparing a checkout); the runs pass --no-compile.
 *
 * Environment: OUTSIDE_PROJECT (project dir, default the working directory),
 * OUTSIDE_SOLCJS (path to soljson.js; required for compiling), DUALNET_URL, ANVIL_URL,
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
// the subtask is registered on the same Hardhat instance that runs.
const projectRequire = createRequire(path.join(projectDir, 'package.json'))
const { subtask } = projectRequire('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = projectRequire('hardhat/builtin-tasks/task-names')

const loaded = projectRequire('./hardhat.config.ts')
const base = loaded.default || loaded
const plugin = process.env.OUTSIDE_PLUGIN === '1'
if (plugin) projectRequire('dualnet/hardhat')

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async (args: { solcVersion: string }) => {
  const soljson = process.env.OUTSIDE_SOLCJS
  if (!soljson) throw new Error('OUTSIDE_SOLCJS must name the soljson.js of solc ' + args.solcVersion + ' (npm: solc@' + args.solcVersion + ')')
  // solc-js's wrapper reports the version it was built from: refuse a mismatch rather than compile with another one.
  const solc = projectRequire(path.join(path.dirname(soljson), 'wrapper.js'))(projectRequire(soljson))
  const longVersion: string = solc.version().replace(/\.Emscripten\.clang$/, '')
  if (!longVersion.startsWith(args.solcVersion + '+')) {
    throw new Error('OUTSIDE_SOLCJS is solc ' + longVersion + ', the project asks for ' + args.solcVersion)
  }
  return { compilerPath: soljson, isSolcJs: true, version: args.solcVersion, longVersion }
})

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
