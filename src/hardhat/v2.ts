/**
 * `dualnet/hardhat` for Hardhat 2 (2.22 and later): a plugin that adds a network named
 * `dualnet` whose provider is an in-process devnet, started on its first request.
 * Require it in hardhat.config.js, as Hardhat 2 plugins are added, and give
 * `createDevnet` options under the `dualnet` key:
 *
 * ```js
 * // hardhat.config.js
 * require('@nomicfoundation/hardhat-toolbox')
 * require('dualnet/hardhat')
 * module.exports = { solidity: '0.8.26', dualnet: { chainId: 12345 } }
 * ```
 *
 * Then `npx hardhat test --network dualnet`: hardhat-ethers, the chai matchers and the
 * network helpers reach the devnet through `hre.network.provider`, and
 * {@link devnetOf}`(hre.network.provider)` is the devnet itself, for the REST view,
 * native transactions and `dumpState()`. The `dualnet` task (`npx hardhat dualnet`)
 * serves the network's devnet over HTTP for a front end or another process. Under
 * `import` (Hardhat 3) the same path loads the Hardhat 3 plugin.
 *
 * @module dualnet/hardhat (Hardhat 2)
 */
/*
 * How: Hardhat 2 validates every entry of `networks` as an HTTP network (a `url` is
 * required) before any plugin runs, and builds a network's provider only from that
 * config (`extendProvider` wraps that provider, but Hardhat then puts
 * its HTTP wrappers around the result, which ask for a gas price and an estimate per
 * transaction: see createProvider in hardhat/internal/core/providers/construction.js).
 * So the plugin reads its options from a `dualnet` key, adds the network in
 * `extendConfig` (after validation), and in `extendEnvironment` sets
 * `hre.network.provider` to an in-process provider when that network is the selected
 * one, as plugins that wrap the provider in extendEnvironment do (hardhat-tracer).
 * hardhat-ethers, the chai matchers and the network helpers read
 * `hre.network.provider` lazily, so they all reach the devnet.
 *
 * Gas: Hardhat's own network sends a transaction without `gas` with its config's
 * `gas` (the block gas limit by default) instead of estimating it. The plugin's
 * network does the same with `dualnet.gas` (default 6,000,000, the chain's cap): the
 * network config's `gas` says it, the provider fills it into an `eth_sendTransaction`
 * that has none (what Hardhat's FixedGasProvider does, for web3.js, truffle and
 * viem), and hardhat-ethers' signers, which estimate on every network but Hardhat's
 * own whatever the config says, get it as their fixed gas limit (v2Ethers.ts). A
 * mined send that fails is rejected with its revert, as Hardhat's network rejects it
 * (networkRequest.ts).
 */
import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { callbackify } from 'node:util'
import type { Devnet, RequestArguments } from '../devnet.ts'
import { SOLO_CHAIN_ID } from '../core/constants.ts'
import { hardhatNotFoundMessage, networkTakenMessage, registerDevnet, resolveDualnetConfig, serve, startDevnet, type DualnetHardhatConfig } from './shared.ts'
import { requestOnNetwork } from './networkRequest.ts'
import { fixEthersSignersGas } from './v2Ethers.ts'

export { devnetOf, type DualnetHardhatConfig, type DualnetHardhatUserConfig } from './shared.ts'

/** What this module uses of Hardhat 2's `hardhat/config`. */
interface Hardhat2Config {
  extendConfig(extender: (config: Record<string, any>, userConfig: Readonly<Record<string, any>>) => void): void
  extendEnvironment(extender: (hre: Record<string, any>) => void): void
  task(name: string, description?: string): Hardhat2Task
  types: { int: unknown; string: unknown }
}
interface Hardhat2Task {
  addOptionalParam(name: string, description: string, defaultValue: unknown, type: unknown): Hardhat2Task
  addFlag(name: string, description: string): Hardhat2Task
  setAction(action: (args: Record<string, any>, hre: Record<string, any>, runSuper: (args?: Record<string, any>) => Promise<unknown>) => Promise<unknown>): Hardhat2Task
}

const requireHere = createRequire(import.meta.url)
const hardhatVersion = loadHardhat<{ version: string }>('hardhat/package.json').version
if (!/^2\.(2[2-9]|[3-9]\d)\./.test(hardhatVersion)) {
  throw new Error(`dualnet/hardhat was loaded with require() under Hardhat ${hardhatVersion}: Hardhat 2 needs 2.22 or later; Hardhat 3 loads plugins with import (plugins: [dualnet])`)
}
const { extendConfig, extendEnvironment, task, types } = loadHardhat<Hardhat2Config>('hardhat/config')

/** A module of Hardhat, as installed beside dualnet; throws the install advice when there is none. */
function loadHardhat<T>(id: string): T {
  try {
    return requireHere(id) as T
  } catch (err) {
    throw new Error(hardhatNotFoundMessage(err), { cause: err })
  }
}

/**
 * An EIP-1193 provider over a devnet started on the first request, with the legacy
 * `send` / `sendAsync` that Hardhat 2's providers have. Subscription notifications
 * are re-emitted as `'message'` events. Requests are answered as Hardhat's network
 * answers them about gas and failed sends (`requestOnNetwork`, hardhat/networkRequest.ts); `gas` is the
 * network's (a number, or `'auto'`).
 */
