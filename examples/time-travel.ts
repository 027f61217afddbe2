/**
 * Snapshots and time travel: a deployed state taken once with `loadFixture`, changes
 * undone with `snapshot()`/`revert()` (O(changes)), time moved with `increaseTime` and
 * `setNextBlockTimestamp`, and a thousand blocks mined at once. The same controls answer as JSON-RPC (`evm_snapshot`,
 * `evm_revert`, `evm_increaseTime`, `hardhat_mine`, …) for Hardhat and Anvil helpers.
 * Run with `npm run example:snapshots`. In your project: `from 'dualnet'`.
 */
import { Contract, ContractFactory, type InterfaceAbi } from 'ethers'
import { createDevnet, loadFixture, type Devnet } from '../src/index.ts'
import { dualnetProvider } from '../src/ethers.ts'
import { Store } from '../fixtures/index.ts'

// A frozen clock and a fixed genesis make every run print the same timestamps.
const devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: 1_700_000_000 })
// No read cache: ethers otherwise answers repeated reads from a 250 ms cache.
const provider = dualnetProvider(devnet)

/** The fixture: deploys Store. Declared once, so loadFixture finds its snapshot again. */
async function deployStore(net: Devnet): Promise<Contract> {
  const signer = await dualnetProvider(net).getSigner(0)
  const store = await new ContractFactory(Store.abi as InterfaceAbi, Store.bytecode, signer).deploy()
  await store.waitForDeployment()
  return new Contract(await store.getAddress(), Store.abi as InterfaceAbi, await provider.getSigner(0))
}

const latest = async () => {
  const block = (await provider.getBlock('latest'))!
  return `latest block ${block.number} at ${block.timestamp}`
}

try {
  const store = await loadFixture(devnet, deployStore)
  console.log(`Store deployed at ${await store.getAddress()}; height ${await provider.getBlockNumber()}`)

  // Snapshot, change, revert: the writes and the blocks that carried them are gone.
  const id = await devnet.snapshot()
  for (let i = 0; i < 3; i++) await (await store.getFunction('increment')()).wait()
  console.log(`after 3 increments: count ${await store.getFunction('count')()}, height ${await provider.getBlockNumber()}`)
  console.log(`revert(${id}) -> ${await devnet.revert(id)}: count ${await store.getFunction('count')()}, height ${await provider.getBlockNumber()}`)

  // Time, as block timestamps (what block.timestamp reads) show it.
  console.log(`now:                            ${await latest()}`)
  await devnet.increaseTime(3_600)
  await devnet.mine()
  console.log(`increaseTime(3600), mine():     ${await latest()}`)
  await devnet.setNextBlockTimestamp(1_800_000_000)
  await devnet.mine()
  console.log(`setNextBlockTimestamp, mine():  ${await latest()}`)
  // 1,000 empty blocks, 12 s apart, reserved at once and built only when read.
  await devnet.mine(1_000, { interval: 12 })
  console.log(`mine(1000, { interval: 12 }):   ${await latest()}`)

  // loadFixture again: back to the deployed state at once, whatever happened since.
  const again = await loadFixture(devnet, deployStore)
  console.log(`loadFixture again: same contract ${(await again.getAddress()) === (await store.getAddress())}, height ${await provider.getBlockNumber()}`)

  // The same controls under their JSON-RPC names.
  const rpcId = await devnet.rpc('evm_snapshot')
  await devnet.rpc('hardhat_mine', ['0x5'])
  console.log(`evm_snapshot ${rpcId}, hardhat_mine 5: height ${await devnet.rpc('eth_blockNumber')}`)
  console.log(`evm_revert ${rpcId}: ${await devnet.rpc('evm_revert', [rpcId])}, height ${await devnet.rpc('eth_blockNumber')}`)
} finally {
  await devnet.close()
}
