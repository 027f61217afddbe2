/**
 * Pool inspection and editing (issue 10): txpool_status, txpool_content,
 * txpool_contentFrom and txpool_inspect in go-ethereum's shapes (geth docs "txpool
 * Namespace", internal/ethapi TxPoolAPI), and the drops of Hardhat and Anvil, for
 * EVM and native pending transactions.
 */
import { getAddress, Wallet } from 'ethers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { CHAIN_ID, GWEI, sendNativeTransfer } from './support.ts'

let devnet: Devnet
let a: string
let b: string

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 3, nativeAccounts: 1, automine: false })
  a = devnet.accounts[0]!.addressLower
  b = devnet.accounts[1]!.addressLower
})

afterEach(async () => {
  await devnet.close()
})

/** Signs and sends a legacy transaction from dev account `index`; its hash. */
async function send(index: number, fields: { nonce: number; to?: string | null; value?: bigint; gasLimit?: number; gasPrice?: bigint; data?: string }): Promise<string> {
  const raw = await new Wallet(devnet.accounts[index]!.privateKey).signTransaction({
    type: 0,
    chainId: CHAIN_ID,
    gasPrice: GWEI,
    gasLimit: 21000,
    to: b,
    ...fields,
  })
  return await devnet.rpc('eth_sendRawTransaction', [raw])
}

