/**
 * Unbound gas (reference §4.2): zero on a solo node; with the devnet's `unboundGas`
 * option, accrual by the real schedule, granted into the claimable allowance by a
 * main-token transfer, and claimed with the SDK's withdraw transaction.
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
const YEAR = 31_536_000
const GENESIS = 1_700_000_000

/** The schedule written out independently of src/: v1 gas per main token per second, by year. */
function expectedAccrual(mainTokens: bigint, seconds: number): bigint {
  const rates = [5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
  let total = 0n
  for (let year = 0; year < rates.length; year++) {
    const inYear = Math.max(0, Math.min(seconds, (year + 1) * YEAR) - year * YEAR)
    total += BigInt(inYear) * BigInt(rates[year]!)
  }
  return total * mainTokens
}

async function setup(options: Parameters<typeof createDevnet>[0]) {
  const devnet = await createDevnet({ accounts: 1, nativeAccounts: 2, clock: 'frozen', genesisTimestamp: GENESIS, ...options })
  const [a, b] = devnet.nativeAccounts
  const key = new sdk.Crypto.PrivateKey(a!.privateKey.slice(2))
  const from = new sdk.Crypto.Address(a!.base58)
  const to = new sdk.Crypto.Address(b!.base58)
  const send = async (tx: InstanceType<typeof sdk.Transaction>) => {
    sdk.TransactionBuilder.signTransaction(tx, key)
    return devnet.rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: '1.0.0', Data: tx.serialize() })
  }
  return { devnet, a: a!, b: b!, from, to, send }
}

const gasOf = async (devnet: Devnet, base58: string) => BigInt(((await devnet.rest.get(`/api/v1/balancev2/${base58}`)).Result as { gas: string }).gas)
const unbound = async (devnet: Devnet, base58: string) => (await devnet.rest.get(`/api/v1/unboundgas/${base58}`)).Result
const grant = async (devnet: Devnet, base58: string) => (await devnet.rest.get(`/api/v1/grantgas/${base58}`)).Result

describe('unbound gas', () => {
  it('stays zero on a solo node, whatever time does', async () => {
    const { devnet, a, from, to, send } = await setup({})
    await devnet.increaseTime(YEAR)
    await send(sdk.OntAssetTxBuilder.makeTransferTx('ONT', from, to, 1, '0', '20000'))
    expect(await unbound(devnet, a.base58)).toBe('0')
    expect(await grant(devnet, a.base58)).toBe('0')
    expect((await devnet.rest.get(`/api/v1/unboundong/${a.base58}`)).Action).toBe('getunboundong')
    await devnet.close()
  })

  it('accrues by the schedule, is granted by a transfer, and the claim moves exactly that', async () => {
    const { devnet, a, b, from, to, send } = await setup({ unboundGas: {} })
    await devnet.increaseTime(YEAR)
    await devnet.mine()
    // Accrued but not yet granted: get_grantgas grows with time, get_unboundgas not.
    expect(await grant(devnet, a.base58)).toBe(String(expectedAccrual(10_000n, YEAR)))
    expect(await unbound(devnet, a.base58)).toBe('0')

    // A main-token transfer grants both sides what their balance accrued until its block.
    const transfer = await send(sdk.OntAssetTxBuilder.makeTransferTx('ONT', from, to, 1, '0', '20000'))
    expect(transfer.Error).toBe(0)
    const at = Number(((await devnet.rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp) - GENESIS
    const accrued = expectedAccrual(10_000n, at)
    expect(await unbound(devnet, a.base58)).toBe(String(accrued))
    expect(await unbound(devnet, b.base58)).toBe(String(accrued))
    expect(await grant(devnet, a.base58)).toBe('0')

    const before = await gasOf(devnet, a.base58)
    const claim = await send(sdk.OntAssetTxBuilder.makeWithdrawOngTx(from, from, accrued.toString(), from, '0', '20000'))
    expect(claim.Error).toBe(0)
    const after = await gasOf(devnet, a.base58)
    expect(after - before).toBe(accrued * 10n ** 9n)
    expect(await unbound(devnet, a.base58)).toBe('0')
    const event = (await devnet.rest.get(`/api/v1/smartcode/event/txhash/${claim.Result}`)).Result as { Notify: unknown }
    expect(event.Notify).toEqual([{ ContractAddress: '0200000000000000000000000000000000000000', States: ['transfer', 'AFmseVrdL9f9oyCzZefL9tG6UbvhUMqNMV', a.base58, Number(accrued)], IsEvm: false }])
    // Claiming more than granted is refused by the pool and changes nothing.
    const again = await send(sdk.OntAssetTxBuilder.makeWithdrawOngTx(from, from, '1', from, '0', '20000'))
    expect(again.Error).toBe(-1)
    expect(await gasOf(devnet, a.base58)).toBe(after)
    await devnet.close()
  })

  it('stops at the deadline', async () => {
    const { devnet, a } = await setup({ unboundGas: { deadline: 1000 } })
    await devnet.increaseTime(YEAR)
    expect(await grant(devnet, a.base58)).toBe(String(10_000n * 1000n * 5n))
    await devnet.close()
  })
})
