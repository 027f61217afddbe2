// What only dualnet has: the chain's native REST view of the same ledger, the devnet
// object behind the network, and the chain's rules. Runs with --network dualnet only.
const { expect } = require('chai')
const { ethers, network } = require('hardhat')
const { loadFixture, reset } = require('@nomicfoundation/hardhat-network-helpers')
const { devnetOf } = require('dualnet/hardhat')

describe('dualnet views', function () {
  before(function () {
    if (network.name !== 'dualnet') this.skip()
  })

  async function deployToken() {
    return { token: await ethers.deployContract('Token', [1_000n]) }
  }

  it('reads the ledger over the native REST view', async function () {
    await loadFixture(deployToken)
    const devnet = await devnetOf(network.provider)
    const height = await devnet.rest.get('/api/v1/block/height')
    expect(height.Result).to.equal(await ethers.provider.getBlockNumber())
    // One account, both tokens: `main` in 1e-9 units, `gas` in wei, as eth_getBalance has it.
    const [owner] = await ethers.getSigners()
    const { base58 } = devnet.accounts[0]
    const balance = await devnet.rest.get(`/api/v1/balancev2/${base58}`)
    expect(balance.Result.main).to.equal('10000000000000')
    expect(BigInt(balance.Result.gas)).to.equal(await ethers.provider.getBalance(owner.address))
  })

  it('enforces the chain rules: a gas limit above 6,000,000 is refused', async function () {
    const { token } = await loadFixture(deployToken)
    await expect(token.transfer(ethers.ZeroAddress, 1n, { gasLimit: 6_000_001 })).to.be.rejectedWith(/EIP155 tx gaslimit exceed/)
  })

  it('hardhat_reset starts a fresh chain', async function () {
    await loadFixture(deployToken)
    expect(await ethers.provider.getBlockNumber()).to.be.greaterThan(0)
    await reset()
    expect(await ethers.provider.getBlockNumber()).to.equal(0)
  })
})
