/**
 * NeoVM native-invoke scripts (reference §2.5, §2.6): the worked bytes, the SDK
 * vector's script, scripts built by the real ontology-ts-sdk, round trips and fuzzing.
 */
import fc from 'fast-check'
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { toBase58 } from '../src/native/address.ts'
import { buildNativeInvoke, decodeNativeInvoke, UnsupportedScriptError, type NeoValue } from '../src/native/invokeScript.ts'
import { decodeTokenCall, type TokenCall } from '../src/native/tokenCall.ts'
import { decodeNativeTransaction } from '../src/native/transaction.ts'
import { fromHex } from '../src/util/hex.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
const A = fromHex('4f4b954b7057611c02384f5756f6a34f56fc0a59')
const B = fromHex('5ff0e5382aed9982f2137e1293256a6e9ab1e00c')
const MAIN = fromHex('0000000000000000000000000000000000000001')
const GAS = fromHex('0000000000000000000000000000000000000002')
const call = (hex: string | Uint8Array) => decodeTokenCall(decodeNativeInvoke(typeof hex === 'string' ? fromHex(hex) : hex))

describe('the reference bytes (§2.5, §2.7)', () => {
  it('decodes the worked main-token transfer of 100', () => {
    const script =
      '00c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc8' +
      '0864000000000000006a7cc86c51c1087472616e73666572140000000000000000000000000000000000000001' +
      '0068164f6e746f6c6f67792e4e61746976652e496e766f6b65'
    expect(call(script)).toEqual({ token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 100n }] })
  })

  it('decodes the claim variant (transferFrom on the gas token, four fields, no PACK)', () => {
    const script =
      '00c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8140000000000000000000000000000000000000001' +
      '6a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80864000000000000006a7cc86c' +
      '0c7472616e7366657246726f6d1400000000000000000000000000000000000000020068164f6e746f6c6f67792e4e61746976652e496e766f6b65'
    expect(call(script)).toEqual({ token: 'gas', method: 'transferFrom', v2: false, sender: A, from: MAIN, to: B, amount: 100n })
  })

  it("decodes the SDK vector's script: a gas transfer of 30,000,000 pushed as 4 bytes", () => {
    const vector =
      '00d102b56210f401000000000000400d0300000000004f4b954b7057611c02384f5756f6a34f56fc0a597500c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80480c3c9016a7cc86c51c1087472616e736665721400000000000000000000000000000000000000020068164f6e746f6c6f67792e4e61746976652e496e766f6b6500014241018ab6942903d54ec88c42d0230b3ce405cd45cca1b9a1faf528b62ecc3f5b3041f2461d37b66e26cfae31ffa688c86206aed725ca7e84c1609890a0f2caebde2f232102981da02fcd82a1647f76935c377f00d5c6d541f346d3abdbb172cf6b9300adc7ac'
    const { tx } = decodeNativeTransaction(fromHex(vector))
    if (tx.payload.kind !== 'invoke') throw new Error('expected an invoke')
    expect(call(tx.payload.code)).toEqual({ token: 'gas', method: 'transfer', v2: false, states: [{ from: tx.payer, to: B, amount: 30_000_000n }] })
  })
})

describe('scripts built by ontology-ts-sdk', () => {
  const from = new sdk.Crypto.Address(toBase58(A))
  const to = new sdk.Crypto.Address(toBase58(B))
  const code = (tx: { payload: { code: string } }) => fromHex(tx.payload.code)
  const amounts = ['1', '15', '16', '100', '1000000000', '9223372036854775807']

  it('transfer and transferV2, main and gas, several amounts', () => {
    for (const amount of amounts) {
      for (const [asset, token] of [['ONT', 'main'], ['ONG', 'gas']] as const) {
        expect(call(code(sdk.OntAssetTxBuilder.makeTransferTx(asset, from, to, amount, '2500', '20000')))).toEqual({
          token, method: 'transfer', v2: false, states: [{ from: A, to: B, amount: BigInt(amount) }],
        })
        expect(call(code(sdk.OntAssetTxBuilder.makeTransferTxV2(asset, from, to, amount, '2500', '20000')))).toEqual({
          token, method: 'transfer', v2: true, states: [{ from: A, to: B, amount: BigInt(amount) }],
        })
      }
    }
  })

  it('transfer to many, the claim (withdraw), balance and allowance queries', () => {
    const many = sdk.OntAssetTxBuilder.makeTransferToMany('ONG', from, [to, from], [5, 7], '2500', '20000')
    expect(call(code(many))).toEqual({
      token: 'gas', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 5n }, { from: A, to: A, amount: 7n }],
    })
    expect(call(code(sdk.OntAssetTxBuilder.makeWithdrawOngTx(from, to, '42', from, '2500', '20000')))).toEqual({
      token: 'gas', method: 'transferFrom', v2: false, sender: A, from: MAIN, to: B, amount: 42n,
    })
    expect(call(code(sdk.OntAssetTxBuilder.makeQueryBalanceTx('ONT', from)))).toEqual({ token: 'main', method: 'balanceOf', v2: false, address: A })
    expect(call(code(sdk.OntAssetTxBuilder.makeQueryAllowanceTx('ONG', from, to)))).toEqual({ token: 'gas', method: 'allowance', v2: false, from: A, to: B })
  })
})

describe('building, round trips and fuzzing', () => {
  const address = fc.uint8Array({ minLength: 20, maxLength: 20 })
  const bytes = (value: Uint8Array): NeoValue => ({ type: 'bytes', value })
  const int = (value: bigint): NeoValue => ({ type: 'int', value })
  const struct = (...items: NeoValue[]): NeoValue => ({ type: 'struct', items })

  it('decode(build(call)) gives the call back', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(address, address, fc.bigInt(0n, 2n ** 64n - 1n)), { minLength: 1, maxLength: 4 }), fc.boolean(), (states, gas) => {
        const script = buildNativeInvoke(gas ? GAS : MAIN, 'transfer', { type: 'array', items: states.map(([f, t, a]) => struct(bytes(f), bytes(t), int(a))) })
        const expected: TokenCall = { token: gas ? 'gas' : 'main', method: 'transfer', v2: false, states: states.map(([f, t, a]) => ({ from: f, to: t, amount: a })) }
        expect(call(script)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('refuses NeoVM contract calls and other contracts with a clear message', () => {
    expect(() => decodeNativeInvoke(fromHex('67' + '11'.repeat(20)))).toThrow(/not NeoVM or Wasm contract code/)
    expect(() => call(buildNativeInvoke(fromHex('0000000000000000000000000000000000000003'), 'regIDWithPublicKey', bytes(A)))).toThrow(UnsupportedScriptError)
    expect(() => call(buildNativeInvoke(MAIN, 'transfer', struct(bytes(A), bytes(B), int(1n))))).toThrow(/list of transfer states/)
    expect(() => call(buildNativeInvoke(MAIN, 'approve', struct(bytes(A), bytes(B), int(-5n))))).toThrow(/negative/)
  })

  it('never crashes on random or mutated scripts', () => {
    const valid = buildNativeInvoke(GAS, 'transfer', { type: 'array', items: [struct(bytes(A), bytes(B), int(123456789n))] })
    const mutated = fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(20)).map(([at, value, cut]) => {
      const copy = valid.slice(0, valid.length - cut)
      if (at < copy.length) copy[at] = value
      return copy
    })
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), mutated), (script) => {
        try {
          call(script)
        } catch (err) {
          if (!(err instanceof UnsupportedScriptError)) throw err
        }
      }),
      { numRuns: 5000 },
    )
  })
})

