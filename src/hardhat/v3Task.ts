/** The `dualnet` task of the Hardhat 3 plugin: the network's devnet as servers. */
import { serve, type DualnetHardhatConfig, type ServeOptions } from './shared.ts'

/** `args`: the task's options; the explorer names the project's own contracts (its root's artifacts). */
export default async function dualnetTask(args: ServeOptions, hre: { config: { dualnet: DualnetHardhatConfig; paths: { root: string } } }): Promise<void> {
  await serve(hre.config.dualnet, { ...args, artifacts: hre.config.paths.root })
}
