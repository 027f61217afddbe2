/**
 * Hardhat 2 config wrapper for running OpenZeppelin Contracts' own suite (v5.4.0,
 * Hardhat 2.24) through the dualnet plugin, over HTTP against the dualnet CLI, and on
 * Hardhat's own network (see scripts/outside/README.md, "OpenZeppelin Contracts").
 *
 * It loads the project's hardhat.config.js unchanged and adds only:
 *  - `paths.root`: the project directory (this file lives outside it);
 *  - `require('dualnet/hardhat')` and its `dualnet` key: the in-process network
 *    `dualnet` on the project's hardfork (OZ_HARDFORK, default prague, the EVM version
 *    the project compiles for) with 20 dev accounts (Hardhat's default count, which the
 *    suite's getSigners() expects; dualnet's own default is 10);
 *  - `dualnet-http`: the dualnet CLI over HTTP (DUALNET_URL; the node's accounts);
 *  - mocha's per-test timeout, OUTSIDE_MOCHA_TIMEOUT ms when set.
 *
 * It compiles nothing and holds no way to: the runs pass --no-compile, on a checkout
 * compiled beforehand (scripts/outside/README.md).
 *
 * Environment: OUTSIDE_PROJECT (project dir), DUALNET_URL, OUTSIDE_MOCHA_TIMEOUT,
 * OZ_HARDFORK, OZ_RPC_STATS (a file: requests per method, counted and timed).
 */
const path = require('node:path')
const { createRequire } = require('node:module')

const projectDir = path.resolve(process.env.OUTSIDE_PROJECT || process.cwd())
// Everything (hardhat, the project's config, its plugins, dualnet) from the project, so
// that the plugin registers on the Hardhat instance that runs.
const projectRequire = createRequire(path.join(projectDir, 'package.json'))

const base = projectRequire('./hardhat.config.js')
projectRequire('dualnet/hardhat')

// OZ_RPC_STATS=<file>: every request the tests make through the selected network's
// provider, counted and timed per method (wall milliseconds from call to answer), written
// to <file> as tab-separated lines (method, calls, total ms, ms per call) at exit.
if (process.env.OZ_RPC_STATS) {
  const { extendEnvironment } = projectRequire('hardhat/config')
  const stats = new Map()
  extendEnvironment((hre) => {
    const provider = hre.network.provider
    const request = provider.request.bind(provider)
    provider.request = async (args) => {
      const started = process.hrtime.bigint()
      const entry = stats.get(args.method) ?? { calls: 0, ms: 0 }
      stats.set(args.method, entry)
      entry.calls++
      try {
        return await request(args)
      } finally {
        entry.ms += Number(process.hrtime.bigint() - started) / 1e6
      }
    }
  })
  process.on('exit', () => {
    const lines = [...stats].sort((a, b) => b[1].ms - a[1].ms).map(([method, { calls, ms }]) => `${method}\t${calls}\t${ms.toFixed(0)}\t${(ms / calls).toFixed(2)}`)
    require('node:fs').writeFileSync(process.env.OZ_RPC_STATS, `${lines.join('\n')}\n`)
  })
}

module.exports = {
  ...base,
  paths: { ...(base.paths || {}), root: projectDir },
  mocha: process.env.OUTSIDE_MOCHA_TIMEOUT ? { ...(base.mocha || {}), timeout: Number(process.env.OUTSIDE_MOCHA_TIMEOUT) } : base.mocha,
  networks: {
    ...(base.networks || {}),
    'dualnet-http': { url: process.env.DUALNET_URL || 'http://127.0.0.1:8545', timeout: 300000 },
  },
  dualnet: { hardfork: process.env.OZ_HARDFORK || 'prague', accounts: 20 },
}
