// `npx hardhat run scripts/deploy.js --network dualnet`: deploys the token on an
// in-process dualnet and reads it back over both views.
const { ethers, network } = require('hardhat')
const { devnetOf } = require('dualnet/hardhat')

async function main() {
  const token = await ethers.deployContract('Token', [1_000_000n])
  await token.waitForDeployment()
  const receipt = await token.deploymentTransaction().wait()
  console.log(`Token deployed at ${token.target} in block ${receipt.blockNumber} on ${network.name}`)
  if (network.name === 'dualnet') {
    const devnet = await devnetOf(network.provider)
    const height = await devnet.rest.get('/api/v1/block/height')
    console.log(`REST block height: ${height.Result}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
