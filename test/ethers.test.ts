/**
 * ethers v6 against the devnet, in-process (BrowserProvider over the EIP-1193
 * `request`, signing with the node's accounts through eth_sendTransaction) and over
 * HTTP (JsonRpcProvider with a local Wallet, eth_sendRawTransaction).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  BrowserProvider,
  type Contract,
  ContractFactory,
  JsonRpcProvider,
  NonceManager,
  Wallet,
  getAddress,
  isError,
  type ContractTransactionResponse,
  type InterfaceAbi,
  type JsonRpcApiProvider,
  type Signer,
  type TransactionReceipt,
} from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Push0, Reverter, Store, Token } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GOVERNANCE, GWEI, INITIAL_BALANCE, SUPPLY, TRANSFER_TOPIC, addressTopic, word } from './support.ts'

interface Connection {
  provider: JsonRpcApiProvider
  /** A signer for dev account `index`. */
  signer(index: number): Promise<Signer>
}

interface Transport {
  name: string
  connect(devnet: Devnet): Promise<Connection>
}

/**
 * `cacheTimeout: -1`: ethers otherwise answers identical reads (nonce, balance, block
 * number) from a 250 ms cache, which an automining chain outruns (ethers documents
 * -1 for such test chains). `batchStallTime: 0`: batch what is issued together
 * without waiting 10 ms for more.
 */
const transports: Transport[] = [
  {
    name: 'in-process BrowserProvider (eth_sendTransaction)',
    async connect(devnet) {
      const provider = new BrowserProvider(devnet, undefined, { cacheTimeout: -1 })
      return { provider, signer: (index) => provider.getSigner(index) }
    },
  },
  {
    name: 'HTTP JsonRpcProvider + Wallet (eth_sendRawTransaction)',
    async connect(devnet) {
      const { rpcUrl } = await devnet.listen()
      const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1, batchStallTime: 0 })
      return {
        provider,
        signer: async (index) => new Wallet(devnet.accounts[index]!.privateKey, provider),
      }
    },
  },
]

