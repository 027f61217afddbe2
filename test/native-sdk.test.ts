/**
 * Native transactions built and signed by the real ontology-ts-sdk, submitted with its
 * RestClient (reference §2, §1.4.6, §1.5, §2.8, §4): balances in both views, event
 * records, get_tx fields, block inclusion, pool refusals, preExec, snapshots.
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { buildNativeInvoke } from '../src/native/invokeScript.ts'
import { fromBase58 } from '../src/native/address.ts'
import { fromHex, toHexRaw } from '../src/util/hex.ts'
import { rev } from './chainRules.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
type Envelope = { Action: string; Desc: string; Error: number; Result: any }
const GOVERNANCE = 'AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK'
const GAS_PER_TOKEN = 10n ** 18n

let devnet: Devnet
let client: InstanceType<typeof sdk.RestClient>
let A: { base58: string; address: string; key: InstanceType<typeof sdk.Crypto.PrivateKey>; sdk: InstanceType<typeof sdk.Crypto.Address> }
let B: typeof A

const account = (i: number): typeof A => {
  const a = devnet.nativeAccounts[i]!
  return { base58: a.base58, address: a.address, key: new sdk.Crypto.PrivateKey(a.privateKey.slice(2)), sdk: new sdk.Crypto.Address(a.base58) }
}
const signed = (tx: InstanceType<typeof sdk.Transaction>, key = A.key) => {
  sdk.TransactionBuilder.signTransaction(tx, key)
  return tx.serialize()
}
const send = (hex: string, preExec = false) => client.sendRawTransaction(hex, preExec) as Promise<Envelope>
const balance = async (who: { base58: string }) => ((await client.getBalance(new sdk.Crypto.Address(who.base58))) as Envelope).Result as { main: string; gas: string }
/** A native call script of ours inside an SDK transaction (SDK 1.2.0 has no native approve/transferFrom builder). */
function customCall(method: string, fields: Uint8Array[], amount: bigint, gas = true) {
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONG', A.sdk, B.sdk, 1, '2500', '20000')
  const script = buildNativeInvoke(fromHex(`00000000000000000000000000000000000000${gas ? '02' : '01'}`), method, {
    type: 'struct',
    items: [...fields.map((f) => ({ type: 'bytes' as const, value: f })), { type: 'int' as const, value: amount }],
  })
  ;(tx.payload as unknown as { code: string }).code = toHexRaw(script)
  return tx
}

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 3 })
  client = new sdk.RestClient((await devnet.listen()).restUrl!)
  A = account(0)
  B = account(1)
})
afterEach(async () => {
  await devnet.close()
})

