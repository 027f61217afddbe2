/**
 * `dualnet/ethers`: ethers v6 providers with the settings an automining devnet needs.
 *
 * ```ts
 * import { dualnetProvider } from 'dualnet/ethers'
 * const provider = dualnetProvider(rpcUrl)        // JsonRpcProvider, over HTTP
 * const inProcess = dualnetProvider(devnet)       // BrowserProvider, over devnet.request
 * const signer = await provider.getSigner(0)      // a dev account (eth_sendTransaction)
 * ```
 * ethers is an optional peer dependency: only this entry point imports it.
 *
 * @module dualnet/ethers
 */
import { BrowserProvider, JsonRpcProvider, type Eip1193Provider } from 'ethers'
import { SOLO_CHAIN_ID } from './core/constants.ts'

/** Options of {@link dualnetProvider}. */
export interface DualnetProviderOptions {
  /** The devnet's chain id; default 12345 (`createDevnet`'s and the CLI's). */
  chainId?: number
  /** Milliseconds between polls of `contract.on(...)` listeners and `tx.wait()`; default 20 (ethers: 4000). */
  pollingInterval?: number
}

/**
 * A provider for a devnet: a `JsonRpcProvider` for a URL (from `devnet.listen()` or
 * the CLI), a `BrowserProvider` for an EIP-1193 object (the devnet itself, in-process).
 * Settings: `cacheTimeout: -1`, because ethers otherwise answers repeated reads
 * (nonce, balance, block number) from a 250 ms cache that an automining chain
 * outruns, so a second send reuses a stale nonce; the network fixed to `chainId`
 * (`staticNetwork`: no eth_chainId before every request); `pollingInterval` low.
 */
export function dualnetProvider(target: string, options?: DualnetProviderOptions): JsonRpcProvider
export function dualnetProvider(target: Eip1193Provider, options?: DualnetProviderOptions): BrowserProvider
export function dualnetProvider(target: string | Eip1193Provider, options: DualnetProviderOptions = {}): JsonRpcProvider | BrowserProvider {
  const chainId = options.chainId ?? SOLO_CHAIN_ID
  const pollingInterval = options.pollingInterval ?? 20
  if (typeof target === 'string') {
    const provider = new JsonRpcProvider(target, chainId, { staticNetwork: true, cacheTimeout: -1, pollingInterval })
    return provider
  }
  return new BrowserProvider(target, chainId, { staticNetwork: true, cacheTimeout: -1, pollingInterval })
}
