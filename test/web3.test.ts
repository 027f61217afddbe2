/**
 * web3.js v4 against the devnet, over the EIP-1193 `request` (in-process) and over
 * HTTP, signing locally with a wallet account. web3.js picks EIP-1559 unless a
 * gasPrice is given, and the chain has no base fee, so every send sets gasPrice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Web3, type ContractAbi, type EIP1193Provider, type Web3APISpec } from 'web3'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GOVERNANCE, GWEI, INITIAL_BALANCE, SUPPLY, TRANSFER_TOPIC, addressTopic, word } from './support.ts'

interface Transport {
  name: string
  provider(devnet: Devnet): Promise<string | EIP1193Provider<Web3APISpec>>
}

const transports: Transport[] = [
  { name: 'EIP-1193 provider (in-process)', provider: async (devnet) => devnet as unknown as EIP1193Provider<Web3APISpec> },
  { name: 'HTTP', provider: async (devnet) => (await devnet.listen()).rpcUrl },
]

describe.each(transports)('web3.js v4: $name', (transport) => {
  let devnet: Devnet
  let web3: Web3
  let owner: string
  let other: string

  beforeEach(async () => {
    devnet = await createDevnet()
    web3 = new Web3(await transport.provider(devnet))
    web3.transactionPollingInterval = 20
    web3.transactionReceiptPollingInterval = 20
    owner = web3.eth.accounts.wallet.add(devnet.accounts[0]!.privateKey)[0]!.address
    other = devnet.accounts[1]!.address
  })

  afterEach(async () => {
    await devnet.close()
  })

  it('reads the chain: chain id, block number, balance', async () => {
    expect(await web3.eth.getChainId()).toBe(BigInt(CHAIN_ID))
    expect(await web3.eth.getBlockNumber()).toBe(0n)
    expect(await web3.eth.getBalance(owner)).toBe(INITIAL_BALANCE)
    expect(await web3.eth.getGasPrice()).toBe(0n)
  })

  it('deploys Token, calls balanceOf, and transfers at 1 gwei with an exact receipt', async () => {
    const deployed = await new web3.eth.Contract(Token.abi as ContractAbi).deploy({ data: Token.bytecode, arguments: ['Test Token', 'TST', SUPPLY] }).send({ from: owner, gasPrice: GWEI.toString() })
    const token = deployed.options.address!
    expect(await web3.eth.getBlockNumber()).toBe(1n)
    expect(await web3.eth.getCode(token)).toBe(Token.deployedBytecode)
    const contract = new web3.eth.Contract(Token.abi as ContractAbi, token)
    const balanceOf = (who: string) => contract.methods.balanceOf!(who).call()
    expect(await balanceOf(owner)).toBe(SUPPLY)
    expect(await balanceOf(other)).toBe(0n)
    const afterDeploy = await web3.eth.getBalance(owner)
    const [deployHash] = (await web3.eth.getBlock(1n)).transactions as string[]
    const deployment = await web3.eth.getTransactionReceipt(deployHash!)
    expect(deployment.status).toBe(1n)
    expect(deployment.contractAddress).toBe(token.toLowerCase())
    expect(BigInt(deployment.gasUsed)).toBeGreaterThan(21_000n)
    const deployFee = BigInt(deployment.gasUsed) * GWEI
    expect(afterDeploy).toBe(INITIAL_BALANCE - deployFee)

    const data = contract.methods.transfer!(other, 250n).encodeABI()
    const receipt = await web3.eth.sendTransaction({ from: owner, to: token, data, gasPrice: GWEI })
    expect(receipt.status).toBe(1n)
    expect(receipt.blockNumber).toBe(2n)
    expect(receipt.transactionIndex).toBe(0n)
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.cumulativeGasUsed).toBe(receipt.gasUsed)
    expect((await web3.eth.getBlock(2n)).gasUsed).toBe(receipt.gasUsed)
    const fee = BigInt(receipt.gasUsed) * GWEI

    expect(receipt.logs).toHaveLength(2)
    const [transfer, feeLog] = receipt.logs
    expect(transfer!.address).toBe(token.toLowerCase())
    expect(transfer!.logIndex).toBe(0n)
    expect(transfer!.topics).toEqual([TRANSFER_TOPIC, addressTopic(owner), addressTopic(other)])
    expect(transfer!.data).toBe(word(250n))
    expect(feeLog!.address).toBe(GAS_TOKEN)
    expect(feeLog!.logIndex).toBe(1n)
    expect(feeLog!.topics).toEqual([TRANSFER_TOPIC, addressTopic(owner), addressTopic(GOVERNANCE)])
    expect(feeLog!.data).toBe(word(fee))

    const tx = await web3.eth.getTransaction(receipt.transactionHash)
    expect(tx.gasPrice).toBe(GWEI)
    expect(tx.nonce).toBe(1n)
    expect(await balanceOf(owner)).toBe(SUPPLY - 250n)
    expect(await balanceOf(other)).toBe(250n)
    expect(await web3.eth.getBalance(owner)).toBe(afterDeploy - fee)
    expect(await web3.eth.getBalance(GOVERNANCE)).toBe(deployFee + fee)
    expect(await web3.eth.getTransactionCount(owner)).toBe(2n)
  })
})
