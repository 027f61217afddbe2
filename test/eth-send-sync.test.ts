/**
 * EIP-7966's eth_sendRawTransactionSync and eth_sendTransactionSync: the receipt in
 * one call (automine), the wait for a block (automine off, a block mined while the
 * call waits), error code 4 with the hash as data when no block comes within the
 * timeout, and -32602 for a bad timeout; in process, over HTTP and through viem's
 * sendRawTransactionSync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Transaction, Wallet } from 'ethers'
import { createWalletClient, http } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const STRANGER = `0x${'cd'.repeat(20)}`

let devnet: Devnet
let rpcUrl: string
let wallet: Wallet
let nonce = 0

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  wallet = new Wallet(devnet.accounts[0]!.privateKey)
})

afterAll(async () => {
  await devnet?.close()
})

const signed = () => wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: nonce++, gasPrice: GWEI, gasLimit: 21_000n, to: STRANGER, value: 1n })

async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as never
}

describe('EIP-7966', () => {
  it('eth_sendRawTransactionSync answers the receipt eth_getTransactionReceipt gives', async () => {
    const receipt = await devnet.rpc('eth_sendRawTransactionSync', [await signed()])
    expect(receipt.status).toBe('0x1')
    expect(await devnet.rpc('eth_getTransactionReceipt', [receipt.transactionHash])).toEqual(receipt)
    const overWire = (await overHttp('eth_sendRawTransactionSync', [await signed(), 5000])).result as { status: string }
    expect(overWire.status).toBe('0x1')
  })

  it('viem sendRawTransactionSync gets the receipt', async () => {
    const client = createWalletClient({ transport: http(rpcUrl) })
    const receipt = await client.sendRawTransactionSync({ serializedTransaction: (await signed()) as `0x${string}` })
    expect(receipt.status).toBe('success')
  })

  it('eth_sendTransactionSync signs with a dev account and answers the receipt', async () => {
    const receipt = await devnet.rpc('eth_sendTransactionSync', [{ from: wallet.address, to: STRANGER, value: '0x1' }])
    nonce++
    expect(receipt.from).toBe(wallet.address.toLowerCase())
    expect(receipt.blockNumber).toBe(await devnet.rpc('eth_blockNumber'))
  })

  it('without automine it waits for the block that includes the transaction', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const raw = await signed()
      const hash = Transaction.from(raw).hash!
      const waiting = devnet.rpc('eth_sendRawTransactionSync', [raw, 60_000])
      // Once the call has put it in the pool, a block is mined (polled by turns of the event loop, not by time).
      while ((await devnet.rpc('eth_getTransactionByHash', [hash])) === null) await new Promise((resolve) => setImmediate(resolve))
      await devnet.rpc('evm_mine')
      const receipt = await waiting
      expect(receipt.transactionHash).toBe(hash)
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })

  it('not mined within the timeout: code 4, the hash as data', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const answer = await overHttp('eth_sendRawTransactionSync', [await signed(), 1])
      expect(answer.error?.code).toBe(4)
      expect(answer.error?.message).toMatch(/wasn't processed in 0.001s/)
      expect(answer.error?.data).toMatch(/^0x[0-9a-f]{64}$/)
      await devnet.rpc('evm_mine')
      expect(await devnet.rpc('eth_getTransactionReceipt', [answer.error!.data as string])).not.toBeNull()
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })

  it('a timeout that is not a positive number is refused with -32602', async () => {
    const answer = await overHttp('eth_sendRawTransactionSync', [await signed(), 0])
    nonce--
    expect(answer.error?.code).toBe(-32602)
    expect(answer.error?.message).toMatch(/timeout/)
  })
})

describe('eth_sendUnsignedTransaction (Anvil)', () => {
  it('sends from an address with no key, not impersonated, and leaves it not impersonated', async () => {
    const sender = `0x${'ef'.repeat(20)}`
    await devnet.rpc('hardhat_setBalance', [sender, '0xde0b6b3a7640000'])
    const hash = await devnet.rpc('eth_sendUnsignedTransaction', [{ from: sender, to: STRANGER, value: '0x7' }])
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
    expect(receipt.from).toBe(sender)
    expect(receipt.status).toBe('0x1')
    const refused = await overHttp('eth_sendTransaction', [{ from: sender, to: STRANGER, value: '0x1' }])
    expect(refused.error?.message).toMatch(/unknown account/)
  })

  it('a request without from is refused with -32602', async () => {
    expect((await overHttp('eth_sendUnsignedTransaction', [{ to: STRANGER }])).error?.code).toBe(-32602)
  })
})
