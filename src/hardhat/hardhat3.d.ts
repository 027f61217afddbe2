/**
 * Types of `dualnet/hardhat` under `import` (Hardhat 3): the plugin's, plus the
 * type extensions of Hardhat 3 (the `dualnet` config key, `connection.dualnet`).
 * Written by hand because this repository does not install Hardhat, against whose
 * types the extensions are declared; the build copies it to dist/hardhat/.
 */
import type { Devnet } from '../devnet.js'
import type { DualnetHardhatConfig, DualnetHardhatUserConfig } from './shared.js'
import type { HardhatPlugin } from 'hardhat/types/plugins'

export { devnetOf, type DualnetHardhatConfig, type DualnetHardhatUserConfig } from './shared.js'

/** The Hardhat 3 plugin of dualnet: `plugins: [dualnet]`. */
declare const dualnetPlugin: HardhatPlugin
export default dualnetPlugin

declare module 'hardhat/types/config' {
  interface HardhatUserConfig {
    /** createDevnet options of the devnet behind the `dualnet` network, and the network's name (`network`). */
    dualnet?: DualnetHardhatUserConfig
  }
  interface HardhatConfig {
    dualnet: DualnetHardhatConfig
  }
}

declare module 'hardhat/types/network' {
  interface NetworkConnection<ChainTypeT extends ChainType | string = DefaultChainType> {
    /** The devnet behind this connection, for a connection to the dualnet network (else undefined). */
    dualnet?: Devnet
  }
}
