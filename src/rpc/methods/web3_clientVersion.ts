import { defineMethod } from '../declare.ts'
import { NODE_VERSION, VERSION } from '../../version.ts'

/** web3_clientVersion: `HardhatNetwork/dualnet/v<version>`, or with `clientVersion: 'node'` the real node's `Ontology-v<version>-dualnet`. */
export const web3_clientVersion = defineMethod({
  name: 'web3_clientVersion',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.clientVersion,
})

/** The `clientVersion` option: the identification the test tools accept, or the real node's string. */
export type ClientVersionOption = 'hardhat' | 'node'

/**
 * What web3_clientVersion answers for the `clientVersion` option (default `'hardhat'`).
 *
 * `'hardhat'`: `HardhatNetwork/dualnet/v<version>`. Tools refuse a node by this
 * string: every @nomicfoundation/hardhat-network-helpers helper (1.x for Hardhat 2,
 * 3.x for Hardhat 3) throws unless it starts with `hardhatnetwork`, `zksync` or `anvil`
 * (case-insensitive; 1.0.x accepted `hardhatnetwork` only), and OpenZeppelin's
 * upgrades plugins treat a chain as a development network only when the part before
 * the first `/` is exactly `HardhatNetwork` or `anvil`. Those helpers then call the
 * hardhat_* / evm_* methods, which dualnet serves with Hardhat's semantics (hardhat_mine
 * with its interval, strictly increasing timestamps, snapshots invalidated on revert),
 * so it names itself as Hardhat's network does; viem's test actions and Foundry do not
 * read the string. `dualnet/v<version>` follows, so that logs and users still see what
 * answered.
 *
 * `'node'`: the real node's `Ontology-<version>` (reference §6.2), with the version REST
 * getversion reports (`v<version>-dualnet`); the tools above then refuse the devnet.
 *
 * Throws RangeError naming the option for any other value.
 */
export function clientVersionString(option: ClientVersionOption = 'hardhat'): string {
  if (option === 'hardhat') return `HardhatNetwork/dualnet/v${VERSION}`
  if (option === 'node') return `Ontology-${NODE_VERSION}`
  throw new RangeError(`option clientVersion must be 'hardhat' or 'node', got ${JSON.stringify(option)}`)
}
