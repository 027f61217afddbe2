/**
 * A contract test suite on dualnet with vitest: `useDevnet()` gives the file one devnet,
 * reverted to its starting state after every test; `loadFixture` deploys once and
 * returns to the deployed state at the start of each test that asks for it.
 * Run with `npm run example:vitest`. In your project:
 *   import { loadFixture } from 'dualnet'
 *   import { useDevnet } from 'dualnet/vitest'
 *   import { dualnetProvider } from 'dualnet/ethers'
 */
import { Contract, ContractFactory, isError, type InterfaceAbi } from 'ethers'
import { describe, expect, it } from 'vitest'
import { loadFixture, type Devnet } from '../../src/index.ts'
import { dualnetProvider } from '../../src/ethers.ts'
import { useDevnet } from '../../src/vitest.ts'
import { Token } from '../../fixtures/index.ts'

const net = useDevnet()

/** Deploys the token with 1,000 units to dev account 0; run once, then restored by snapshot. */
async function deployToken(devnet: Devnet) {
  const provider = dualnetProvider(devnet)
  const [owner, alice] = [await provider.getSigner(0), await provider.getSigner(1)]
  const deployed = await new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode, owner).deploy('Example Token', 'EXT', 1_000n)
  await deployed.waitForDeployment()
  const token = new Contract(await deployed.getAddress(), Token.abi as InterfaceAbi, owner)
  return { provider, owner, alice, token, asAlice: token.connect(alice) as Contract }
}

describe('Token', () => {
  it('starts with the whole supply at the deployer', async () => {
    const { owner, token } = await loadFixture(net.devnet, deployToken)
    expect(await token.getFunction('balanceOf')(owner.address)).toBe(1_000n)
    expect(await token.getFunction('totalSupply')()).toBe(1_000n)
  })

  it('transfers and emits Transfer', async () => {
    const { owner, alice, token } = await loadFixture(net.devnet, deployToken)
    const tx = await token.getFunction('transfer')(alice.address, 250n)
    const receipt = await tx.wait()
    const transfer = token.interface.parseLog(receipt.logs[0])!
    expect([transfer.name, ...transfer.args]).toEqual(['Transfer', owner.address, alice.address, 250n])
    expect(await token.getFunction('balanceOf')(alice.address)).toBe(250n)
  })

  it('sees the deployed state again, not the previous test’s transfer', async () => {
    const { alice, token } = await loadFixture(net.devnet, deployToken)
    expect(await token.getFunction('balanceOf')(alice.address)).toBe(0n)
  })

  it('reverts a transfer above the balance with the contract’s custom error', async () => {
    const { owner, alice, asAlice } = await loadFixture(net.devnet, deployToken)
    const error = await asAlice
      .getFunction('transfer')(owner.address, 1n)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true)
    if (!isError(error, 'CALL_EXCEPTION')) return
    // A send's error carries the revert data; the contract's interface decodes it.
    const decoded = asAlice.interface.parseError(error.data!)!
    expect([decoded.name, ...decoded.args]).toEqual(['InsufficientBalance', alice.address, 0n, 1n])
    expect(await asAlice.getFunction('balanceOf')(owner.address)).toBe(1_000n)
  })

  it('moves time for time-dependent logic, undone after the test', async () => {
    const { provider } = await loadFixture(net.devnet, deployToken)
    const week = 7 * 24 * 3600
    // increaseTime moves the chain's clock (wall time plus an offset), not the latest block.
    const now = Math.floor(Date.now() / 1000)
    await net.devnet.increaseTime(week)
    await net.devnet.mine()
    expect((await provider.getBlock('latest'))!.timestamp).toBeGreaterThanOrEqual(now + week)
    // setNextBlockTimestamp fixes the next block's time exactly.
    await net.devnet.setNextBlockTimestamp(now + 2 * week)
    await net.devnet.mine()
    expect((await provider.getBlock('latest'))!.timestamp).toBe(now + 2 * week)
  })
})
