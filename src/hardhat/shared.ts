/**
 * What the Hardhat 2 and Hardhat 3 plugins share (`dualnet/hardhat`): the `dualnet`
 * config key, the devnet options it resolves to, the provider-to-devnet registry that
 * `devnetOf` reads, and the servers of the `dualnet` task. Nothing here imports
 * Hardhat: each plugin module loads its own Hardhat version's API.
 *
 * The devnet's modules load on first use ({@link startDevnet}), not with the config:
 * Hardhat loads its config for every command, and Hardhat 2 loads the plugin with
 * require(), which cannot load a module graph with a top-level await (util/hash.ts has one).
 */
import type { Devnet } from '../devnet.ts'
import type { DevnetOptions } from '../options/types.ts'
import { describeValue } from '../errors/describe.ts'
import { EVM_TX_GAS_CAP, MIN_GAS_LIMIT } from '../core/constants.ts'

/** Name of the network the plugin adds when the config does not name one. */
export const DEFAULT_NETWORK_NAME = 'dualnet'

/**
 * Default `gas` of the plugin's network: the chain's per-transaction cap (reference
 * §0, `ETHTxGasLimit`), as Hardhat's own network defaults `gas` to its block gas limit.
 */
export const DEFAULT_GAS = Number(EVM_TX_GAS_CAP)

/**
 * The `dualnet` key of a Hardhat config: `createDevnet` options for the devnet behind
 * the network, plus the network's name and its `gas`.
 */
export interface DualnetHardhatUserConfig extends DevnetOptions {
  /** Name of the network the plugin adds (default `dualnet`): `--network <name>`. */
  network?: string
  /**
   * Gas limit given to a transaction sent without one, as Hardhat's network config
   * `gas`: a whole number of gas from 20,000 to 6,000,000 (default 6,000,000, the
   * chain's per-transaction cap), or `'auto'` to estimate each transaction's gas.
   */
  gas?: number | 'auto'
}

/** The resolved `dualnet` config: the network's name, its `gas`, and the devnet's options. */
export interface DualnetHardhatConfig {
  network: string
  gas: number | 'auto'
  options: DevnetOptions
}

/**
 * Checks the `dualnet` key of a user config and resolves it. `profile` defaults to
 * `'ethereum'` here (Hardhat suites are written against Ethereum's answers: block
 * fields of calls, 32-byte empty slots), and `gas` to {@link DEFAULT_GAS};
 * every other option keeps createDevnet's default. Throws `TypeError` naming
 * `dualnet`, `dualnet.network` or `dualnet.gas` when they are not what they must be
 * (`reserved`: the network names Hardhat keeps for itself); the other options are
 * checked by createDevnet when the devnet starts.
 */
export function resolveDualnetConfig(user: unknown, reserved: readonly string[]): DualnetHardhatConfig {
  if (user === undefined) return { network: DEFAULT_NETWORK_NAME, gas: DEFAULT_GAS, options: withHardhatDefaults({}) }
  if (typeof user !== 'object' || user === null || Array.isArray(user)) {
    throw new TypeError(`Invalid Hardhat config: 'dualnet' must be an object of createDevnet options, got ${describe(user)}`)
  }
  const { network = DEFAULT_NETWORK_NAME, gas = DEFAULT_GAS, ...options } = user as DualnetHardhatUserConfig
  if (typeof network !== 'string' || network === '' || reserved.includes(network)) {
    throw new TypeError(`Invalid Hardhat config: 'dualnet.network' must be a network name other than ${reserved.map((n) => `'${n}'`).join(', ')}, got ${describe(network)}`)
  }
  // The chain refuses a transaction gas limit under its pool minimum or over its cap (reference §0).
  if (gas !== 'auto' && !(Number.isSafeInteger(gas) && gas >= Number(MIN_GAS_LIMIT) && gas <= DEFAULT_GAS)) {
    throw new TypeError(`Invalid Hardhat config: 'dualnet.gas' must be 'auto' or a whole number of gas from ${MIN_GAS_LIMIT} to ${DEFAULT_GAS}, got ${describe(gas)}`)
  }
  return { network, gas, options: withHardhatDefaults(options) }
}

/** createDevnet(options), its modules imported on the first call. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const { createDevnet } = await import('../devnet.ts')
  return createDevnet(options)
}

/** createDevnet options with the plugin's defaults under the user's. */
function withHardhatDefaults(options: DevnetOptions): DevnetOptions {
  return { profile: 'ethereum', ...options }
}

