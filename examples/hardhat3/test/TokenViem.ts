// The same Token through viem (hardhat-viem): deploy, read, write, events and a revert,
// on the connection every file shares (with --network dualnet, the in-process devnet).
import { expect } from 'chai'
import { network } from 'hardhat'
import { decodeEventLog, getAddress, parseEventLogs } from 'viem'

const { viem, networkHelpers } = await network.getOrCreate()

describe('Token with viem', function () {
  async function deployToken() {
    const [owner, alice] = await viem.getWalletClients()
    const token = await viem.deployContract('Token', [1_000_000n])
    return { token, owner: owner!, alice: alice!, publicClient: await viem.getPublicClient() }
  }

  it('deploys and reads through the public client', async function () {
    const { token, owner, publicClient } = await networkHelpers.loadFixture(deployToken)
    expect(await token.read.balanceOf([owner.account.address])).to.equal(1_000_000n)
    expect(await token.read.owner()).to.equal(getAddress(owner.account.address))
    // hardhat-viem's chain is the network's (12345 on dualnet, 31337 on Hardhat's network).
    expect(publicClient.chain.id).to.equal(await publicClient.getChainId())
  })

  it('writes through the wallet client, with the receipt and its Transfer log', async function () {
    const { token, owner, alice, publicClient } = await networkHelpers.loadFixture(deployToken)
    const hash = await token.write.transfer([alice.account.address, 250n])
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).to.equal('success')
    const [transfer] = parseEventLogs({ abi: token.abi, logs: receipt.logs, eventName: 'Transfer' })
    expect(transfer!.args).to.deep.equal({ from: getAddress(owner.account.address), to: getAddress(alice.account.address), value: 250n })
    expect(decodeEventLog({ abi: token.abi, ...receipt.logs[0]! }).eventName).to.equal('Transfer')
    expect(await token.read.balanceOf([alice.account.address])).to.equal(250n)
  })

  it('rejects a reverting write with the custom error, decoded by viem', async function () {
    const { token, alice } = await networkHelpers.loadFixture(deployToken)
    const asAlice = await viem.getContractAt('Token', token.address, { client: { wallet: alice } })
    const refusal = await asAlice.write.mint([alice.account.address, 1n]).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(refusal?.message).to.match(/NotOwner\(address caller\)/)
    expect(refusal?.message).to.contain(getAddress(alice.account.address))
  })
})
