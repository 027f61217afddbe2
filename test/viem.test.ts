/**
 * viem against the devnet: the `custom(devnet)` transport (EIP-1193, in-process)
 * with a local account and with the node's JSON-RPC account (eth_sendTransaction),
 * and the `http(rpcUrl)` transport with a local account.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  BaseError,
  ContractFunctionRevertedError,
  createNonceManager,
  createPublicClient,
  createWalletClient,
  custom,
  decodeEventLog,
  defineChain,
  getAddress,
  http,
  type Abi,
  type Account,
  type Address,
  type Hash,
  type PublicClient,
  type Transport,
  type TransactionReceipt,
  type WalletClient,
  type Chain,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { jsonRpc } from 'viem/nonce'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Push0, Reverter, Store, Token } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GOVERNANCE, GWEI, INITIAL_BALANCE, SUPPLY, TRANSFER_TOPIC, addressTopic, errorMessages, word } from './support.ts'

/** The solo node as a viem chain: legacy fees only, and eth_gasPrice taken as is (no 1.2× bump, which would break the whole-gwei rule). */
const dualnet = defineChain({
  id: CHAIN_ID,
  name: 'dualnet solo',
  nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:20339'] } },
  fees: { baseFeeMultiplier: 1 },
})

const tokenAbi = Token.abi as Abi
const reverterAbi = Reverter.abi as Abi

interface Setup {
  transport: Transport
  /** The account to send from for dev account `index`: a local account or a node-held address. */
  account(index: number): Account | Address
}

interface Case {
  name: string
  setup(devnet: Devnet): Promise<Setup>
}

const local = (devnet: Devnet, index: number) => privateKeyToAccount(devnet.accounts[index]!.privateKey, { nonceManager: createNonceManager({ source: jsonRpc() }) })

/**
 * viem wraps an error a custom transport throws with a code it does not know (such
 * as 3, execution reverted) as UnknownRpcError, which it retries with backoff; a
 * revert is final, so the in-process transport is built without retries.
 */
const inProcess = (devnet: Devnet) => custom(devnet, { retryCount: 0 })

const cases: Case[] = [
  {
    name: 'custom(devnet) + local account',
    async setup(devnet) {
      return { transport: inProcess(devnet), account: (i) => local(devnet, i) }
    },
  },
  {
    name: 'custom(devnet) + JSON-RPC account (eth_sendTransaction)',
    async setup(devnet) {
      return { transport: inProcess(devnet), account: (i) => devnet.accounts[i]!.address }
    },
  },
  {
    name: 'http(rpcUrl) + local account',
    async setup(devnet) {
      const { rpcUrl } = await devnet.listen()
      return { transport: http(rpcUrl), account: (i) => local(devnet, i) }
    },
  },
]

/** The ContractFunctionRevertedError inside a viem error. */
function revertedError(err: unknown): ContractFunctionRevertedError {
  expect(err).toBeInstanceOf(BaseError)
  const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
  expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
  return reverted as ContractFunctionRevertedError
}