/** `value` as an error message shows it. */
function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : Array.isArray(value) ? 'an array' : describeValue(value)
}

/** The message of a network config the user wrote for the name the plugin provides. */
export function networkTakenMessage(name: string): string {
  return `Invalid Hardhat config: networks.${name} is provided by dualnet/hardhat; put its options under the 'dualnet' key, or name the plugin's network otherwise with dualnet.network`
}

/**
 * The message for a Hardhat that cannot be loaded from where dualnet is installed:
 * the plugin must load the project's own Hardhat, which a link to a clone of dualnet
 * (npm install /path/to/dualnet) cannot see.
 */
export function hardhatNotFoundMessage(err: unknown): string {
  return `dualnet/hardhat could not load Hardhat (${(err as Error).message.split('\n')[0]}): install hardhat in the project, and dualnet as a package (a tarball, or npm install --install-links /path/to/dualnet), not as a link`
}

/** Devnets behind providers (a Hardhat 2 network provider, a Hardhat 3 connection's provider). */
const devnets = new WeakMap<object, () => Promise<Devnet>>()

/** Records that `provider` is served by the devnet `get` resolves to (started on first call). */
export function registerDevnet(provider: object, get: () => Promise<Devnet>): void {
  devnets.set(provider, get)
}

/**
 * The devnet behind a provider of the plugin's network: Hardhat 2's
 * `hre.network.provider`, or Hardhat 3's `connection.provider` (a connection also has
 * it as `connection.dualnet`). Starts the devnet if no request did yet. Use it for
 * the REST view (`devnet.rest.get(...)`), native transactions, `dumpState()`.
 * Throws `TypeError` for a provider of another network.
 */
export async function devnetOf(provider: object): Promise<Devnet> {
  const get = devnets.get(provider)
  if (get === undefined) throw new TypeError('devnetOf: this provider is not one of a dualnet network (run with --network dualnet, or connect to it)')
  return get()
}

/** Options of the `dualnet` task (Hardhat's `node` task names its flags so). */
export interface ServeOptions {
  /** Interface both servers bind; default 127.0.0.1. */
  hostname?: string
  /** JSON-RPC port; default 8545, Hardhat's. 0: an ephemeral port. */
  port?: number
  /** REST port; default 20334, the node's. 0: an ephemeral port. */
  restPort?: number
  /** Serve the explorer page at `/explorer` of the JSON-RPC server (docs/explorer.md); default false. */
  explorer?: boolean
  /**
   * With `explorer`: the compiler output whose contracts the page names (listen's
   * `explorer.artifacts`). The tasks pass the project's root (`hre.config.paths.root`):
   * in a Hardhat project the artifacts are its own, read when the page asks, so what
   * is compiled after the task starts is found.
   */
  artifacts?: string
}

/**
 * The `dualnet` task: starts a devnet of `config` as JSON-RPC and REST servers,
 * prints both URLs (and the explorer's with `explorer`) and the dev accounts, and
 * resolves after closing the devnet once `stopped` resolves (default: once the process
 * is told to stop, SIGINT or SIGTERM).
 */
export async function serve(config: DualnetHardhatConfig, serveOptions: ServeOptions, print: (line: string) => void = console.log, stopped: () => Promise<void> = stopSignal): Promise<void> {
  const devnet = await startDevnet(config.options)
  const urls = await devnet.listen({
    host: serveOptions.hostname ?? '127.0.0.1',
    rpcPort: serveOptions.port ?? 8545,
    restPort: serveOptions.restPort ?? 20334,
    explorer: serveOptions.explorer === true && serveOptions.artifacts !== undefined ? { artifacts: serveOptions.artifacts } : (serveOptions.explorer ?? false),
  })
  print(`dualnet (chain id ${devnet.chainId}) for network '${config.network}'`)
  print(`JSON-RPC  ${urls.rpcUrl}`)
  if (urls.restUrl !== undefined) print(`REST      ${urls.restUrl}`)
  if (urls.explorerUrl !== undefined) print(`Explorer  ${urls.explorerUrl}`)
  print('Accounts')
  for (const [i, account] of devnet.accounts.entries()) print(`  (${i}) ${account.address} ${account.privateKey}`)
  await stopped()
  await devnet.close()
}

/** Resolves when the process is told to stop (SIGINT, SIGTERM). */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
