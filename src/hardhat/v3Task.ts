/** The `dualnet` task of the Hardhat 3 plugin: the network's devnet as servers. */
import { serve, type DualnetHardhatConfig, type ServeOptions } from './shared.ts'

export default async function dualnetTask(args: ServeOptions, hre: { config: { dualnet: DualnetHardhatConfig } }): Promise<void> {
  await serve(hre.config.dualnet, args)
}
