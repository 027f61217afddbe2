// Gas on the dualnet network, as on Hardhat's own: a transaction sent without a gas
// limit gets the network's `gas` (dualnet.gas, default 6,000,000, the chain's cap)
// instead of an estimate, so hardhat-ethers' signers send without eth_estimateGas, and
// two transactions sent at once do not run out of gas when the first changes what the
// second costs. Runs with --network dualnet only.
const { expect } = require('chai')
const { ethers, network } = require('hardhat')

describe('gas on the dualnet network', function () {
  before(function () {
    if (network.name !== 'dualnet') this.skip()
  })

  /** The JSON-RPC methods the network's provider is asked while `body` runs. */
  async function methodsDuring(body) {
    const { provider } = network
    const methods = []
    const request = provider.request
    provider.request = (args) => {
      methods.push(args.method)
      return request.call(provider, args)
    }
    try {
      await body()
    } finally {
      delete provider.request
    }
    return methods
  }

  it("defaults to the chain's per-transaction cap, and hardhat-ethers sends without an estimate", async function () {
    expect(network.config.gas).to.equal(6_000_000)
    const [owner, other] = await ethers.getSigners()
    let receipt
    const methods = await methodsDuring(async () => {
      receipt = await (await owner.sendTransaction({ to: other.address, value: 1n })).wait()
    })
    expect(methods).to.include('eth_sendTransaction')
    expect(methods).to.not.include('eth_estimateGas')
    expect((await ethers.provider.getTransaction(receipt.hash)).gasLimit).to.equal(6_000_000n)
  })

  it('sends delegate and transfer at once, both mined, though transfer costs more after delegate', async function () {
    const [, delegatee, recipient] = await ethers.getSigners()
    const votes = await ethers.deployContract('Votes', [1_000n])
    const alone = await votes.transfer.estimateGas(recipient.address, 1n)
    const [delegating, transferring] = await Promise.all([votes.delegate(delegatee.address), votes.transfer(recipient.address, 1n)])
    const [delegated, transferred] = await Promise.all([delegating.wait(), transferring.wait()])
    expect([delegated.status, transferred.status]).to.deep.equal([1, 1])
    // What an estimate made before `delegate` was mined would have given the transfer.
    expect(transferred.gasUsed > alone).to.equal(true)
    expect(await votes.checkpoints(delegatee.address, 0)).to.equal(999n)
  })

  it("with gas 'auto' (dualnet: { gas: 'auto' }), hardhat-ethers estimates each transaction", async function () {
    const configured = network.config.gas
    network.config.gas = 'auto'
    try {
      // A signer takes its fixed gas limit, or none, from the network config when it is created.
      const [owner, other] = await ethers.getSigners()
      let receipt
      const methods = await methodsDuring(async () => {
        receipt = await (await owner.sendTransaction({ to: other.address, value: 1n })).wait()
      })
      expect(methods).to.include('eth_estimateGas')
      expect((await ethers.provider.getTransaction(receipt.hash)).gasLimit).to.equal(21_000n)
    } finally {
      network.config.gas = configured
    }
  })

  it('gives the network gas to an eth_sendTransaction without gas (web3.js, truffle, viem json-rpc accounts)', async function () {
    const [owner, other] = await ethers.getSigners()
    const hash = await network.provider.request({ method: 'eth_sendTransaction', params: [{ from: owner.address, to: other.address, value: '0x1' }] })
    expect((await ethers.provider.getTransaction(hash)).gasLimit).to.equal(6_000_000n)
    const explicit = await network.provider.request({ method: 'eth_sendTransaction', params: [{ from: owner.address, to: other.address, value: '0x1', gas: '0x5208' }] })
    expect((await ethers.provider.getTransaction(explicit)).gasLimit).to.equal(21_000n)
  })
})
