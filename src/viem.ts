/**
 * `dualnet/viem`: the devnet as a viem chain, and the in-process transport.
 *
 * ```ts
 * import { createPublicClient, createWalletClient, http } from 'viem'
 * import { dualnetChain, devnetTransport } from 'dualnet/viem'
 * const chain = dualnetChain(rpcUrl)                                // from devnet.listen()
 * const client = createPublicClient({ chain, transport: http(rpcUrl) })
 * const inProcess = createWalletClient({ chain, transport: devnetTransport(devnet), account })
 * ```
 * viem is an optional peer dependency: only this entry point imports it.
 *
 * @module dualnet/viem
 */
import { custom, defineChain, rpcSchema, type Chain, type EIP1193RequestFn, type Transport } from 'viem'
import { SOLO_CHAIN_ID } from './core/constants.ts'
import type { RequestArguments } from './devnet.ts'
import type { DualnetRpcSchema } from './rpc/schema.ts'

/** Port the CLI's JSON-RPC server listens on by default (the node's, reference §0). */
const DEFAULT_RPC_URL = 'http://127.0.0.1:20339'

/**
 * A viem chain for a devnet at `rpcUrl` (default: the CLI's `http://127.0.0.1:20339`)
 * with chain id `id` (default 12345, the solo node's and `createDevnet`'s). Native
 * currency: the `gas` token, 18 decimals (eth_getBalance is its balance in wei).
 * `fees.baseFeeMultiplier: 1` makes viem take eth_gasPrice as is: its default 1.2×
 * bump turns a whole-gwei price into one the chain refuses ("gasprice … is not
 * multiple of GWei"). Blocks carry no baseFeePerGas, so viem sends legacy transactions.
 */
export function dualnetChain(rpcUrl: string = DEFAULT_RPC_URL, options: { id?: number; name?: string } = {}): Chain {
  return defineChain({
    id: options.id ?? SOLO_CHAIN_ID,
    name: options.name ?? 'dualnet',
    nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    fees: { baseFeeMultiplier: 1 },
    testnet: true,
  })
}

/** The devnet chain at the CLI's default URL, chain id 12345. */
export const dualnet: Chain = dualnetChain()

/**
 * The devnet's JSON-RPC schema for a viem client's `rpcSchema` option: with it,
 * `client.request({ method, params })` is typed per method of the devnet (Hardhat's and
 * Anvil's controls included), as `devnet.request` is.
 *
 * ```ts
 * const client = createTestClient({ chain, mode: 'anvil', transport: devnetTransport(devnet), rpcSchema: dualnetRpcSchema })
 * const id = await client.request({ method: 'evm_snapshot' }) // `0x${string}`
 * ```
 */
export const dualnetRpcSchema: DualnetRpcSchema = rpcSchema<DualnetRpcSchema>()

/** What {@link devnetTransport} returns: viem's custom transport, its `request` typed by {@link DualnetRpcSchema}. */
export type DevnetTransport = Transport<'custom', Record<string, never>, EIP1193RequestFn<DualnetRpcSchema>>

/**
 * viem's `custom` transport over a devnet's EIP-1193 `request` (in-process, no
 * sockets), without retries: viem retries errors whose code it does not know (a
 * revert's code 3 among them) with a back-off, and a devnet's answer is final.
 * Its `request` is typed by {@link DualnetRpcSchema}; give a client
 * `rpcSchema: dualnetRpcSchema` for its `request` to be typed too.
 */
export function devnetTransport(devnet: { request(args: RequestArguments): Promise<unknown> }): DevnetTransport {
  return custom({ request: devnet.request.bind(devnet) as EIP1193RequestFn<DualnetRpcSchema> }, { retryCount: 0 }) as DevnetTransport
}
