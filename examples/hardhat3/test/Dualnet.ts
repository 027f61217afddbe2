// What only dualnet has: the chain's native REST view of the same ledger, the devnet
// object behind the connection, and the chain's rules. Runs with --network dualnet only.
import { expect } from 'chai'
import { network } from 'hardhat'

const connection = await network.getOrCreate()
const { ethers, networkHelpers } = connection

describe('dualnet views', function () {
  before(function () {
    if (connection.networkName !== 'dualnet') this.skip()
  })

  async function deployToken() {
    return { token: await ethers.deployContract('Token', [1_000n]) }
  }

  it('reads the ledger over the native REST view', async function () {
    await networkHelpers.loadFixture(deployToken)
    const devnet = connection.dualnet!
    const height = await devnet.rest.get('/api/v1/block/height')
    expect(height.Result).to.equal(await ethers.provider.getBlockNumber())
    // One account, both tokens: `main` in 1e-9 units, `gas` in wei, as eth_getBalance has it.
    const [owner] = await ethers.getSigners()
    const balance = (await devnet.rest.get(`/api/v1/balancev2/${devnet.accounts[0]!.base58}`)).Result as { main: string; gas: string }
    expect(balance.main).to.equal('10000000000000')
    expect(BigInt(balance.gas)).to.equal(await ethers.provider.getBalance(owner.address))
  })

  it('enforces the chain rules: a gas limit above 6,000,000 is refused', async function () {
    const { token } = await networkHelpers.loadFixture(deployToken)
    const refusal = await token.transfer(ethers.ZeroAddress, 1n, { gasLimit: 6_000_001 }).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(refusal?.message).to.match(/EIP155 tx gaslimit exceed/)
  })

  it('gives another connection its own devnet', async function () {
    await networkHelpers.loadFixture(deployToken)
    const other = await network.create()
    expect(other.dualnet).to.not.equal(connection.dualnet)
    expect(await other.ethers.provider.getBlockNumber()).to.equal(0)
    await other.close()
  })

  it('hardhat_reset starts a fresh chain', async function () {
    await networkHelpers.loadFixture(deployToken)
    expect(await ethers.provider.getBlockNumber()).to.be.greaterThan(0)
    await connection.provider.request({ method: 'hardhat_reset', params: [] })
    expect(await ethers.provider.getBlockNumber()).to.equal(0)
  })
})