describe.each(cases)('viem: $name', (testCase) => {
  let devnet: Devnet
  let publicClient: PublicClient<Transport, Chain>
  let wallet: WalletClient<Transport, Chain, Account>
  let setup: Setup
  let owner: Address
  let other: Address

  beforeEach(async () => {
    devnet = await createDevnet()
    setup = await testCase.setup(devnet)
    publicClient = createPublicClient({ chain: dualnet, transport: setup.transport, pollingInterval: 50, cacheTime: 0 })
    wallet = walletFor(0)
    owner = getAddress(devnet.accounts[0]!.address)
    other = getAddress(devnet.accounts[1]!.address)
  })

  afterEach(async () => {
    await devnet.close()
  })

  function walletFor(index: number): WalletClient<Transport, Chain, Account> {
    return createWalletClient({
      account: setup.account(index),
      chain: dualnet,
      transport: setup.transport,
      pollingInterval: 50,
    }) as WalletClient<Transport, Chain, Account>
  }

  const receiptOf = (hash: Hash) => publicClient.waitForTransactionReceipt({ hash })

  async function deploy(artifact: typeof Token, args: readonly unknown[] = []): Promise<{ address: Address; receipt: TransactionReceipt }> {
    const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('success')
    return { address: getAddress(receipt.contractAddress!), receipt }
  }

  const deployToken = () => deploy(Token, ['Test Token', 'TST', SUPPLY])

  const balanceOf = (token: Address, who: Address) => publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [who] })

  /** Asserts what every single-transaction block of the devnet holds for `receipt`. */
  async function expectOwnBlock(receipt: TransactionReceipt): Promise<void> {
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.transactions).toEqual([receipt.transactionHash])
    expect(block.gasUsed).toBe(receipt.gasUsed)
    expect(block.baseFeePerGas).toBeNull()
    expect(receipt.cumulativeGasUsed).toBe(receipt.gasUsed)
    expect(receipt.transactionIndex).toBe(0)
  }

  it('sees the chain: id, block number, balances, gas price', async () => {
    expect(await publicClient.getChainId()).toBe(CHAIN_ID)
    expect(await publicClient.getBlockNumber()).toBe(0n)
    expect(await publicClient.getBalance({ address: owner })).toBe(INITIAL_BALANCE)
    expect(await publicClient.getGasPrice()).toBe(0n)
    expect(await publicClient.estimateFeesPerGas({ type: 'legacy' })).toEqual({ gasPrice: 0n })
    await expect(publicClient.estimateFeesPerGas()).rejects.toThrow(/EIP-1559/)
  })

  it('deploys Token and transfers, with exact receipts and balances', async () => {
    const { address: token, receipt: deployment } = await deployToken()
    expect(deployment.blockNumber).toBe(1n)
    expect(deployment.from).toBe(owner.toLowerCase())
    expect(deployment.to).toBeNull()
    expect(deployment.gasUsed).toBeGreaterThan(21_000n)
    await expectOwnBlock(deployment)
    expect(deployment.logs).toHaveLength(1)
    const mint = decodeEventLog({ abi: tokenAbi, ...deployment.logs[0]! })
    expect(mint).toEqual({ eventName: 'Transfer', args: { from: '0x0000000000000000000000000000000000000000', to: owner, value: SUPPLY } })
    expect(await publicClient.getCode({ address: token })).toBe(Token.deployedBytecode)

    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [other, 250n] })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(2n)
    expect(receipt.to).toBe(token.toLowerCase())
    expect(receipt.contractAddress).toBeNull()
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    await expectOwnBlock(receipt)
    expect(receipt.logs).toHaveLength(1)
    const [log] = receipt.logs
    expect(log!.logIndex).toBe(0)
    expect(log!.transactionIndex).toBe(0)
    expect(log!.transactionHash).toBe(hash)
    expect(log!.blockNumber).toBe(2n)
    expect(getAddress(log!.address)).toBe(token)
    expect(decodeEventLog({ abi: tokenAbi, ...log! })).toEqual({
      eventName: 'Transfer',
      args: { from: owner, to: other, value: 250n },
    })

    expect(await balanceOf(token, owner)).toBe(SUPPLY - 250n)
    expect(await balanceOf(token, other)).toBe(250n)
    expect(await publicClient.getBalance({ address: owner })).toBe(INITIAL_BALANCE)
    expect(await publicClient.getBalance({ address: GOVERNANCE })).toBe(0n)
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(2)
    const tx = await publicClient.getTransaction({ hash })
    // Legacy EIP-155: v = chainId × 2 + 35 or 36 (the node's transaction objects carry no `type`).
    expect([BigInt(CHAIN_ID * 2 + 35), BigInt(CHAIN_ID * 2 + 36)]).toContain(tx.v)
    expect(tx.gasPrice).toBe(0n)
    expect(tx.nonce).toBe(1)
  })

  it('charges gasUsed × 1 gwei to the sender, pays governance, and logs the fee last', async () => {
    const { address: token } = await deployToken()
    const senderBefore = await publicClient.getBalance({ address: owner })

    const hash = await wallet.writeContract({
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [other, 1_000n],
      gasPrice: GWEI,
    })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('success')
    await expectOwnBlock(receipt)
    expect((await publicClient.getTransaction({ hash })).gasPrice).toBe(GWEI)
    const fee = receipt.gasUsed * GWEI

    expect(receipt.logs.map((l) => [l.logIndex, l.transactionIndex, l.address.toLowerCase()])).toEqual([
      [0, 0, token.toLowerCase()],
      [1, 0, GAS_TOKEN],
    ])
    const feeLog = receipt.logs[1]!
    expect(feeLog.topics).toEqual([TRANSFER_TOPIC, addressTopic(owner), addressTopic(GOVERNANCE)])
    expect(feeLog.data).toBe(word(fee))
    expect(decodeEventLog({ abi: tokenAbi, ...feeLog })).toEqual({
      eventName: 'Transfer',
      args: { from: owner, to: GOVERNANCE, value: fee },
    })

    expect(await publicClient.getBalance({ address: owner })).toBe(senderBefore - fee)
    expect(await publicClient.getBalance({ address: GOVERNANCE })).toBe(fee)
    expect(await publicClient.getBalance({ address: owner, blockNumber: receipt.blockNumber - 1n })).toBe(senderBefore)

    // eth_gasPrice now follows the last block's price, and a default-priced send pays it.
    expect(await publicClient.getGasPrice()).toBe(GWEI)
    const next = await receiptOf(await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [other, 1n] }))
    expect((await publicClient.getTransaction({ hash: next.transactionHash })).gasPrice).toBe(GWEI)
    expect(next.logs).toHaveLength(2)
    expect(await publicClient.getBalance({ address: owner })).toBe(senderBefore - fee - next.gasUsed * GWEI)
    expect(await publicClient.getBalance({ address: GOVERNANCE })).toBe(fee + next.gasUsed * GWEI)
  })

  it('sends value: the value Transfer log precedes the fee log', async () => {
    const hash = await wallet.sendTransaction({ to: other, value: 12_345n, gasPrice: 2n * GWEI })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(21_000n)
    await expectOwnBlock(receipt)
    const fee = 21_000n * 2n * GWEI
    expect(receipt.logs.map((l) => [l.logIndex, l.address.toLowerCase(), l.topics, l.data])).toEqual([
      [0, GAS_TOKEN, [TRANSFER_TOPIC, addressTopic(owner), addressTopic(other)], word(12_345n)],
      [1, GAS_TOKEN, [TRANSFER_TOPIC, addressTopic(owner), addressTopic(GOVERNANCE)], word(fee)],
    ])
    expect(await publicClient.getBalance({ address: other })).toBe(INITIAL_BALANCE + 12_345n)
    expect(await publicClient.getBalance({ address: owner })).toBe(INITIAL_BALANCE - 12_345n - fee)
  })

  it("logs an internal value transfer before the callee's own event", async () => {
    const { address: store } = await deploy(Store)
    const storeAbi = Store.abi as Abi
    const receipt = await receiptOf(await wallet.writeContract({ address: store, abi: storeAbi, functionName: 'deposit', value: 5_000n, gasPrice: GWEI }))
    expect(receipt.status).toBe('success')
    await expectOwnBlock(receipt)
    const fee = receipt.gasUsed * GWEI
    expect(receipt.logs.map((l) => [l.logIndex, l.address.toLowerCase()])).toEqual([
      [0, GAS_TOKEN],
      [1, store.toLowerCase()],
      [2, GAS_TOKEN],
    ])
    expect(decodeEventLog({ abi: tokenAbi, ...receipt.logs[0]! }).args).toEqual({ from: owner, to: store, value: 5_000n })
    expect(decodeEventLog({ abi: storeAbi, ...receipt.logs[1]! })).toEqual({
      eventName: 'Deposited',
      args: { from: owner, amount: 5_000n },
    })
    expect(receipt.logs[2]!.data).toBe(word(fee))
    expect(await publicClient.getBalance({ address: store })).toBe(5_000n)
    expect(await publicClient.getBalance({ address: owner })).toBe(INITIAL_BALANCE - 5_000n - fee)

    const deposits = await publicClient.getContractEvents({ address: store, abi: storeAbi, eventName: 'Deposited', fromBlock: 0n })
    expect(deposits.map((e) => [e.blockNumber, e.logIndex, e.args])).toEqual([[receipt.blockNumber, 1, { from: owner, amount: 5_000n }]])
  })

  it('mines a reverting transaction sent with a gas limit: status reverted, fee charged, fee log only', async () => {
    const { address: reverter } = await deploy(Reverter)
    const before = await publicClient.getBalance({ address: owner })
    const hash = await wallet.writeContract({
      address: reverter,
      abi: reverterAbi,
      functionName: 'setAndRevert',
      args: [5n],
      gas: 100_000n,
      gasPrice: GWEI,
    })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('reverted')
    await expectOwnBlock(receipt)
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.gasUsed).toBeLessThan(100_000n)
    const fee = receipt.gasUsed * GWEI
    expect(receipt.logs.map((l) => [l.address.toLowerCase(), l.topics, l.data])).toEqual([[GAS_TOKEN, [TRANSFER_TOPIC, addressTopic(owner), addressTopic(GOVERNANCE)], word(fee)]])
    expect(await publicClient.getBalance({ address: owner })).toBe(before - fee)
    expect(await publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'value' })).toBe(0n)
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(2)
  })

  it('surfaces a revert reason on a read and on a write', async () => {
    const { address: reverter } = await deploy(Reverter)
    const readErr = await publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'revertWithReason' }).catch((e: unknown) => e)
    const read = revertedError(readErr)
    expect(read.reason).toBe('Reverter: always fails')
    expect(read.data?.errorName).toBe('Error')
    expect(read.data?.args).toEqual(['Reverter: always fails'])

    const writeErr = await wallet.writeContract({ address: reverter, abi: reverterAbi, functionName: 'setAndRevert', args: [5n] }).catch((e: unknown) => e)
    expect(revertedError(writeErr).reason).toBe('Reverter: rolled back')
    expect(await publicClient.readContract({ address: reverter, abi: reverterAbi, functionName: 'value' })).toBe(0n)
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(1)

    const simulated = await publicClient.simulateContract({ account: owner, address: reverter, abi: reverterAbi, functionName: 'setAndRevert', args: [5n] }).catch((e: unknown) => e)
    expect(revertedError(simulated).reason).toBe('Reverter: rolled back')
  })

  it('decodes custom errors: Unauthorized on a read, InsufficientBalance on a write', async () => {
    const { address: reverter } = await deploy(Reverter)
    const err = await publicClient.simulateContract({ account: owner, address: reverter, abi: reverterAbi, functionName: 'revertWithCustomError', args: [42n] }).catch((e: unknown) => e)
    const unauthorized = revertedError(err)
    expect(unauthorized.data?.errorName).toBe('Unauthorized')
    expect(unauthorized.data?.args).toEqual([owner, 42n])

    const { address: token } = await deployToken()
    const poor = walletFor(1)
    const sendErr = await poor.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [owner, 7n] }).catch((e: unknown) => e)
    const insufficient = revertedError(sendErr)
    expect(insufficient.data?.errorName).toBe('InsufficientBalance')
    expect(insufficient.data?.args).toEqual([other, 0n, 7n])
    expect(await publicClient.getTransactionCount({ address: other })).toBe(0)
  })

  it('decodes panics 0x12 (division by zero) and 0x01 (assert)', async () => {
    const { address: reverter } = await deploy(Reverter)
    const read = (functionName: string, args: readonly unknown[] = []) => publicClient.readContract({ address: reverter, abi: reverterAbi, functionName, args }).catch((e: unknown) => e)
    expect(await read('panicDivide', [4n])).toBe(0n)

    const divide = revertedError(await read('panicDivide', [0n]))
    expect(divide.data?.errorName).toBe('Panic')
    expect(divide.data?.args).toEqual([0x12n])
    expect(divide.reason).toMatch(/^Division or modulo by zero/)

    const assertion = revertedError(await read('panicAssert'))
    expect(assertion.data?.errorName).toBe('Panic')
    expect(assertion.data?.args).toEqual([0x01n])
    expect(assertion.reason).toBe('An `assert` condition failed.')

    const bare = revertedError(await read('revertBare'))
    // No revert data: nothing to decode, viem falls back to the node's message.
    expect(bare.data).toBeUndefined()
    expect(bare.reason).toBe('execution reverted')
  })

  it('estimates enough gas: sending with the estimate as gas succeeds', async () => {
    const { address: token } = await deployToken()
    const estimate = await publicClient.estimateContractGas({
      account: owner,
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [other, 500n],
    })
    expect(estimate).toBeGreaterThan(21_000n)
    const hash = await wallet.writeContract({
      address: token,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [other, 500n],
      gas: estimate,
    })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBeLessThanOrEqual(estimate)
    expect((await publicClient.getTransaction({ hash })).gas).toBe(estimate)

    const { address: reverter } = await deploy(Reverter)
    const setEstimate = await publicClient.estimateContractGas({
      account: owner,
      address: reverter,
      abi: reverterAbi,
      functionName: 'setValue',
      args: [99n],
    })
    const setReceipt = await receiptOf(await wallet.writeContract({ address: reverter, abi: reverterAbi, functionName: 'setValue', args: [99n], gas: setEstimate }))
    expect(setReceipt.status).toBe('success')
    expect(setReceipt.gasUsed).toBeLessThanOrEqual(setEstimate)
    expect(setReceipt.logs).toHaveLength(1)
    expect(decodeEventLog({ abi: reverterAbi, ...setReceipt.logs[0]! })).toEqual({
      eventName: 'ValueSet',
      args: { who: owner, value: 99n },
    })
  })

  it('sends 20 transactions in a row with consecutive nonces', async () => {
    const recipient = devnet.accounts[2]!.address
    for (let i = 0; i < 20; i++) {
      const hash = await wallet.sendTransaction({ to: recipient, value: BigInt(i + 1) })
      const receipt = await receiptOf(hash)
      expect(receipt.status).toBe('success')
      expect(receipt.blockNumber).toBe(BigInt(i + 1))
      expect(receipt.gasUsed).toBe(21_000n)
      expect(receipt.logs).toHaveLength(1)
      expect((await publicClient.getTransaction({ hash })).nonce).toBe(i)
    }
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(20)
    expect(await publicClient.getTransactionCount({ address: owner, blockTag: 'pending' })).toBe(20)
    expect(await publicClient.getBlockNumber()).toBe(20n)
    expect(await publicClient.getBalance({ address: recipient })).toBe(INITIAL_BALANCE + 210n)
  })

  it('sends 20 transactions concurrently with distinct, contiguous nonces', async () => {
    const recipient = devnet.accounts[3]!.address
    // Local accounts draw nonces from their nonce manager; the node's account gets them explicitly.
    const explicit = typeof setup.account(0) === 'string'
    const hashes = await Promise.all(Array.from({ length: 20 }, (_, i) => wallet.sendTransaction({ to: recipient, value: BigInt(100 + i), ...(explicit ? { nonce: i } : {}) })))
    const receipts = await Promise.all(hashes.map(receiptOf))
    const txs = await Promise.all(hashes.map((hash) => publicClient.getTransaction({ hash })))
    expect(receipts.every((r) => r.status === 'success' && r.gasUsed === 21_000n)).toBe(true)
    const byNonce = txs.map((tx, i) => ({ nonce: tx.nonce, block: receipts[i]!.blockNumber })).sort((a, b) => a.nonce - b.nonce)
    expect(byNonce.map((x) => x.nonce)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(byNonce.map((x) => x.block)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)))
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(20)
    expect(await publicClient.getBalance({ address: recipient })).toBe(INITIAL_BALANCE + 20n * 100n + 190n)
  })

  it('rejects deploying PUSH0 code, naming the opcode and the EVM version', async () => {
    const err = await wallet.deployContract({ abi: Push0.abi as Abi, bytecode: Push0.bytecode }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(BaseError)
    expect((err as BaseError).message).toContain('PUSH0')
    expect((err as BaseError).message).toContain('istanbul')
    expect(errorMessages(err)).toContain('invalid opcode: PUSH0 (0x5f)')
    expect(await publicClient.getTransactionCount({ address: owner })).toBe(0)
  })
})