describe('transfers built by the SDK', () => {
  it('moves main tokens, charges 20,000 × gasPrice in gas to governance, and shows it in both views', async () => {
    const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 100, '2500', '20000')
    const hex = signed(tx)
    const sent = await send(hex)
    expect(sent).toMatchObject({ Action: 'sendrawtransaction', Error: 0, Desc: 'SUCCESS' })
    expect(sent.Result).toBe(rev(tx.getHash()))
    expect(await balance(A)).toEqual({ main: '9900', gas: String(10_000n * 10n ** 9n - 50_000_000n), height: '1' })
    expect(await balance(B)).toMatchObject({ main: '10100', gas: '10000000000000' })
    expect(await devnet.rpc('eth_getBalance', [A.address, 'latest'])).toBe(`0x${(10_000n * GAS_PER_TOKEN - 50_000_000n * 10n ** 9n).toString(16)}`)

    const event = ((await client.getSmartCodeEvent(sent.Result)) as Envelope).Result
    expect(event).toEqual({
      TxHash: sent.Result,
      State: 1,
      GasConsumed: 50_000_000,
      Notify: [
        { ContractAddress: '0100000000000000000000000000000000000000', States: ['transfer', A.base58, B.base58, 100], IsEvm: false },
        { ContractAddress: '0200000000000000000000000000000000000000', States: ['transfer', A.base58, GOVERNANCE, 50_000_000], IsEvm: false },
      ],
      GasStepUsed: 20000,
      TxIndex: 0,
      CreatedContract: '0000000000000000000000000000000000000000',
    })
    const json = ((await client.getRawTransactionJson(sent.Result)) as Envelope).Result
    expect(json).toMatchObject({ Version: 0, GasPrice: 2500, GasLimit: 20000, Payer: A.base58, TxType: 209, Attributes: [], Hash: sent.Result, Height: 1 })
    expect(json.Payload).toEqual({ Code: (tx.payload as unknown as { code: string }).code })
    expect(json.Sigs).toEqual([{ PubKeys: [devnet.nativeAccounts[0]!.publicKey.slice(2)], M: 1, SigData: [expect.stringMatching(/^01[0-9a-f]{128}$/)] }])
    expect(((await client.getRawTransaction(sent.Result)) as Envelope).Result).toBe(hex)
    const block = ((await client.getBlockTxsByHeight(1)) as Envelope).Result
    expect(block.Transactions).toEqual([sent.Result])
    // The eth view omits native transactions from block lists but counts them.
    expect((await devnet.rpc('eth_getBlockByNumber', ['0x1', false]))!.transactions).toEqual([])
    expect(await devnet.rpc('eth_getBlockTransactionCountByNumber', ['0x1'])).toBe('0x1')
    await expect(devnet.rpc('eth_getTransactionByHash', [`0x${tx.getHash()}`])).rejects.toMatchObject({ code: -32000, message: 'not a EIP155 tx' })
    // The merkle proof covers native transactions too.
    const proof = ((await client.getMerkleProof(sent.Result)) as Envelope).Result
    expect(proof.BlockHeight).toBe(1)
  })

  it('transfers gas in v1 and v2 units; eth_getBalance shows the receiver in wei', async () => {
    expect((await send(signed(sdk.OntAssetTxBuilder.makeTransferTx('ONG', A.sdk, B.sdk, 1_000_000_000, '0', '20000')))).Error).toBe(0)
    expect(await devnet.rpc('eth_getBalance', [B.address, 'latest'])).toBe(`0x${(10_001n * GAS_PER_TOKEN).toString(16)}`)
    const v2 = await send(signed(sdk.OntAssetTxBuilder.makeTransferTxV2('ONG', A.sdk, B.sdk, 1_500_000_000_000_000_000n.toString(), '0', '20000')))
    expect(v2.Error).toBe(0)
    expect(await devnet.rpc('eth_getBalance', [B.address, 'latest'])).toBe(`0x${(10_002n * GAS_PER_TOKEN + GAS_PER_TOKEN / 2n).toString(16)}`)
    const event = ((await client.getSmartCodeEvent(v2.Result)) as Envelope).Result
    // 1.5 gas = 1,500,000,000 v1 units exactly: no fraction element; gas price 0: no fee notify.
    expect(event.Notify).toEqual([{ ContractAddress: '0200000000000000000000000000000000000000', States: ['transfer', A.base58, B.base58, 1_500_000_000], IsEvm: false }])
    expect(event.GasConsumed).toBe(0)
  })

  it('adds the fraction element for v2 amounts below a v1 unit (§1.4.6)', async () => {
    const sent = await send(signed(sdk.OntAssetTxBuilder.makeTransferTxV2('ONG', A.sdk, B.sdk, '1000000000000000123', '0', '20000')))
    const event = ((await client.getSmartCodeEvent(sent.Result)) as Envelope).Result
    expect(event.Notify[0].States).toEqual(['transfer', A.base58, B.base58, 1_000_000_000, 123])
  })

  it('approve then transferFrom by the spender', async () => {
    const approve = customCall('approve', [fromBase58(A.base58), fromBase58(B.base58)], 500n, false)
    expect((await send(signed(approve))).Error).toBe(0)
    expect(((await client.getAllowance('ont', A.sdk, B.sdk)) as Envelope).Result).toBe('500')
    expect((await devnet.rest.get(`/api/v1/allowancev2/main/${A.base58}/${B.base58}`)).Result).toBe('500000000000')
    const C = account(2)
    const pull = customCall('transferFrom', [fromBase58(B.base58), fromBase58(A.base58), fromBase58(C.base58)], 200n, false)
    pull.payer = B.sdk
    expect((await send(signed(pull, B.key))).Error).toBe(0)
    expect((await balance(C)).main).toBe('10200')
    expect(((await client.getAllowance('ont', A.sdk, B.sdk)) as Envelope).Result).toBe('300')
  })

  it('preExec runs without committing (§1.4.7)', async () => {
    const hex = signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 7, '2500', '20000'))
    const pre = await send(hex, true)
    expect(pre.Result).toEqual({
      State: 1,
      Gas: 20000,
      Result: '01',
      Notify: [{ ContractAddress: '0100000000000000000000000000000000000000', States: ['transfer', A.base58, B.base58, 7], IsEvm: false }],
    })
    const query = await send(sdk.OntAssetTxBuilder.makeQueryBalanceTx('ONT', B.sdk).serialize(), true)
    expect(query.Result).toMatchObject({ State: 1, Result: (10_000).toString(16).padStart(4, '0').match(/../g)!.reverse().join('') })
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
  })
})