export class DevnetProvider extends EventEmitter {
  readonly #options: DualnetHardhatConfig['options']
  readonly #gas: DualnetHardhatConfig['gas']
  #devnet: Devnet | undefined
  #starting: Promise<Devnet> | undefined

  constructor(options: DualnetHardhatConfig['options'], gas: DualnetHardhatConfig['gas']) {
    super()
    this.#options = options
    this.#gas = gas
    this.send = this.send.bind(this)
    this.sendAsync = this.sendAsync.bind(this)
    registerDevnet(this, () => this.devnet())
  }

  /** The devnet (started on first use). */
  devnet(): Promise<Devnet> {
    this.#starting ??= startDevnet(this.#options).then((devnet) => {
      devnet.on('message', (message) => this.emit('message', message))
      return (this.#devnet = devnet)
    })
    return this.#starting
  }

  request(args: RequestArguments): Promise<unknown> {
    const devnet = this.#devnet
    if (devnet !== undefined) return requestOnNetwork(devnet, args.method, args.params, this.#gas)
    return this.devnet().then((started) => requestOnNetwork(started, args.method, args.params, this.#gas))
  }

  /** Hardhat 2's legacy `send(method, params)`. */
  send(method: string, params?: unknown[]): Promise<unknown> {
    return this.request({ method, params: params ?? [] })
  }

  /** The JSON-RPC callback form (web3.js 1, truffle-contract): errors with a code are answered as JSON-RPC errors. */
  sendAsync(payload: { id?: number | string; method: string; params?: unknown[] }, callback: (error: Error | null, response?: unknown) => void): void {
    callbackify(async () => {
      try {
        return { jsonrpc: '2.0', id: payload.id, result: await this.send(payload.method, payload.params) }
      } catch (err) {
        const { code, message, data } = err as { code?: unknown; message?: string; data?: unknown }
        if (typeof code !== 'number') throw err
        return { jsonrpc: '2.0', id: payload.id, error: { code, message, data } }
      }
    })(callback)
  }

  /** Closes the devnet if it was started. */
  async close(): Promise<void> {
    await (await this.#starting?.catch(() => undefined))?.close()
  }
}

extendConfig((config, userConfig) => {
  const dualnet = resolveDualnetConfig(userConfig.dualnet, ['hardhat', 'localhost'])
  if (userConfig.networks?.[dualnet.network] !== undefined) throw new TypeError(networkTakenMessage(dualnet.network))
  config.dualnet = dualnet
  // Shaped as a resolved HTTP network, which is what plugins expect of a network that is not 'hardhat'.
  config.networks[dualnet.network] = {
    url: `dualnet://in-process/${dualnet.network}`,
    chainId: dualnet.options.chainId ?? SOLO_CHAIN_ID,
    accounts: 'remote',
    gas: dualnet.gas,
    gasPrice: 'auto',
    gasMultiplier: 1,
    httpHeaders: {},
    timeout: 20_000,
  }
})

/** The provider extendEnvironment gave the selected network, if it is the plugin's: closed when `test` or `run` ends. */
let selected: DevnetProvider | undefined

extendEnvironment((hre) => {
  const dualnet = hre.config.dualnet as DualnetHardhatConfig
  if (hre.network.name !== dualnet.network) return
  const provider = (hre.network.provider = selected = new DevnetProvider(dualnet.options, dualnet.gas))
  if (dualnet.gas !== 'auto') fixEthersSignersGas()
  // `hardhat run` runs its script in a child process (hardhat/register), which ends when its
  // event loop empties, with no task around it: the devnet closes then (a failed close sets the exit code).
  process.once('beforeExit', () => {
    provider.close().catch((err: unknown) => {
      console.error(err)
      process.exitCode = 1
    })
  })
})

/*
 * Hardhat 2 ends its process with process.exit() once a task resolves (hardhat/internal/cli/cli.js)
 * and closes no provider, so a devnet's close (its `coverage` and `gasReport` reports,
 * the gas snapshots' check) would never run. `test` and `run` close the network's
 * devnet when they end (`run`'s own, when the script ran in this process); a close
 * that fails (a gas snapshot check) fails the task.
 */
for (const name of ['test', 'run']) {
  task(name).setAction(async (args, _hre, runSuper) => {
    try {
      return await runSuper(args)
    } finally {
      await selected?.close()
    }
  })
}

task('dualnet', 'Starts the devnet of the dualnet network as JSON-RPC and REST servers, for a front end or a script in another process')
  .addOptionalParam('hostname', 'The interface both servers bind', '127.0.0.1', types.string)
  .addOptionalParam('port', 'The JSON-RPC port (0: an ephemeral port)', 8545, types.int)
  .addOptionalParam('restPort', 'The REST port (0: an ephemeral port)', 20334, types.int)
  .addFlag('explorer', "Serve the explorer page at /explorer of the JSON-RPC server, naming the project's contracts from its artifacts")
  .setAction(async (args, hre) => serve(hre.config.dualnet as DualnetHardhatConfig, { ...args, artifacts: hre.config.paths.root }))
