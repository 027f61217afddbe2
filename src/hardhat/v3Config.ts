/**
 * Config hooks of the Hardhat 3 plugin: the `dualnet` key is checked and resolved
 * into `config.dualnet`, and the network it names is added as an HTTP network whose
 * URL marks it as the plugin's (requests to it never reach that URL: see v3Network.ts),
 * with the `gas` of `dualnet.gas` (default 6,000,000, the chain's cap).
 */
import { SOLO_CHAIN_ID } from '../core/constants.ts'
import type { DevnetOptions } from '../options/types.ts'
import { networkTakenMessage, resolveDualnetConfig } from './shared.ts'

/** Network names Hardhat 3 keeps for itself. */
const RESERVED = ['default', 'localhost', 'node']
/** URL of the plugin's network: never dialled (port 0), and how the hooks tell it from a user's network of the same name. */
export const IN_PROCESS_URL = 'http://127.0.0.1:0/dualnet-in-process'

type UserConfig = Record<string, any> & { dualnet?: unknown; networks?: Record<string, any> }
type Next<T> = (config: T, ...rest: any[]) => Promise<T>

/** The resolved `dualnet` config, or undefined when the key is invalid (validateUserConfig reports it). */
function tryResolve(user: UserConfig) {
  try {
    return resolveDualnetConfig(user.dualnet, RESERVED)
  } catch {
    return undefined
  }
}

export default async () => ({
  async extendUserConfig(config: UserConfig, next: Next<UserConfig>): Promise<UserConfig> {
    const extended = await next(config)
    const dualnet = tryResolve(extended)
    if (dualnet === undefined || extended.networks?.[dualnet.network] !== undefined) return extended
    const chainId = (dualnet.options as DevnetOptions).chainId ?? SOLO_CHAIN_ID
    // `gas` as the network's onRequest hook sends it (v3Network.ts), so that `network.config.gas` tells the truth.
    return { ...extended, networks: { ...extended.networks, [dualnet.network]: { type: 'http', url: IN_PROCESS_URL, chainId, gas: dualnet.gas } } }
  },

  async validateUserConfig(config: UserConfig): Promise<Array<{ path: Array<string | number>; message: string }>> {
    let dualnet
    try {
      dualnet = resolveDualnetConfig(config.dualnet, RESERVED)
    } catch (err) {
      return [{ path: ['dualnet'], message: (err as Error).message }]
    }
    if (config.networks?.[dualnet.network]?.url !== IN_PROCESS_URL) {
      return [{ path: ['networks', dualnet.network], message: networkTakenMessage(dualnet.network) }]
    }
    return []
  },

  async resolveUserConfig(userConfig: UserConfig, resolveConfigurationVariable: unknown, next: Next<Record<string, any>>): Promise<Record<string, any>> {
    const resolved = await next(userConfig, resolveConfigurationVariable)
    return { ...resolved, dualnet: resolveDualnetConfig(userConfig.dualnet, RESERVED) }
  },
})
