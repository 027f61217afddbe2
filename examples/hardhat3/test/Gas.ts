// Gas on the dualnet network, as on Hardhat's own: a transaction sent without a gas
// limit gets the network's `gas` (dualnet.gas, default 6,000,000, the chain's cap)
// instead of an estimate, for hardhat-ethers and hardhat-viem alike, so two
// transactions sent at once do not run out of gas when the first changes what the
// second costs. Runs with --network dualnet only.
import { expect } from 'chai'
import { network } from 'hardhat'

const connection = await network.getOrCreate()
const { ethers, viem } = connection

describe('gas on the dualnet network', function () {
  before(function () {
    if (connection.networkName !== 'dualnet') this.skip()
  })

  /** The JSON-RPC methods the connection's provider is asked while `body` runs. */
  async function methodsDuring(body: () => Promise<unknown>): Promise<string[]> {
    const provider = connection.provider as unknown as { request: (args: { method: string }) => Promise<unknown> }
    const methods: string[] = []
    const request = provider.request
    provider.request = (args) => {
      methods.push(args.method)
      return request.call(provider, args)
    }
    try {
      await body()
    } finally {
      provider.request = request
    }
    return methods
  }

  it("defaults to the chain's per-transaction cap: hardhat-ethers and hardhat-viem send without an estimate", async function () {
    expect(BigInt(connection.networkConfig.gas)).to.equal(6_000_000n)
    const [owner, other] = await ethers.getSigners()
    const [wallet] = await viem.getWalletClients()
    const hashes: string[] = []
    const methods = await methodsDuring(async () => {
      hashes.push((await owner!.sendTransaction({ to: other!.address, value: 1n })).hash)
      hashes.push(await wallet!.sendTransaction({ to: other!.address as `0x${string}`, value: 1n }))
    })
    expect(methods).to.include('eth_sendTransaction')
    expect(methods).to.not.include('eth_estimateGas')
    for (const hash of hashes) expect((await ethers.provider.getTransaction(hash))!.gasLimit).to.equal(6_000_000n)
  })

  it('sends delegate and transfer at once, both mined, though transfer costs more after delegate', async function () {
    const [, delegatee, recipient] = await ethers.getSigners()
    const votes = await ethers.deployContract('Votes', [1_000n])
    const alone = await votes.transfer.estimateGas(recipient!.address, 1n)
    const [delegating, transferring] = await Promise.all([votes.delegate(delegatee!.address), votes.transfer(recipient!.address, 1n)])
    const [delegated, transferred] = await Promise.all([delegating.wait(), transferring.wait()])
    expect([delegated!.status, transferred!.status]).to.deep.equal([1, 1])
    // What an estimate made before `delegate` was mined would have given the transfer.
    expect(transferred!.gasUsed > alone).to.equal(true)
    expect(await votes.checkpoints(delegatee!.address, 0)).to.equal(999n)
  })
})
