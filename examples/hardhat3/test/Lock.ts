import { expect } from 'chai'
import { network } from 'hardhat'

const { ethers, networkHelpers } = await network.getOrCreate()
const { loadFixture, time } = networkHelpers

describe('Lock', function () {
  const ONE_YEAR = 365 * 24 * 60 * 60
  const LOCKED = ethers.parseEther('1')

  async function deployLock() {
    const unlockTime = (await time.latest()) + ONE_YEAR
    const [owner, other] = await ethers.getSigners()
    const lock = await ethers.deployContract('Lock', [unlockTime], { value: LOCKED })
    return { lock, unlockTime, owner, other }
  }

  it('holds the value until the unlock time', async function () {
    const { lock, unlockTime } = await loadFixture(deployLock)
    expect(await lock.unlockTime()).to.equal(unlockTime)
    expect(await ethers.provider.getBalance(lock.target)).to.equal(LOCKED)
    await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet")
  })

  it('lets the owner withdraw after time travel', async function () {
    const { lock, unlockTime, owner, other } = await loadFixture(deployLock)
    await time.increaseTo(unlockTime)
    await expect((lock.connect(other) as typeof lock).withdraw()).to.be.revertedWith("You aren't the owner")
    // changeEtherBalances counts the fee: the owner gains the locked value less the gas paid.
    await expect(lock.withdraw()).to.changeEtherBalances(ethers, [owner, lock], [LOCKED, -LOCKED])
  })

  it('emits Withdrawal with the block time', async function () {
    const { lock, unlockTime } = await loadFixture(deployLock)
    await time.increaseTo(unlockTime)
    await expect(lock.withdraw())
      .to.emit(lock, 'Withdrawal')
      .withArgs(LOCKED, unlockTime + 1)
  })
})
