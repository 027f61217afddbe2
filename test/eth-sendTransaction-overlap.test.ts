/**
 * eth_sendTransaction calls from one account that overlap (a client's `Promise.all` of
 * sends) get consecutive nonces: the pending nonce is taken when the transaction joins
 * the pool, as go-ethereum (a lock per sender from filling the nonce to adding to the
 * pool) and Hardhat do. OpenZeppelin's `batchInBlock` helper (automine off, three sends
 * at once, one `mine()`) found it: before, every send but the first got the same nonce
 * and was refused as `a transaction with the same nonce exists in the pool`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

/** Three sends from `from` at once, none naming a nonce; their hashes. */
function threeAtOnce(d: Devnet, from: string, to: string): Promise<string[]> {
  const send = (value: string) => d.request({ method: 'eth_sendTransaction', params: [{ from, to, value, gas: '0x5208' }] }) as Promise<string>
  return Promise.all([send('0x1'), send('0x2'), send('0x3')])
}

/** Nonce, value and block number of each transaction. */
async function placed(d: Devnet, hashes: string[]): Promise<Array<{ nonce: string; value: string; blockNumber: string | null }>> {
  return Promise.all(
    hashes.map(async (hash) => {
      const { nonce, value, blockNumber } = (await d.request({ method: 'eth_getTransactionByHash', params: [hash] }))!
      return { nonce: nonce!, value: value!, blockNumber: blockNumber ?? null }
    }),
  )
}

describe('eth_sendTransaction: overlapping sends from one account', () => {
  it('automine off: all three join the pool with nonces 0, 1, 2 and one block mines them', async () => {
    devnet = await createDevnet({ accounts: 2, automine: false })
    const [from, to] = devnet.accounts.map((account) => account.address)
    const hashes = await threeAtOnce(devnet, from!, to!)
    expect(await devnet.request({ method: 'eth_getTransactionCount', params: [from!, 'pending'] })).toBe('0x3')
    await devnet.request({ method: 'evm_mine', params: [] })
    expect(await placed(devnet, hashes)).toEqual([
      { nonce: '0x0', value: '0x1', blockNumber: '0x1' },
      { nonce: '0x1', value: '0x2', blockNumber: '0x1' },
      { nonce: '0x2', value: '0x3', blockNumber: '0x1' },
    ])
  })

  it('automine on: each is mined in its own block, in the order sent', async () => {
    devnet = await createDevnet({ accounts: 2 })
    const [from, to] = devnet.accounts.map((account) => account.address)
    const hashes = await threeAtOnce(devnet, from!, to!)
    expect(await placed(devnet, hashes)).toEqual([
      { nonce: '0x0', value: '0x1', blockNumber: '0x1' },
      { nonce: '0x1', value: '0x2', blockNumber: '0x2' },
      { nonce: '0x2', value: '0x3', blockNumber: '0x3' },
    ])
  })

  it('an impersonated account: the same consecutive nonces', async () => {
    devnet = await createDevnet({ accounts: 1, automine: false })
    const from = '0x1000000000000000000000000000000000000001'
    await devnet.request({ method: 'hardhat_setBalance', params: [from, '0xde0b6b3a7640000'] })
    await devnet.request({ method: 'hardhat_impersonateAccount', params: [from] })
    const hashes = await threeAtOnce(devnet, from, devnet.accounts[0]!.address)
    await devnet.request({ method: 'evm_mine', params: [] })
    expect((await placed(devnet, hashes)).map(({ nonce }) => nonce)).toEqual(['0x0', '0x1', '0x2'])
  })

  it('a nonce in the request is kept: a second send with the same nonce is refused', async () => {
    devnet = await createDevnet({ accounts: 2, automine: false })
    const [from, to] = devnet.accounts.map((account) => account.address)
    const send = (value: string) => devnet!.request({ method: 'eth_sendTransaction', params: [{ from, to, value, gas: '0x5208', nonce: '0x0' }] })
    const [first, second] = await Promise.allSettled([send('0x1'), send('0x2')])
    expect(first.status).toBe('fulfilled')
    expect(second).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('a transaction with the same nonce exists in the pool') } })
  })
})
