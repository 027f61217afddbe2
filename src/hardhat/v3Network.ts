/**
 * Network hooks of the Hardhat 3 plugin. A connection to the plugin's network gets
 * its own devnet (`newConnection`), exposed as `connection.dualnet`; `onRequest`
 * answers each of that connection's requests from the devnet, as the JSON-RPC
 * response an HTTP node would send (errors keep their code, message and data), so
 * Hardhat's provider turns them into its usual results and ProviderErrors;
 * `closeConnection` closes the devnet; one not closed so closes when the process is about
 * to end (`beforeExit`).
 *
 * Gas: `onRequest` answers before Hardhat's own request handlers, so their
 * FixedGasHandler never sees the plugin's requests; `onRequest` does its job itself
 * (networkRequest.ts), filling `dualnet.gas` (default 6,000,000, the chain's cap) into
 * an `eth_sendTransaction` without `gas`, and rejecting a mined send that failed with
 * its revert, as Hardhat's network does. Hardhat 3's hardhat-ethers (4.x) and
 * hardhat-viem's json-rpc accounts send without `gas` and leave it to the network, so
 * no transaction is estimated before it is sent; under `gas: 'auto'` the devnet
 * estimates it as it sends it.
 */
import type { Devnet } from '../devnet.ts'
import { requestOnNetwork } from './networkRequest.ts'
import { registerDevnet, startDevnet, type DualnetHardhatConfig } from './shared.ts'

interface Connection {
  readonly networkName: string
  readonly provider: object
  dualnet?: Devnet
}
interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: number | string
  method: string
  params?: unknown[] | object
}
interface Context {
  config: { dualnet: DualnetHardhatConfig }
}

/** The devnet of each connection to the plugin's network. */
const devnets = new WeakMap<object, Devnet>()

/** The devnets of connections not closed yet, closed when the process is about to end ({@link closeAtExit}). */
const open = new Set<Devnet>()
let exitListener = false

/**
 * Closes `devnet` when the process's event loop empties (`beforeExit`), if its
 * connection was not closed before. Hardhat 3 ends a task (`test`, `run`) by letting
 * the loop empty, not by process.exit (hardhat/dist/src/internal/cli/main.js), and
 * leaves a connection taken with `network.connect()` or `getOrCreate()` open: a
 * devnet's close (its `coverage` and `gasReport` reports, the gas snapshots' check)
 * then runs once, after the last test runner. A close that fails sets the exit code.
 */
function closeAtExit(devnet: Devnet): void {
  open.add(devnet)
  if (exitListener) return
  exitListener = true
  process.once('beforeExit', () => {
    exitListener = false
    const closing = [...open]
    open.clear()
    Promise.all(closing.map((d) => d.close())).catch((err: unknown) => {
      console.error(err)
      process.exitCode = 1
    })
  })
}

export default async () => ({
  async newConnection(context: Context, next: (context: Context) => Promise<Connection>): Promise<Connection> {
    const connection = await next(context)
    const { dualnet } = context.config
    if (connection.networkName !== dualnet.network) return connection
    const devnet = await startDevnet(dualnet.options)
    devnets.set(connection, devnet)
    registerDevnet(connection.provider, async () => devnet)
    connection.dualnet = devnet
    closeAtExit(devnet)
    return connection
  },

  async onRequest(context: Context, connection: Connection, request: JsonRpcRequest, next: (...args: any[]) => Promise<unknown>): Promise<unknown> {
    const devnet = devnets.get(connection)
    if (devnet === undefined) return next(context, connection, request)
    try {
      return { jsonrpc: '2.0', id: request.id, result: await requestOnNetwork(devnet, request.method, request.params, context.config.dualnet.gas) }
    } catch (err) {
      const { code, message, data } = err as { code?: unknown; message: string; data?: unknown }
      if (typeof code !== 'number') throw err
      return { jsonrpc: '2.0', id: request.id, error: data === undefined ? { code, message } : { code, message, data } }
    }
  },

  async closeConnection(context: Context, connection: Connection, next: (context: Context, connection: Connection) => Promise<void>): Promise<void> {
    const devnet = devnets.get(connection)
    devnets.delete(connection)
    if (devnet !== undefined) open.delete(devnet)
    await devnet?.close()
    return next(context, connection)
  },
})
