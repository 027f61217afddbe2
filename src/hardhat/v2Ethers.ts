/**
 * Hardhat 2's hardhat-ethers (3.x) on the plugin's network: its signers get the
 * network's `gas` as their fixed gas limit, as they get it on Hardhat's own network,
 * instead of estimating each transaction before sending it.
 *
 * Why a shim: `HardhatEthersSigner.create` (hardhat-ethers 3.x, signers.js) gives a
 * signer a fixed gas limit only on a network named `hardhat` (its config's `gas`) or
 * `localhost` (a numeric `gas`, or a node that answers `hardhat_metadata`); on every
 * other network the signer calls `eth_estimateGas` before each send, and sends the
 * estimate as the gas limit. hardhat-ethers has no option or hook for this, and a
 * gas limit already in the transaction is all that stops the estimate, so filling
 * `gas` in the provider (which serves web3.js, truffle and viem) cannot reach it.
 * Two transactions sent at once are then both estimated before either is mined, and
 * the second runs out of gas when the first changes what it does (OpenZeppelin's
 * Governor fixture: `delegate`, then `transfer` that writes a checkpoint).
 *
 * The shim wraps `create` of each copy of hardhat-ethers the project loaded (found in
 * Node's module cache by its `internal/index.js`, which the config's `require` loads
 * before the environment is built; its `signers.js` is the module its helpers and
 * provider use). The wrapper lets `create` run as it is, then, when Hardhat's selected
 * network is the plugin's and its config's `gas` is a number, sets the signer's fixed
 * gas limit (`_gasLimit`) that `create` left undefined: the same field, read at the
 * same moment, that `create` sets for `hardhat`. A hardhat-ethers other than 3.x, or
 * one whose signers do not have that field, is left as it is, with a warning once.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** What the shim uses of hardhat-ethers 3.x's signer class and its instances. */
interface SignerClass {
  create(this: unknown, ...args: unknown[]): Promise<{ _gasLimit?: unknown }>
}

/** What the shim reads of Hardhat 2's environment (`require('hardhat')`). */
interface Hre {
  network: { name: string; config: { gas?: unknown } }
  config: { dualnet?: { network?: unknown } }
}

/** Marks a signer class whose `create` is wrapped (once per copy of hardhat-ethers, however many environments). */
const WRAPPED = Symbol.for('dualnet.hardhat-ethers.fixedGas')
/** hardhat-ethers' entry module, as Node's module cache names it. */
const ENTRY = /[\\/]@nomicfoundation[\\/]hardhat-ethers[\\/]internal[\\/]index\.js$/

const requireHere = createRequire(import.meta.url)

/**
 * Gives the signers of every hardhat-ethers 3.x the project loaded the plugin
 * network's `gas` as their fixed gas limit (see the module's comment). Idempotent.
 * `warn` receives one line for each copy left as it is (another major version, or
 * signers without the expected field). Does nothing when hardhat-ethers is not loaded.
 */
export function fixEthersSignersGas(warn: (line: string) => void = console.warn): void {
  const packages = new Set(
    Object.keys(requireHere.cache)
      .filter((id) => ENTRY.test(id))
      .map((id) => dirname(dirname(id))),
  )
  for (const dir of packages) wrapCreate(dir, warn)
}

/** Wraps `HardhatEthersSigner.create` of the hardhat-ethers at `dir`, when it is a version whose signers the shim knows. */
function wrapCreate(dir: string, warn: (line: string) => void): void {
  const requireThere = createRequire(join(dir, 'package.json'))
  const { version } = requireThere('./package.json') as { version?: unknown }
  const leftAlone = (why: string) => warn(`dualnet/hardhat: ${why}; its signers estimate the gas of each transaction on the dualnet network (set dualnet.gas to 'auto' to say that is meant)`)
  if (typeof version !== 'string' || !version.startsWith('3.'))
    return leftAlone(`hardhat-ethers ${typeof version === 'string' ? version : '(no version)'} at ${dir} is not 3.x, whose signers dualnet knows`)
  const Signer = (requireThere('./signers.js') as { HardhatEthersSigner?: SignerClass & { [WRAPPED]?: true } }).HardhatEthersSigner
  if (Signer === undefined || typeof Signer.create !== 'function') return leftAlone(`hardhat-ethers ${version} at ${dir} has no HardhatEthersSigner.create`)
  if (Signer[WRAPPED] === true) return
  const create = Signer.create
  let warned = false
  Signer.create = async function (this: unknown, ...args: unknown[]) {
    const signer = await create.apply(this, args)
    // The environment `create` itself reads (hardhat-ethers requires 'hardhat' in it).
    const hre = requireThere('hardhat') as Hre
    const gas = hre.network.config.gas
    if (hre.network.name !== hre.config.dualnet?.network || typeof gas !== 'number' || signer._gasLimit !== undefined) return signer
    if (!Object.hasOwn(signer, '_gasLimit')) {
      if (!warned) leftAlone(`hardhat-ethers ${version}'s signers have no _gasLimit field`)
      warned = true
      return signer
    }
    signer._gasLimit = gas
    return signer
  }
  Signer[WRAPPED] = true
}
