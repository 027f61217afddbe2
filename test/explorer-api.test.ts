/**
 * The explorer's read API (src/explorer/api/): a transaction found in either byte
 * order with its native payload decoded, an address's transactions of both kinds
 * paged, the allowances an account gave and was given, and a contract's storage paged.
 * Every answer is read from the ledger, so each is checked against what the
 * interfaces answer; bad input is a 400 naming what was wanted, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { nativeApprove, nativeTransfer, PERSISTENCE_OPTIONS, sendEvmTransfer, sendNative } from './persistence-support.ts'

describe('the explorer API', { timeout: 120_000 }, () => {
  let devnet: Devnet
  let api: (path: string) => Promise<{ status: number; body: any }>
  let transfer: string
  let approve: string
  let evm: string
  beforeAll(async () => {
    devnet = await createDevnet(PERSISTENCE_OPTIONS)
    const { explorerUrl } = await devnet.listen({ explorer: true })
    api = async (path) => {
      const response = await fetch(`${explorerUrl}/api/${path}`)
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
      return { status: response.status, body: await response.json() }
    }
    transfer = await sendNative(devnet, nativeTransfer(devnet, 0, 1, 100))
    approve = await sendNative(devnet, nativeApprove(devnet, 0, 1, 7n))
    evm = await sendEvmTransfer(devnet, 5n)
  })
  afterAll(() => devnet.close())

  it('finds a native transaction by its REST hash and by JSON-RPC’s byte order, with its token call decoded in both units', async () => {
    const reversed = `0x${Buffer.from(transfer, 'hex').reverse().toString('hex')}`
    const [a, b] = [await api(`transaction/${transfer}`), await api(`transaction/${reversed}`)]
    expect(a).toEqual(b)
    const [alice, bob] = devnet.nativeAccounts
    expect(a.status).toBe(200)
    expect(a.body).toMatchObject({
      kind: 'native',
      hash: reversed,
      restHash: transfer,
      height: 1,
      index: 0,
      state: 1,
      from: { hex: alice!.address.slice(2).toLowerCase(), base58: alice!.base58 },
      native: {
        signers: [{ base58: alice!.base58 }],
        gasConsumed: '50000000',
        call: {
          token: 'main',
          method: 'transfer',
          action: 'transfer',
          moves: [{ from: { base58: alice!.base58 }, to: { base58: bob!.base58 }, amount: '100', decimals: 0, baseUnits: '100000000000', baseDecimals: 9 }],
        },
      },
    })
    const approval = await api(`transaction/${approve}`)
    expect(approval.body.native.call).toMatchObject({
      token: 'main',
      method: 'approve',
      action: 'approve',
      moves: [{ from: { base58: alice!.base58 }, to: { base58: bob!.base58 }, amount: '7', baseUnits: '7000000000' }],
    })
  })

  it('names an EVM transaction by its Ethereum hash', async () => {
    const found = await api(`transaction/${evm}`)
    expect(found.body).toMatchObject({ kind: 'evm', hash: evm, height: 3, state: 1, from: { hex: devnet.accounts[0]!.address.slice(2).toLowerCase() } })
    expect(found.body.native).toBeUndefined()
  })

  it('lists the transactions touching an address, both kinds, newest first, a page at a time', async () => {
    const alice = devnet.nativeAccounts[0]!
    const first = await api(`transactions/${alice.base58}?limit=2`)
    expect(first.body.transactions.map((t: { restHash: string }) => t.restHash)).toEqual([approve, transfer])
    expect(first.body.forked).toBe(false)
    // The genesis block funds the dev accounts: the last page holds that system transaction.
    const total = first.body.total as number
    expect(total).toBeGreaterThan(2)
    const rest = await api(`transactions/${alice.address}?limit=100&before=${first.body.next as string}`)
    expect(rest.body.transactions).toHaveLength(total - 2)
    expect(rest.body.next).toBeNull()
    const sender = await api(`transactions/${devnet.accounts[0]!.address}?limit=1`)
    expect(sender.body.transactions[0]).toMatchObject({ kind: 'evm', hash: evm, evm: { to: { hex: `${'00'.repeat(19)}bb` }, value: '5', selector: null, created: null } })
  })

  it('lists the allowances an account gave and was given, in base units', async () => {
    const [alice, bob] = devnet.nativeAccounts
    const given = await api(`account/${alice!.base58}`)
    expect(given.body.given).toEqual([
      { token: 'main', owner: { hex: alice!.address.slice(2).toLowerCase(), base58: alice!.base58 }, spender: { hex: bob!.address.slice(2).toLowerCase(), base58: bob!.base58 }, amount: '7000000000' },
    ])
    const received = await api(`account/${bob!.address}`)
    expect(received.body.given).toEqual([])
    // Bob's main tokens accrued unbound gas (the option unboundGas): the gas allowance from the main-token contract (reference §4.2).
    const unbound = received.body.received.filter((a: { owner: { hex: string } }) => a.owner.hex === `${'00'.repeat(19)}01`)
    expect(unbound).toHaveLength(1)
    expect(unbound[0].token).toBe('gas')
    expect(BigInt(unbound[0].amount) / 10n ** 9n).toBe(BigInt((await devnet.rest.get(`/api/v1/unboundgas/${bob!.base58}`)).Result as string))
    expect(received.body.received.filter((a: unknown) => !unbound.includes(a))).toEqual(given.body.given)
    // The REST server answers the same pair in v1 units (main whole tokens).
    expect((await devnet.rest.get(`/api/v1/allowance/main/${alice!.base58}/${bob!.base58}`)).Result).toBe('7')
  })

  it('pages a contract’s storage in slot order, words as eth_getStorageAt answers them', async () => {
    const contract = `0x${'00'.repeat(19)}cc`
    const slots = [5n, 1n, 300n, 2n, 9n].map((n) => `0x${n.toString(16).padStart(64, '0')}`)
    for (const [i, slot] of slots.entries()) await devnet.rpc('hardhat_setStorageAt', [contract, slot, `0x${(i + 1).toString(16).padStart(64, '0')}`])
    const first = await api(`storage/${contract}?limit=2`)
    expect(first.body).toMatchObject({ total: 5, next: slots[3], forked: false })
    expect(first.body.slots.map((s: { slot: string }) => s.slot)).toEqual([slots[1], slots[3]])
    const second = await api(`storage/${contract}?limit=3&after=${first.body.next as string}`)
    expect(second.body.slots.map((s: { slot: string }) => s.slot)).toEqual([slots[0], slots[4], slots[2]])
    expect(second.body.next).toBeNull()
    for (const { slot, value } of [...first.body.slots, ...second.body.slots]) expect(await devnet.rpc('eth_getStorageAt', [contract, slot, 'latest'])).toBe(value)
    expect((await api(`account/${contract}`)).body.storageSlots).toBe(5)
  })

  it('refuses malformed input with 400 and what it wanted, answers an unknown hash with null, and changes nothing', async () => {
    const height = await devnet.rpc('eth_blockNumber')
    expect(await api('transaction/0x1234')).toEqual({ status: 400, body: { error: 'a hash is 64 hex digits, with or without 0x' } })
    expect(await api(`transaction/${'ab'.repeat(32)}`)).toEqual({ status: 200, body: null })
    expect((await api('account/AnotAddress')).body.error).toMatch(/^an address is 0x and 40 hex digits, or Base58/)
    expect((await api(`storage/${devnet.accounts[0]!.address}?limit=0`)).body).toEqual({ error: 'limit is an integer from 1 to 256' })
    expect((await api(`storage/${devnet.accounts[0]!.address}?after=12`)).status).toBe(400)
    expect((await api(`transactions/${devnet.accounts[0]!.address}?before=x`)).body).toEqual({ error: 'before is <height>:<index>, the next of the page before' })
    expect((await api('nothing/1')).status).toBe(404)
    expect((await api('transaction/%E0%A4%A')).status).toBe(400)
    expect(await devnet.rpc('eth_blockNumber')).toBe(height)
  })

  it('serves the REST URL by the name the browser reached the server with (a wildcard bind is no URL for another machine)', async () => {
    const { restUrlFor } = await import('../src/explorer/serve.ts')
    expect(restUrlFor('http://0.0.0.0:20334', '192.168.1.20:20339')).toBe('http://192.168.1.20:20334')
    expect(restUrlFor('http://[::]:20334', '[fe80::1]:20339')).toBe('http://[fe80::1]:20334')
    expect(restUrlFor('http://127.0.0.1:20334', 'localhost:20339')).toBe('http://localhost:20334')
    expect(restUrlFor('http://127.0.0.1:20334', undefined)).toBe('http://127.0.0.1:20334')
  })
})
