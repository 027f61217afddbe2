const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture } = require('@nomicfoundation/hardhat-network-helpers')

describe('Token', function () {
  // Deployed once; every test starts from this state (evm_snapshot / evm_revert).
  async function deployToken() {
    const [owner, alice, bob] = await ethers.getSigners()
    const token = await ethers.deployContract('Token', [1_000_000n])
    return { token, owner, alice, bob }
  }

  it('gives the deployer the supply', async function () {
    const { token, owner } = await loadFixture(deployToken)
    expect(await token.balanceOf(owner.address)).to.equal(1_000_000n)
    expect(await token.totalSupply()).to.equal(1_000_000n)
  })

  it('transfers, with the event and both balances', async function () {
    const { token, owner, alice } = await loadFixture(deployToken)
    await expect(token.transfer(alice.address, 250n)).to.emit(token, 'Transfer').withArgs(owner.address, alice.address, 250n)
    await expect(token.transfer(alice.address, 50n)).to.changeTokenBalances(token, [owner, alice], [-50n, 50n])
  })

  it('starts each test from the fixture', async function () {
    const { token, alice } = await loadFixture(deployToken)
    expect(await token.balanceOf(alice.address)).to.equal(0n)
  })

  it('reverts with custom errors and reasons', async function () {
    const { token, alice, bob } = await loadFixture(deployToken)
    await expect(token.connect(alice).transfer(bob.address, 1n)).to.be.revertedWithCustomError(token, 'InsufficientBalance').withArgs(alice.address, 0n, 1n)
    await expect(token.connect(alice).mint(alice.address, 1n)).to.be.revertedWithCustomError(token, 'NotOwner')
    await expect(token.connect(bob).transferFrom(alice.address, bob.address, 1n)).to.be.revertedWith('allowance exceeded')
  })
})
