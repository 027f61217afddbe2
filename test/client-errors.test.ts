/**
 * Pool refusals that clients classify (issue 9 item 4): each keeps the real node's
 * code (-32000) and text and carries go-ethereum's phrase, so that ethers v6's
 * `isError` and viem's node-error classes recognise nonce too low, insufficient
 * funds, replacement underpriced, intrinsic gas too low and reverts, in-process
 * (BrowserProvider, viem `custom`) and over HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { isError, type JsonRpcSigner } from 'ethers'
import {
  BaseError,
  ExecutionRevertedError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  NonceTooLowError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  type Abi,
  type Address,
  type Transport,
} from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { dualnetProvider } from '../src/ethers.ts'
import { devnetTransport, dualnet, dualnetChain } from '../src/viem.ts'
import { Reverter } from '../fixtures/index.ts'
import { CHAIN_ID, GWEI, INITIAL_BALANCE } from './support.ts'

let devnet: Devnet
let rpcUrl: string
let from: Address
let to: Address
let reverter: Address
let baseline: string

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 2 })
  ;({ rpcUrl } = await devnet.listen())
  from = devnet.accounts[0]!.address as Address
  to = devnet.accounts[1]!.address as Address
  // Two mined transactions: the sender's nonce is 2, so nonce 0 is too low.
  const deploy = await devnet.rpc('eth_sendTransaction', [{ from, data: Reverter.bytecode, gasPrice: '0x3b9aca00' }])
  reverter = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: Address }).contractAddress
  await devnet.rpc('eth_sendTransaction', [{ from, to, value: '0x1', gasPrice: '0x3b9aca00' }])
})
afterAll(async () => {
  await devnet.close()
})
beforeEach(async () => {
  baseline = await devnet.rpc('evm_snapshot')
})
afterEach(async () => {
  await devnet.rpc('evm_revert', [baseline])
})

/** Everything but the sender's whole balance: fee and value exceed it. */
const tooMuch = INITIAL_BALANCE
const revertData = encodeFunctionData({ abi: Reverter.abi as Abi, functionName: 'revertWithReason' })

describe.each([
  ['in-process BrowserProvider', () => dualnetProvider(devnet)],
  ['JsonRpcProvider over HTTP', () => dualnetProvider(rpcUrl)],
])('ethers v6 isError, %s', (_, provider) => {
  let signer: JsonRpcSigner
  beforeEach(async () => {
    signer = await provider().getSigner(0)
  })

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('should fail'),
      (e: unknown) => e,
    )

  it("nonce too low: NONCE_EXPIRED, the node's text kept", async () => {
    const err = await failure(signer.sendTransaction({ to, value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: GWEI }))
    expect(isError(err, 'NONCE_EXPIRED')).toBe(true)
    const { error } = (err as { info: { error: { code: number; message: string } } }).info
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^SendRawTransaction verified [0-9a-f]{64} error: handleTransaction lower nonce:0 ,current nonce:2 \(nonce too low\)$/)
  })

  it('insufficient funds: INSUFFICIENT_FUNDS, from the pool and from the gas estimate', async () => {
    const pool = await failure(signer.sendTransaction({ to, value: tooMuch, gasLimit: 21_000n, gasPrice: GWEI }))
    expect(isError(pool, 'INSUFFICIENT_FUNDS')).toBe(true)
    expect((pool as { info: { error: { message: string } } }).info.error.message).toMatch(
      /error: not enough ong balance for [0-9a-f]{40} - has:\d+ - want:\d+ \(insufficient funds for gas \* price \+ value\)$/,
    )
    const estimate = await failure(signer.sendTransaction({ to, value: tooMuch, gasPrice: GWEI }))
    expect(isError(estimate, 'INSUFFICIENT_FUNDS')).toBe(true)
  })

  it('same nonce without a price bump: REPLACEMENT_UNDERPRICED', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    const nonce = await signer.getNonce('pending')
    await signer.sendTransaction({ to, value: 1n, nonce, gasLimit: 21_000n, gasPrice: GWEI })
    const err = await failure(signer.sendTransaction({ to, value: 2n, nonce, gasLimit: 21_000n, gasPrice: GWEI }))
    expect(isError(err, 'REPLACEMENT_UNDERPRICED')).toBe(true)
    expect((err as { info: { error: { message: string } } }).info.error.message).toMatch(/error: a transaction with the same nonce exists in the pool \(replacement transaction underpriced\)$/)
  })

  it('a revert in the estimate: CALL_EXCEPTION with the reason', async () => {
    const err = await failure(signer.sendTransaction({ to: reverter, data: revertData, gasPrice: GWEI }))
    expect(isError(err, 'CALL_EXCEPTION')).toBe(true)
    expect((err as { reason: string }).reason).toBe('Reverter: always fails')
  })
})

