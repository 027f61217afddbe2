import { expect } from 'chai'
import { network } from 'hardhat'

// The run's connection, shared by the files: with --network dualnet, one in-process devnet.
const { ethers, networkHelpers } = await network.getOrCreate()

describe('Token', function () {
  // Deployed once; every test starts from this state (evm_snapshot / evm_revert).
  async function deployToken() {
    const [owner, alice, bob] = await ethers.getSigners()
    const token = await ethers.deployContract('Token', [1_000_000n])
    return { token, owner, alice, bob }
  }

  it('gives the deployer the supply', async function () {
    const { token, owner } = await networkHelpers.loadFixture(deployToken)
    expect(await token.balanceOf(owner.address)).to.equal(1_000_000n)
    expect(await token.totalSupply()).to.equal(1_000_000n)
  })

  it('transfers, with the event and both balances', async function () {
    const { token, owner, alice } = await networkHelpers.loadFixture(deployToken)
    await expect(token.transfer(alice.address, 250n)).to.emit(token, 'Transfer').withArgs(owner.address, alice.address, 250n)
    await expect(token.transfer(alice.address, 50n)).to.changeTokenBalances(ethers, token, [owner, alice], [-50n, 50n])
  })

  it('starts each test from the fixture', async function () {
    const { token, alice } = await networkHelpers.loadFixture(deployToken)
    expect(await token.balanceOf(alice.address)).to.equal(0n)
  })

  it('reverts with custom errors and reasons', async function () {
    const { token, alice, bob } = await networkHelpers.loadFixture(deployToken)
    await expect((token.connect(alice) as typeof token).transfer(bob.address, 1n))
      .to.be.revertedWithCustomError(token, 'InsufficientBalance')
      .withArgs(alice.address, 0n, 1n)
    await expect((token.connect(alice) as typeof token).mint(alice.address, 1n)).to.be.revertedWithCustomError(token, 'NotOwner')
    await expect((token.connect(bob) as typeof token).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith('allowance exceeded')
  })
})
