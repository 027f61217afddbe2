// `npx hardhat run scripts/deploy.ts --network dualnet`: deploys the token on an
// in-process dualnet and reads it back over both views.
import { network } from 'hardhat'

const connection = await network.create()
const token = await connection.ethers.deployContract('Token', [1_000_000n])
const receipt = await token.deploymentTransaction()!.wait()
console.log(`Token deployed at ${token.target} in block ${receipt!.blockNumber} on ${connection.networkName}`)
if (connection.dualnet !== undefined) {
  const height = await connection.dualnet.rest.get('/api/v1/block/height')
  console.log(`REST block height: ${height.Result}`)
}
