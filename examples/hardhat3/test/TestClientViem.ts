// hardhat-viem's test client on dualnet: hardhat-viem recognises a development network
// by hardhat_metadata (or anvil_nodeInfo), which dualnet answers, so getTestClient()
// works and viem's retries are off: a reverting read asks the provider once.
import { expect } from 'chai'
import { network } from 'hardhat'

const connection = await network.getOrCreate()
const { viem } = connection

describe('hardhat-viem test client', function () {
  it('getTestClient() works: mine, setBalance, snapshot and revert', async function () {
    const testClient = await viem.getTestClient()
    const publicClient = await viem.getPublicClient()
    const id = await testClient.snapshot()
    const before = await publicClient.getBlockNumber()
    await testClient.mine({ blocks: 2 })
    expect(await publicClient.getBlockNumber()).to.equal(before + 2n)
    const someone = '0x00000000000000000000000000000000000000aa'
    await testClient.setBalance({ address: someone, value: 12345n })
    expect(await publicClient.getBalance({ address: someone })).to.equal(12345n)
    await testClient.revert({ id })
    expect(await publicClient.getBlockNumber()).to.equal(before)
  })

  it('a reverting read makes one provider call', async function () {
    const token = await viem.deployContract('Token', [1_000_000n])
    const [, alice] = await viem.getWalletClients()
    const provider = connection.provider
    const request = provider.request.bind(provider)
    const calls: string[] = []
    provider.request = (args) => {
      calls.push(args.method)
      return request(args)
    }
    try {
      // The client binds the provider's request when it is made: after the count starts.
      const publicClient = await viem.getPublicClient()
      const refusal = await publicClient.simulateContract({ account: alice!.account, address: token.address, abi: token.abi, functionName: 'mint', args: [alice!.account.address, 1n] }).then(
        () => undefined,
        (error: Error) => error,
      )
      expect(refusal?.message).to.match(/NotOwner/)
      expect(calls.filter((method) => method === 'eth_call')).to.have.length(1)
    } finally {
      provider.request = request
    }
  })
})
