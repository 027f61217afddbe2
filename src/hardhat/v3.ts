/**
 * `dualnet/hardhat` for Hardhat 3: a plugin that adds a network named `dualnet` whose
 * every connection is a fresh in-process devnet. Add it to `plugins` and give
 * `createDevnet` options under the `dualnet` key:
 *
 * ```ts
 * // hardhat.config.ts
 * import dualnet from 'dualnet/hardhat'
 * export default defineConfig({ plugins: [hardhatToolboxMochaEthers, dualnet], dualnet: { hardfork: 'shanghai' } })
 * ```
 *
 * Then `npx hardhat test --network dualnet`, or
 * `await network.connect({ network: 'dualnet' })` in a script or test: the connection's provider is Hardhat's own, so hardhat-ethers,
 * hardhat-viem, the chai matchers and the network helpers work unchanged, and
 * `connection.dualnet` (or {@link devnetOf}`(connection.provider)`) is the devnet
 * behind it, for the REST view, native transactions and `dumpState()`. The `dualnet`
 * task (`npx hardhat dualnet`) serves the network's devnet over HTTP for a front end
 * or another process. Under `require` (Hardhat 2) the same import path loads the
 * Hardhat 2 plugin.
 *
 * @module dualnet/hardhat (Hardhat 3)
 */
/*
 * How: the config hooks add an HTTP network named `dualnet` (or `dualnet.network`)
 * whose URL is never dialled; each connection to it gets its own devnet
 * (`newConnection`), and the `onRequest` hook answers that connection's every request
 * from the devnet, in process, before Hardhat's own request handlers and its HTTP
 * client. So the connection's provider stays Hardhat's own object, which every plugin
 * (hardhat-ethers, hardhat-viem, the chai matchers, the network helpers) already
 * knows. Package exports send `import` here and `require` to the Hardhat 2 plugin.
 */
import { DEFAULT_NETWORK_NAME, hardhatNotFoundMessage } from './shared.ts'

export { devnetOf, type DualnetHardhatConfig, type DualnetHardhatUserConfig } from './shared.ts'

/** What this module uses of Hardhat 3's task builder (hardhat/config). */
interface TaskBuilder {
  addOption(option: { name: string; description: string; type: string; defaultValue: unknown }): TaskBuilder
  addFlag(flag: { name: string; description: string }): TaskBuilder
  setAction(action: () => Promise<{ default: (args: any, hre: any) => Promise<unknown> }>): TaskBuilder
  build(): unknown
}

// Hardhat is an optional peer dependency that this package does not install: a
// specifier held in a string keeps the compiler from resolving it here.
const HARDHAT_CONFIG: string = 'hardhat/config'
const { task } = (await import(HARDHAT_CONFIG).catch((err: unknown) => {
  throw new Error(hardhatNotFoundMessage(err), { cause: err })
})) as { task: (id: string, description: string) => TaskBuilder }

/**
 * The Hardhat 3 plugin of dualnet: `plugins: [dualnet]` in hardhat.config.ts. Its type
 * in the package's declarations is Hardhat 3's `HardhatPlugin`, and the package extends
 * Hardhat's config types with the `dualnet` key ({@link DualnetHardhatUserConfig}) and
 * the connection's `dualnet` property.
 */
const dualnetPlugin: {
  /** `'dualnet'`. */
  readonly id: string
  /** `'dualnet'`, the package Hardhat names when the plugin fails to load. */
  readonly npmPackage: string
  /** Loaded by Hardhat when it runs the `config` and `network` hooks. */
  readonly hookHandlers: { readonly config: () => Promise<unknown>; readonly network: () => Promise<unknown> }
  /** The `dualnet` task: `npx hardhat dualnet [--hostname h] [--port n] [--rest-port n] [--explorer]`. */
  readonly tasks: readonly unknown[]
} = {
  id: 'dualnet',
  npmPackage: 'dualnet',
  hookHandlers: {
    config: () => import('./v3Config.ts'),
    network: () => import('./v3Network.ts'),
  },
  tasks: [
    task(DEFAULT_NETWORK_NAME, 'Starts the devnet of the dualnet network as JSON-RPC and REST servers, for a front end or a script in another process')
      .addOption({ name: 'hostname', description: 'The interface both servers bind', type: 'STRING', defaultValue: '127.0.0.1' })
      .addOption({ name: 'port', description: 'The JSON-RPC port (0: an ephemeral port)', type: 'INT', defaultValue: 8545 })
      .addOption({ name: 'restPort', description: 'The REST port (0: an ephemeral port)', type: 'INT', defaultValue: 20334 })
      .addFlag({ name: 'explorer', description: "Serve the explorer page at /explorer of the JSON-RPC server, naming the project's contracts from its artifacts" })
      .setAction(() => import('./v3Task.ts'))
      .build(),
  ],
}

export default dualnetPlugin
