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
 *  - mocha's per-test timeout, OUTSIDE_MOCHA_TIMEOUT ms when set;
 *  - an override of TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD that returns solc-js from npm
 *    (OUTSIDE_SOLCJS, the `solc` package's soljson.js) instead of downloading a
 *    compiler (this machine reaches only the npm registry). Its version is checked
 *    against the one the project asks for.
 *
 * Environment: OUTSIDE_PROJECT (project dir), OUTSIDE_SOLCJS, DUALNET_URL,
 * OUTSIDE_MOCHA_TIMEOUT, OZ_HARDFORK, OUTSIDE_JOB_FILES, OZ_SOURCES, OZ_RPC_STATS
 * (a file: requests per method, counted and timed).
 */
const path = require('node:path')
const { createRequire } = require('node:module')

const projectDir = path.resolve(process.env.OUTSIDE_PROJECT || process.cwd())
// Everything (hardhat, the project's config, its plugins, dualnet) from the project, so
// that the subtask and the plugin register on the Hardhat instance that runs.
const projectRequire = createRequire(path.join(projectDir, 'package.json'))
const { subtask } = projectRequire('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, TASK_COMPILE_SOLIDITY_MERGE_COMPILATION_JOBS, TASK_COMPILE_SOLIDITY_GET_SOURCE_PATHS } = projectRequire('hardhat/builtin-tasks/task-names')

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

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async ({ solcVersion }) => {
  const soljson = process.env.OUTSIDE_SOLCJS
  if (!soljson) throw new Error(`OUTSIDE_SOLCJS must name the soljson.js of solc ${solcVersion} (npm: solc@${solcVersion})`)
  const solc = projectRequire(path.join(path.dirname(soljson), 'wrapper.js'))(projectRequire(soljson))
  const longVersion = solc.version().replace(/\.Emscripten\.clang$/, '')
  if (!longVersion.startsWith(`${solcVersion}+`)) throw new Error(`OUTSIDE_SOLCJS is solc ${longVersion}, the project asks for ${solcVersion}`)
  return { compilerPath: soljson, isSolcJs: true, version: solcVersion, longVersion }
})

// solc-js (0.8.26 and 0.8.27 alike) aborts with "RuntimeError: memory access out of bounds"
// on one standard-JSON input of this project's size (319 sources fail even at parsing; 310
// pass): compilation jobs are merged into several jobs instead of one per compiler
// configuration. A job takes the next file's job while the union stays within
// OUTSIDE_JOB_FILES files (default 120); one file's job with its imports can be larger
// (here jobs of 188-203 files). Same compiler, same settings; only how the files are
// split between solc runs.
const JOB_FILES = Number(process.env.OUTSIDE_JOB_FILES || 120)
subtask(TASK_COMPILE_SOLIDITY_MERGE_COMPILATION_JOBS).setAction(async ({ compilationJobs }) => {
  const merged = []
  const filling = new Map() // solc config -> index in `merged` of the job being filled
  const sorted = [...compilationJobs].sort((a, b) => name(a).localeCompare(name(b)))
  for (const job of sorted) {
    const at = filling.get(job.getSolcConfig())
    const files = at === undefined ? 0 : new Set([...merged[at].getResolvedFiles(), ...job.getResolvedFiles()].map((f) => f.sourceName)).size
    if (at !== undefined && files <= JOB_FILES) {
      merged[at] = merged[at].merge(job)
    } else {
      filling.set(job.getSolcConfig(), merged.length)
      merged.push(job)
    }
  }
  return merged
})
/** The first file a job emits artifacts for (jobs are sorted by it, so that neighbours share imports). */
function name(job) {
  return job.getResolvedFiles().find((f) => job.emitsArtifacts(f))?.sourceName ?? ''
}

// OZ_SOURCES: compile only these sources (paths under contracts/, space-separated prefixes,
// each taken for contracts/ and for hardhat-exposed's contracts-exposed/; their imports
// come with them). solc-js had not compiled the whole project after 35 minutes on a
// loaded 2-core machine; the timing subset needs 128 files (10 minutes). Unset: every source.
subtask(TASK_COMPILE_SOLIDITY_GET_SOURCE_PATHS).setAction(async (_, _hre, runSuper) => {
  const all = await runSuper()
  const prefixes = (process.env.OZ_SOURCES || '').split(/\s+/).filter(Boolean)
  if (prefixes.length === 0) return all
  const keep = prefixes.flatMap((p) => ['contracts', 'contracts-exposed'].map((dir) => path.join(projectDir, dir, p)))
  return all.filter((file) => keep.some((prefix) => file.startsWith(prefix)))
})

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