describe('txpool_* with automine off', () => {
  it('status, content, contentFrom and inspect: pending runs from the account nonce, queued behind a gap, EIP-55 senders, decimal nonces', async () => {
    const h0 = await send(0, { nonce: 0, value: 1000n })
    const h1 = await send(0, { nonce: 1, value: 2000n, gasPrice: 3n * GWEI })
    const h3 = await send(0, { nonce: 3, to: null, gasLimit: 60000, data: '0x6000' })
    const hb = await send(1, { nonce: 5, to: a, value: 7n })
    expect(await devnet.rpc('txpool_status')).toEqual({ pending: '0x2', queued: '0x2' })

    const A = getAddress(a)
    const B = getAddress(b)
    const tx = async (hash: string) => devnet.rpc('eth_getTransactionByHash', [hash])
    expect(await devnet.rpc('txpool_content')).toEqual({
      pending: { [A]: { '0': await tx(h0), '1': await tx(h1) } },
      queued: { [A]: { '3': await tx(h3) }, [B]: { '5': await tx(hb) } },
    })
    expect(((await devnet.rpc('txpool_content')) as any).pending[A]['0']).toMatchObject({ blockHash: null, blockNumber: null, transactionIndex: null, nonce: '0x0', from: a })
    expect(await devnet.rpc('txpool_contentFrom', [a])).toEqual({
      pending: { '0': await tx(h0), '1': await tx(h1) },
      queued: { '3': await tx(h3) },
    })
    expect(await devnet.rpc('txpool_contentFrom', [devnet.accounts[2]!.address])).toEqual({ pending: {}, queued: {} })
    expect(await devnet.rpc('txpool_inspect')).toEqual({
      pending: {
        [A]: {
          '0': `${B}: 1000 wei + 21000 gas × 1000000000 wei`,
          '1': `${B}: 2000 wei + 21000 gas × 3000000000 wei`,
        },
      },
      queued: {
        [A]: { '3': 'contract creation: 0 wei + 60000 gas × 1000000000 wei' },
        [B]: { '5': `${A}: 7 wei + 21000 gas × 1000000000 wei` },
      },
    })

    // Mining takes the pending run; the gap keeps nonce 3 queued.
    await devnet.mine()
    expect(await devnet.rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x2' })
    await send(0, { nonce: 2 })
    expect(await devnet.rpc('txpool_status')).toEqual({ pending: '0x2', queued: '0x1' })
  })

  it('bad params are -32602 and change nothing', async () => {
    await expect(devnet.rpcUntyped('txpool_status', [1])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('txpool_contentFrom', [])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('txpool_contentFrom', ['0x1234'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('hardhat_dropTransaction', ['0x12'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('anvil_removePoolTransactions', ['nope'])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('dropping pending transactions', () => {
  it('drop then mine: the dropped transaction never lands and its nonce is free again', async () => {
    const h0 = await send(0, { nonce: 0, value: 1n })
    const h1 = await send(0, { nonce: 1, value: 2n })
    expect(await devnet.rpc('hardhat_dropTransaction', [h1])).toBe(true)
    expect(await devnet.rpc('hardhat_dropTransaction', [h1])).toBe(false)
    expect(await devnet.rpc('eth_getTransactionByHash', [h1])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionCount', [a, 'pending'])).toBe('0x1')
    await devnet.mine()
    expect(await devnet.rpc('eth_getTransactionReceipt', [h1])).toBeNull()
    expect((await devnet.rpc('eth_getTransactionReceipt', [h0]))!.status).toBe('0x1')
    await expect(devnet.rpc('hardhat_dropTransaction', [h0])).rejects.toMatchObject({ code: -32602, message: `Transaction ${h0} cannot be removed because it's already mined` })

    // Nonce 1 is free again: another transaction takes it and lands.
    const again = await send(0, { nonce: 1, value: 3n })
    await devnet.mine()
    expect((await devnet.rpc('eth_getTransactionReceipt', [again]))!.blockNumber).toBe('0x2')
    expect(await devnet.rpc('eth_getTransactionCount', [a, 'latest'])).toBe('0x2')
  })

  it('dropping the head of a run leaves the rest queued; anvil_dropTransaction answers the hash, then null, as Anvil', async () => {
    const h0 = await send(0, { nonce: 0 })
    await send(0, { nonce: 1 })
    expect(await devnet.rpc('anvil_dropTransaction', [h0])).toBe(h0)
    expect(await devnet.rpc('anvil_dropTransaction', [h0])).toBeNull()
    expect(await devnet.rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x1' })
    await devnet.mine()
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
    expect(await devnet.rpc('eth_getTransactionCount', [a, 'latest'])).toBe('0x0')
  })

  it('anvil_removePoolTransactions drops one sender, anvil_dropAllTransactions everything, native transactions included', async () => {
    await send(0, { nonce: 0 })
    await send(0, { nonce: 1 })
    const hb = await send(1, { nonce: 0, to: a })
    const native = await sendNativeTransfer(devnet)
    expect((await devnet.rest.get('/api/v1/mempool/txcount')).Result).toEqual([4, 0])
    expect(await devnet.rpc('anvil_removePoolTransactions', [a])).toBeNull()
    expect(await devnet.rpc('txpool_content')).toEqual({ pending: { [getAddress(b)]: { '0': await devnet.rpc('eth_getTransactionByHash', [hb]) } }, queued: {} })
    expect((await devnet.rest.get('/api/v1/mempool/txcount')).Result).toEqual([2, 0])
    expect((await devnet.rest.get(`/api/v1/mempool/txstate/${native}`)).Error).toBe(0)
    expect(await devnet.rpc('anvil_dropAllTransactions')).toBeNull()
    expect((await devnet.rest.get('/api/v1/mempool/txcount')).Result).toEqual([0, 0])
    expect((await devnet.rest.get(`/api/v1/mempool/txstate/${native}`)).Error).toBe(44001)
    await devnet.mine()
    expect((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.transactions).toEqual([])
    expect((await devnet.rest.get('/api/v1/block/transactions/height/1')).Result).toMatchObject({ Transactions: [] })
  })

  it('a native pending transaction is dropped by hash, as the REST mempool routes show', async () => {
    const native = await sendNativeTransfer(devnet)
    expect((await devnet.rest.get(`/api/v1/mempool/txstate/${native}`)).Error).toBe(0)
    const rawHash = `0x${Buffer.from(native, 'hex').reverse().toString('hex')}`
    expect(await devnet.rpc('hardhat_dropTransaction', [rawHash])).toBe(true)
    expect((await devnet.rest.get(`/api/v1/mempool/txstate/${native}`)).Error).toBe(44001)
    expect((await devnet.rest.get('/api/v1/mempool/txcount')).Result).toEqual([0, 0])
  })
})