describe.each([
  ['custom(devnet)', (): Transport => devnetTransport(devnet)],
  ['http(rpcUrl)', (): Transport => http(rpcUrl)],
])('viem node errors, %s', (_, transport) => {
  const wallet = () => createWalletClient({ account: from, chain: dualnetChain(rpcUrl), transport: transport() })

  /** The viem error class instance in the chain of `send`'s failure. */
  async function cause<T>(send: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
    const err = await send.then(
      () => expect.unreachable('should fail'),
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(BaseError)
    const found = (err as BaseError).walk((e) => e instanceof type)
    expect(found, (err as Error).message).toBeInstanceOf(type)
    return found as T
  }

  it('nonce too low: NonceTooLowError', async () => {
    await cause(wallet().sendTransaction({ to, value: 1n, nonce: 0, gas: 21_000n, gasPrice: GWEI }), NonceTooLowError)
  })

  it('insufficient funds: InsufficientFundsError', async () => {
    await cause(wallet().sendTransaction({ to, value: tooMuch, gas: 21_000n, gasPrice: GWEI }), InsufficientFundsError)
  })

  it('gas below 20,000: IntrinsicGasTooLowError', async () => {
    await cause(wallet().sendTransaction({ to, value: 1n, gas: 19_999n, gasPrice: GWEI }), IntrinsicGasTooLowError)
  })

  it('gas at least 20,000 but below the intrinsic gas: IntrinsicGasTooLowError, and the next transaction goes through', async () => {
    // 21,000 + 16 × 100 non-zero bytes = 22,600 needed; 20,500 passes the node's minimum only.
    const data = `0x${'ff'.repeat(100)}` as const
    await cause(wallet().sendTransaction({ to, value: 1n, data, gas: 20_500n, gasPrice: GWEI }), IntrinsicGasTooLowError)
    const hash = await wallet().sendTransaction({ to, value: 1n, data, gas: 22_600n, gasPrice: GWEI })
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('a revert: ExecutionRevertedError with the reason', async () => {
    const err = await cause(wallet().sendTransaction({ to: reverter, data: revertData, gasPrice: GWEI }), ExecutionRevertedError)
    expect(err.details).toBe('execution reverted: Reverter: always fails')
  })
})

describe('dualnet/ethers and dualnet/viem settings', () => {
  it('dualnetProvider: no read cache, a static network, 20 ms polling; over HTTP and in-process', async () => {
    for (const provider of [dualnetProvider(rpcUrl), dualnetProvider(devnet, { pollingInterval: 5 })]) {
      expect(provider._getOption('cacheTimeout')).toBe(-1)
      expect(provider._getOption('staticNetwork')).toBe(true)
      expect((await provider.getNetwork()).chainId).toBe(BigInt(CHAIN_ID))
    }
    expect(dualnetProvider(rpcUrl).pollingInterval).toBe(20)
    expect(dualnetProvider(devnet, { pollingInterval: 5 }).pollingInterval).toBe(5)
    // Without the cache, a read right after a send sees it.
    const provider = dualnetProvider(rpcUrl)
    const before = await provider.getTransactionCount(from)
    await devnet.rpc('eth_sendTransaction', [{ from, to, value: '0x1', gasPrice: '0x3b9aca00' }])
    expect(await provider.getTransactionCount(from)).toBe(before + 1)
  })

  it('dualnetChain: the chain id, GAS, and eth_gasPrice taken as is (whole gwei)', async () => {
    expect(dualnetChain(rpcUrl)).toMatchObject({
      id: CHAIN_ID,
      name: 'dualnet',
      nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
      fees: { baseFeeMultiplier: 1 },
    })
    expect(dualnet.rpcUrls.default.http).toEqual(['http://127.0.0.1:20339'])
    expect(dualnetChain(rpcUrl, { id: 7 }).id).toBe(7)
    // The beforeAll transactions paid 1 gwei: eth_gasPrice is 1 gwei, and viem keeps it.
    expect(await devnet.rpc('eth_gasPrice')).toBe('0x3b9aca00')
    const client = createPublicClient({ chain: dualnetChain(rpcUrl), transport: devnetTransport(devnet) })
    expect(await client.estimateFeesPerGas({ type: 'legacy' })).toEqual({ gasPrice: GWEI })
  })
})