describe('pool refusals (§1.5) change nothing', () => {
  it('answers the node codes and texts', async () => {
    const before = await balance(A)
    const unsigned = sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 1, '2500', '20000').serialize()
    expect(await send(unsigned)).toMatchObject({ Error: 45021, Desc: '', Result: 'transaction verify signature fail' })
    const byB = signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 1, '2500', '20000'), B.key)
    expect(await send(byB)).toMatchObject({ Error: 45021 })
    const lowGas = signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 1, '2500', '19999'))
    expect(await send(lowGas)).toMatchObject({ Error: -1, Desc: 'INTERNAL ERROR, ErrUnknown', Result: 'Please input gasLimit >= 20000 and gasPrice >= 0' })
    const tooMuch = signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 10_001, '0', '20000'))
    expect(await send(tooMuch)).toMatchObject({ Error: -1, Result: expect.stringContaining('balance insufficient') })
    const claim = signed(sdk.OntAssetTxBuilder.makeWithdrawOngTx(A.sdk, A.sdk, '1', A.sdk, '0', '20000'))
    expect(await send(claim)).toMatchObject({ Error: -1, Result: expect.stringContaining('allowance insufficient') })
    const neo = sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 1, '0', '20000')
    ;(neo.payload as unknown as { code: string }).code = `67${'11'.repeat(20)}`
    expect(await send(signed(neo))).toMatchObject({ Error: -1, Result: expect.stringContaining('not NeoVM or Wasm contract code') })
    expect(await send('00d1ff')).toMatchObject({ Error: 43001, Result: '' })
    expect(await balance(A)).toEqual(before)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
  })
})

describe('native transactions and the controls', () => {
  it('are undone by revert and wait in the pool without automine', async () => {
    const id = await devnet.snapshot()
    await send(signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 5, '0', '20000')))
    expect((await balance(B)).main).toBe('10005')
    await devnet.revert(id)
    expect((await balance(B)).main).toBe('10000')
    await devnet.setAutomine(false)
    const pending = await send(signed(sdk.OntAssetTxBuilder.makeTransferTx('ONT', A.sdk, B.sdk, 5, '0', '20000')))
    expect(((await client.getMempoolTxCount()) as Envelope).Result).toEqual([1, 0])
    expect(((await client.getMempoolTxState(pending.Result)) as Envelope).Error).toBe(0)
    await devnet.mine()
    expect((await balance(B)).main).toBe('10005')
    expect(((await client.getBlockHeightByTxHash(pending.Result)) as Envelope).Result).toBe(1)
  })
})