describe.each(transports)('ethers v6: $name', (transport) => {
  let devnet: Devnet
  let connection: Connection
  let provider: JsonRpcApiProvider
  let owner: Signer
  let ownerAddress: string
  let other: string

  beforeEach(async () => {
    devnet = await createDevnet()
    connection = await transport.connect(devnet)
    provider = connection.provider
    owner = await connection.signer(0)
    ownerAddress = await owner.getAddress()
    other = getAddress(devnet.accounts[1]!.address)
  })

  afterEach(async () => {
    provider.destroy()
    await devnet.close()
  })

  async function deploy(artifact: typeof Token, args: unknown[] = []): Promise<Contract> {
    const factory = new ContractFactory(artifact.abi as InterfaceAbi, artifact.bytecode, owner)
    const contract = await factory.deploy(...args)
    await contract.waitForDeployment()
    return contract as Contract
  }

  const deployToken = () => deploy(Token, ['Test Token', 'TST', SUPPLY])

  /** Asserts what every single-transaction block of the devnet holds for `receipt`. */
  async function expectOwnBlock(receipt: TransactionReceipt): Promise<void> {
    const block = (await provider.getBlock(receipt.blockNumber))!
    expect(block.transactions).toEqual([receipt.hash])
    expect(block.gasUsed).toBe(receipt.gasUsed)
    expect(receipt.cumulativeGasUsed).toBe(receipt.gasUsed)
    expect(receipt.index).toBe(0)
  }

  it('sees the chain: id, accounts, balances, legacy fee data', async () => {
    expect((await provider.getNetwork()).chainId).toBe(BigInt(CHAIN_ID))
    expect(await provider.getBlockNumber()).toBe(0)
    const accounts = await provider.listAccounts()
    expect(accounts.map((a) => a.address)).toEqual(devnet.accounts.map((a) => getAddress(a.address)))
    for (const { address } of devnet.accounts) expect(await provider.getBalance(address)).toBe(INITIAL_BALANCE)
    const fees = await provider.getFeeData()
    expect(fees.gasPrice).toBe(0n)
    expect(fees.maxFeePerGas).toBeNull()
    expect(fees.maxPriorityFeePerGas).toBeNull()
  })

  it('deploys Token and transfers, with exact receipts and balances', async () => {
    const token = await deployToken()
    const tokenAddress = await token.getAddress()
    const deployment = (await token.deploymentTransaction()!.wait())!
    expect(deployment.status).toBe(1)
    expect(deployment.contractAddress).toBe(tokenAddress)
    expect(deployment.blockNumber).toBe(1)
    expect(deployment.gasUsed).toBeGreaterThan(21_000n)
    // Minting is a Transfer from zero; at gas price 0 there is no fee log.
    expect(deployment.logs).toHaveLength(1)
    const [mint] = deployment.logs
    expect(token.interface.parseLog(mint!)!.args.toArray()).toEqual(['0x0000000000000000000000000000000000000000', ownerAddress, SUPPLY])
    await expectOwnBlock(deployment)
    expect(await provider.getCode(tokenAddress)).toBe(Token.deployedBytecode)

    const tx: ContractTransactionResponse = await token.getFunction('transfer')(other, 250n)
    const receipt = (await tx.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.blockNumber).toBe(2)
    expect(receipt.from).toBe(ownerAddress)
    expect(receipt.to).toBe(tokenAddress)
    expect(receipt.contractAddress).toBeNull()
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    await expectOwnBlock(receipt)
    expect(receipt.logs).toHaveLength(1)
    const [log] = receipt.logs
    expect(log!.index).toBe(0)
    expect(log!.transactionIndex).toBe(0)
    expect(log!.transactionHash).toBe(receipt.hash)
    expect(log!.blockNumber).toBe(2)
    expect(log!.address).toBe(tokenAddress)
    const event = token.interface.parseLog(log!)!
    expect(event.name).toBe('Transfer')
    expect(event.args.toArray()).toEqual([ownerAddress, other, 250n])

    expect(await token.getFunction('balanceOf')(ownerAddress)).toBe(SUPPLY - 250n)
    expect(await token.getFunction('balanceOf')(other)).toBe(250n)
    expect(await token.getFunction('totalSupply')()).toBe(SUPPLY)
    // Gas price 0 (the solo node's default): nobody paid anything.
    expect(await provider.getBalance(ownerAddress)).toBe(INITIAL_BALANCE)
    expect(await provider.getBalance(GOVERNANCE)).toBe(0n)
    expect(await provider.getTransactionCount(ownerAddress)).toBe(2)
    const queried = (await provider.getTransaction(receipt.hash))!
    expect(queried.gasPrice).toBe(0n)
    expect(queried.type).toBe(0)
    expect(queried.chainId).toBe(BigInt(CHAIN_ID))
  })

  it('charges gasUsed × 1 gwei to the sender, pays governance, and logs the fee last', async () => {
    const token = await deployToken()
    const tokenAddress = await token.getAddress()
    const senderBefore = await provider.getBalance(ownerAddress)
    const governanceBefore = await provider.getBalance(GOVERNANCE)
    expect(governanceBefore).toBe(0n)

    const tx: ContractTransactionResponse = await token.getFunction('transfer')(other, 1_000n, { gasPrice: GWEI })
    expect(tx.gasPrice).toBe(GWEI)
    expect(tx.type).toBe(0)
    const receipt = (await tx.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasPrice).toBe(GWEI)
    await expectOwnBlock(receipt)
    const fee = receipt.gasUsed * GWEI
    expect(receipt.fee).toBe(fee)

    expect(receipt.logs).toHaveLength(2)
    const [transfer, feeLog] = receipt.logs
    expect(transfer!.address).toBe(tokenAddress)
    expect(transfer!.index).toBe(0)
    expect(feeLog!.index).toBe(1)
    expect(feeLog!.transactionIndex).toBe(0)
    expect(feeLog!.address.toLowerCase()).toBe(GAS_TOKEN)
    expect(feeLog!.topics).toEqual([TRANSFER_TOPIC, addressTopic(ownerAddress), addressTopic(GOVERNANCE)])
    expect(feeLog!.data).toBe(word(fee))
    // Same event signature as the token's: the ERC20 ABI decodes it.
    expect(token.interface.parseLog(feeLog!)!.args.toArray()).toEqual([ownerAddress, GOVERNANCE, fee])

    expect(await provider.getBalance(ownerAddress)).toBe(senderBefore - fee)
    expect(await provider.getBalance(GOVERNANCE)).toBe(governanceBefore + fee)
    // State as of the block before and at the transaction's block.
    expect(await provider.getBalance(ownerAddress, receipt.blockNumber - 1)).toBe(senderBefore)
    expect(await provider.getBalance(ownerAddress, receipt.blockNumber)).toBe(senderBefore - fee)
    expect(await token.getFunction('balanceOf')(other)).toBe(1_000n)
  })

  it('sends value: the value Transfer log precedes the fee log', async () => {
    const tx = await owner.sendTransaction({ to: other, value: 12_345n, gasPrice: 2n * GWEI })
    const receipt = (await tx.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBe(21_000n)
    await expectOwnBlock(receipt)
    const fee = 21_000n * 2n * GWEI
    expect(receipt.logs.map((l) => [l.index, l.address.toLowerCase(), l.topics, l.data])).toEqual([
      [0, GAS_TOKEN, [TRANSFER_TOPIC, addressTopic(ownerAddress), addressTopic(other)], word(12_345n)],
      [1, GAS_TOKEN, [TRANSFER_TOPIC, addressTopic(ownerAddress), addressTopic(GOVERNANCE)], word(fee)],
    ])
    expect(await provider.getBalance(other)).toBe(INITIAL_BALANCE + 12_345n)
    expect(await provider.getBalance(ownerAddress)).toBe(INITIAL_BALANCE - 12_345n - fee)
    expect(await provider.getBalance(GOVERNANCE)).toBe(fee)
  })

  it("logs an internal value transfer before the callee's own event", async () => {
    const store = await deploy(Store)
    const storeAddress = await store.getAddress()
    const tx: ContractTransactionResponse = await store.getFunction('deposit')({ value: 5_000n, gasPrice: GWEI })
    const receipt = (await tx.wait())!
    expect(receipt.status).toBe(1)
    await expectOwnBlock(receipt)
    const fee = receipt.gasUsed * GWEI
    expect(receipt.logs.map((l) => [l.index, l.address.toLowerCase()])).toEqual([
      [0, GAS_TOKEN],
      [1, storeAddress.toLowerCase()],
      [2, GAS_TOKEN],
    ])
    const [value, deposited, feeLog] = receipt.logs
    expect(value!.topics).toEqual([TRANSFER_TOPIC, addressTopic(ownerAddress), addressTopic(storeAddress)])
    expect(value!.data).toBe(word(5_000n))
    expect(store.interface.parseLog(deposited!)!.args.toArray()).toEqual([ownerAddress, 5_000n])
    expect(feeLog!.data).toBe(word(fee))
    expect(await provider.getBalance(storeAddress)).toBe(5_000n)
    expect(await store.getFunction('balances')(ownerAddress)).toBe(5_000n)
    expect(await provider.getBalance(ownerAddress)).toBe(INITIAL_BALANCE - 5_000n - fee)

    // The Transfer events of the chain, as eth_getLogs reports them.
    const logs = await provider.getLogs({ fromBlock: 0, toBlock: 'latest', topics: [TRANSFER_TOPIC] })
    expect(logs.map((l) => [l.blockNumber, l.index, l.transactionIndex, l.address.toLowerCase()])).toEqual([
      [receipt.blockNumber, 0, 0, GAS_TOKEN],
      [receipt.blockNumber, 2, 0, GAS_TOKEN],
    ])
  })

  it('mines a reverting transaction sent with a gas limit: status 0, fee charged, fee log only', async () => {
    const reverter = await deploy(Reverter)
    await (await reverter.getFunction('setValue')(3n)).wait()
    const before = await provider.getBalance(ownerAddress)
    const tx: ContractTransactionResponse = await reverter.getFunction('setAndRevert')(5n, { gasLimit: 100_000n, gasPrice: GWEI })
    const err = await tx.wait().catch((e: unknown) => e)
    if (!isError(err, 'CALL_EXCEPTION')) throw err
    const receipt = err.receipt!
    expect(receipt.status).toBe(0)
    expect(receipt.hash).toBe(tx.hash)
    await expectOwnBlock(receipt)
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.gasUsed).toBeLessThan(100_000n)
    const fee = receipt.gasUsed * GWEI
    expect(receipt.logs).toHaveLength(1)
    expect(receipt.logs[0]!.address.toLowerCase()).toBe(GAS_TOKEN)
    expect(receipt.logs[0]!.topics).toEqual([TRANSFER_TOPIC, addressTopic(ownerAddress), addressTopic(GOVERNANCE)])
    expect(receipt.logs[0]!.data).toBe(word(fee))
    expect(await provider.getBalance(ownerAddress)).toBe(before - fee)
    expect(await provider.getBalance(GOVERNANCE)).toBe(fee)
    expect(await reverter.getFunction('value')()).toBe(3n)
    expect(await provider.getTransactionCount(ownerAddress)).toBe(3)
  })

  it('decodes a revert reason, from a call and from a state-changing send', async () => {
    const reverter = await deploy(Reverter)
    const err = await reverter
      .getFunction('revertWithReason')()
      .catch((e: unknown) => e)
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true)
    if (!isError(err, 'CALL_EXCEPTION')) throw err
    expect(err.reason).toBe('Reverter: always fails')
    expect(err.revert).toEqual({ signature: 'Error(string)', name: 'Error', args: ['Reverter: always fails'] })
    expect(err.data).toMatch(/^0x08c379a0/)

    // setAndRevert is state-changing: the revert surfaces from eth_estimateGas.
    const sendErr = await reverter
      .getFunction('setAndRevert')(5n)
      .catch((e: unknown) => e)
    if (!isError(sendErr, 'CALL_EXCEPTION')) throw sendErr
    expect(sendErr.reason).toBe('Reverter: rolled back')
    expect(await reverter.getFunction('value')()).toBe(0n)
    expect(await provider.getTransactionCount(ownerAddress)).toBe(1)

    const token = await deployToken()
    const allowanceErr = await token
      .getFunction('transferFrom')(other, ownerAddress, 1n)
      .catch((e: unknown) => e)
    if (!isError(allowanceErr, 'CALL_EXCEPTION')) throw allowanceErr
    expect(allowanceErr.reason).toBe('ERC20: insufficient allowance')
  })

  it('decodes custom errors: Unauthorized on a call, InsufficientBalance on a send', async () => {
    const reverter = await deploy(Reverter)
    const err = await reverter
      .getFunction('revertWithCustomError')(42n)
      .catch((e: unknown) => e)
    if (!isError(err, 'CALL_EXCEPTION')) throw err
    expect(err.revert?.name).toBe('Unauthorized')
    expect(err.revert?.signature).toBe('Unauthorized(address,uint256)')
    expect(err.revert?.args).toEqual([ownerAddress, 42n])

    // A state-changing call from an account holding no tokens.
    const token = await deployToken()
    const poor = token.connect(await connection.signer(1)) as Contract
    const sendErr = await poor
      .getFunction('transfer')(ownerAddress, 7n)
      .catch((e: unknown) => e)
    if (!isError(sendErr, 'CALL_EXCEPTION')) throw sendErr
    expect(sendErr.data).toMatch(/^0x[0-9a-f]{8}/)
    const decoded = token.interface.parseError(sendErr.data!)!
    expect(decoded.name).toBe('InsufficientBalance')
    expect(decoded.args.toArray()).toEqual([other, 0n, 7n])
    expect(await provider.getTransactionCount(other)).toBe(0)
  })

  it('decodes panics 0x12 (division by zero) and 0x01 (assert)', async () => {
    const reverter = await deploy(Reverter)
    expect(await reverter.getFunction('panicDivide')(4n)).toBe(0n)
    const divide = await reverter
      .getFunction('panicDivide')(0n)
      .catch((e: unknown) => e)
    if (!isError(divide, 'CALL_EXCEPTION')) throw divide
    expect(divide.revert).toEqual({ signature: 'Panic(uint256)', name: 'Panic', args: [0x12] })
    expect(divide.reason).toBe('Panic due to DIVIDE_BY_ZERO(18)')

    const assertion = await reverter
      .getFunction('panicAssert')()
      .catch((e: unknown) => e)
    if (!isError(assertion, 'CALL_EXCEPTION')) throw assertion
    expect(assertion.revert).toEqual({ signature: 'Panic(uint256)', name: 'Panic', args: [0x01] })
    expect(assertion.reason).toBe('Panic due to ASSERT_FALSE(1)')

    const bare = await reverter
      .getFunction('revertBare')()
      .catch((e: unknown) => e)
    if (!isError(bare, 'CALL_EXCEPTION')) throw bare
    expect(bare.revert).toBeNull()
    expect(bare.data).toBe('0x')
  })

  it('estimates enough gas: sending with the estimate as gasLimit succeeds', async () => {
    const token = await deployToken()
    const transfer = token.getFunction('transfer')
    const estimate = await transfer.estimateGas(other, 500n)
    expect(estimate).toBeGreaterThan(21_000n)
    const receipt = (await (await transfer(other, 500n, { gasLimit: estimate })).wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBeLessThanOrEqual(estimate)
    expect((await provider.getTransaction(receipt.hash))!.gasLimit).toBe(estimate)

    const reverter = await deploy(Reverter)
    const setValue = reverter.getFunction('setValue')
    const setEstimate = await setValue.estimateGas(99n)
    const setReceipt = (await (await setValue(99n, { gasLimit: setEstimate, gasPrice: GWEI })).wait())!
    expect(setReceipt.status).toBe(1)
    expect(setReceipt.gasUsed).toBeLessThanOrEqual(setEstimate)
    expect(setReceipt.logs).toHaveLength(2)
    const valueSet = reverter.interface.parseLog(setReceipt.logs[0]!)!
    expect(valueSet.name).toBe('ValueSet')
    expect(valueSet.args.toArray()).toEqual([ownerAddress, 99n])
    expect(setReceipt.logs[1]!.data).toBe(word(setReceipt.gasUsed * GWEI))
    expect(await reverter.getFunction('value')()).toBe(99n)

    // Clearing the slot earns a refund: the estimate must still cover the execution.
    const clearEstimate = await setValue.estimateGas(0n)
    const clearReceipt = (await (await setValue(0n, { gasLimit: clearEstimate })).wait())!
    expect(clearReceipt.status).toBe(1)
    expect(clearReceipt.gasUsed).toBeLessThan(clearEstimate)
    expect(await reverter.getFunction('value')()).toBe(0n)
  })

  it('sends 20 transactions in a row with consecutive nonces', async () => {
    const recipient = devnet.accounts[2]!.address
    for (let i = 0; i < 20; i++) {
      const tx = await owner.sendTransaction({ to: recipient, value: BigInt(i + 1) })
      expect(tx.nonce).toBe(i)
      const receipt = (await tx.wait())!
      expect(receipt.status).toBe(1)
      expect(receipt.blockNumber).toBe(i + 1)
      expect(receipt.gasUsed).toBe(21_000n)
      expect(receipt.logs).toHaveLength(1)
    }
    expect(await provider.getTransactionCount(ownerAddress)).toBe(20)
    expect(await provider.getTransactionCount(ownerAddress, 'pending')).toBe(20)
    expect(await provider.getBlockNumber()).toBe(20)
    expect(await provider.getBalance(recipient)).toBe(INITIAL_BALANCE + 210n)
  })

  it('sends 20 transactions concurrently through a NonceManager', async () => {
    const recipient = devnet.accounts[3]!.address
    const managed = new NonceManager(owner)
    const sent = await Promise.all(Array.from({ length: 20 }, (_, i) => managed.sendTransaction({ to: recipient, value: BigInt(100 + i) })))
    const receipts = await Promise.all(sent.map(async (tx) => (await tx.wait())!))
    expect(sent.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    for (const receipt of receipts) {
      expect(receipt.status).toBe(1)
      expect(receipt.gasUsed).toBe(21_000n)
    }
    // One block per transaction, in nonce order.
    const byNonce = sent.map((tx, i) => ({ nonce: tx.nonce, block: receipts[i]!.blockNumber }))
    byNonce.sort((a, b) => a.nonce - b.nonce)
    expect(byNonce.map((x) => x.block)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(await provider.getTransactionCount(ownerAddress)).toBe(20)
    expect(await provider.getBalance(recipient)).toBe(INITIAL_BALANCE + 20n * 100n + 190n)
  })

  it('rejects deploying PUSH0 code, naming the opcode and the EVM version', async () => {
    const factory = new ContractFactory(Push0.abi as InterfaceAbi, Push0.bytecode, owner)
    const err = await factory.deploy().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    // ethers turns every eth_estimateGas failure into CALL_EXCEPTION "missing revert
    // data" and keeps the node's error object in `info.error`.
    const nodeError = (err as { info?: { error?: { message?: string } } }).info?.error
    expect(nodeError?.message).toContain('PUSH0')
    expect(nodeError?.message).toContain('istanbul')
    expect(await provider.getTransactionCount(ownerAddress)).toBe(0)
  })
})
