/**
 * NeoVM native-invoke scripts (reference §2.5, §2.6, §2.7): the worked bytes, the SDK
 * vector's script, scripts built by the real ontology-ts-sdk 1.2.0, the native input
 * bytes, round trips, refusals and fuzzing.
 */
import fc from 'fast-check'
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { toBase58 } from '../src/native/address.ts'
import {
  bigIntFromNeoBytes,
  buildNativeInvoke,
  decodeNativeInvoke,
  InvalidTokenCallError,
  neoBytes,
  toNativeInput,
  UnsupportedScriptError,
  type NativeInvoke,
  type NeoValue,
} from '../src/native/invokeScript.ts'
import { decodeTokenCall, type TokenCall } from '../src/native/tokenCall.ts'
import { buildTokenCall } from '../src/native/tokenCallBuilder.ts'
import { fromHex, toHexRaw } from '../src/util/hex.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
const A = fromHex('4f4b954b7057611c02384f5756f6a34f56fc0a59')
const B = fromHex('5ff0e5382aed9982f2137e1293256a6e9ab1e00c')
const MAIN = fromHex('0000000000000000000000000000000000000001')
const GAS = fromHex('0000000000000000000000000000000000000002')
const TAIL = '0068164f6e746f6c6f67792e4e61746976652e496e766f6b65' // version 0, SYSCALL "Ontology.Native.Invoke"
const DEVNET_TEXT = 'this devnet executes native main- and gas-token calls only, not NeoVM or Wasm contract code'

const bytes = (value: Uint8Array | string): NeoValue => ({ type: 'bytes', value: typeof value === 'string' ? fromHex(value) : value })
const int = (value: bigint): NeoValue => ({ type: 'int', value })
const struct = (...items: NeoValue[]): NeoValue => ({ type: 'struct', items })
const array = (...items: NeoValue[]): NeoValue => ({ type: 'array', items })
const script = (hex: string | Uint8Array) => (typeof hex === 'string' ? fromHex(hex) : hex)
const call = (hex: string | Uint8Array) => decodeTokenCall(decodeNativeInvoke(script(hex)))
const hex = (b: Uint8Array) => toHexRaw(b)

describe('the reference bytes (§2.5, §2.7)', () => {
  const worked =
    '00c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc8' +
    '0864000000000000006a7cc86c51c1087472616e73666572140000000000000000000000000000000000000001' +
    TAIL

  it('decodes the worked main-token transfer of 100 from A to B', () => {
    const invoke = decodeNativeInvoke(script(worked))
    expect(invoke).toEqual({ contract: MAIN, method: 'transfer', version: 0, args: array(struct(bytes(A), bytes(B), bytes('6400000000000000'))) })
    expect(decodeTokenCall(invoke)).toEqual({ token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 100n }] })
    expect(hex(buildTokenCall({ token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 100n }] }))).toBe(worked)
  })

  it('decodes the claim variant: transferFrom on the gas token, four fields, no PACK', () => {
    const claim =
      '00c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8140000000000000000000000000000000000000001' +
      '6a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80864000000000000006a7cc86c' +
      '0c7472616e7366657246726f6d140000000000000000000000000000000000000002' +
      TAIL
    expect(decodeNativeInvoke(script(claim)).args).toEqual(struct(bytes(A), bytes(MAIN), bytes(B), bytes('6400000000000000')))
    expect(call(claim)).toEqual({ token: 'gas', method: 'transferFrom', v2: false, sender: A, from: MAIN, to: B, amount: 100n })
  })

  it("decodes the §2.7 vector's script: a gas transfer of 30,000,000 (4 bytes 80c3c901) from the payer", () => {
    const raw = fromHex(
      '00d102b56210f401000000000000400d0300000000004f4b954b7057611c02384f5756f6a34f56fc0a597500c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80480c3c9016a7cc86c51c1087472616e736665721400000000000000000000000000000000000000020068164f6e746f6c6f67792e4e61746976652e496e766f6b6500014241018ab6942903d54ec88c42d0230b3ce405cd45cca1b9a1faf528b62ecc3f5b3041f2461d37b66e26cfae31ffa688c86206aed725ca7e84c1609890a0f2caebde2f232102981da02fcd82a1647f76935c377f00d5c6d541f346d3abdbb172cf6b9300adc7ac',
    )
    // version, type, nonce 4, gasPrice 8, gasLimit 8 = 22 bytes; payer 20; then the code length 0x75.
    const payer = raw.subarray(22, 42)
    expect(raw[42]).toBe(0x75)
    const code = raw.subarray(43, 43 + 0x75)
    expect(raw[43 + 0x75]).toBe(0) // the attribute count follows the code
    expect(toBase58(payer)).toBe('AP19aGJ4GWs2qKv3PCt37r6HgM1v7EhgEM')
    expect(decodeNativeInvoke(code).args).toEqual(array(struct(bytes(payer), bytes(B), bytes('80c3c901'))))
    expect(call(code)).toEqual({ token: 'gas', method: 'transfer', v2: false, states: [{ from: payer, to: B, amount: 30_000_000n }] })
  })
})

describe('scripts built by ontology-ts-sdk 1.2.0', () => {
  const builder = sdk.OntAssetTxBuilder
  const from = new sdk.Crypto.Address(toBase58(A))
  const to = new sdk.Crypto.Address(toBase58(B))
  const code = (tx: { payload: object }) => fromHex((tx.payload as { code: string }).code)
  const tokens = [
    ['ONT', 'main'],
    ['ONG', 'gas'],
  ] as const
  const amounts = [1n, 15n, 16n, 100n, 10n ** 9n, 2n ** 63n - 1n, 2n ** 64n - 1n]
  /** Decodes the SDK's script to `expected`, and our builder reproduces the SDK's bytes. */
  const check = (sdkCode: Uint8Array, expected: TokenCall) => {
    expect(call(sdkCode)).toEqual(expected)
    expect(hex(buildTokenCall(expected))).toBe(hex(sdkCode))
  }

  it('has these OntAssetTxBuilder functions (no makeApproveTx, no makeTransferFromTx)', () => {
    expect(
      Object.keys(builder)
        .filter((k) => k.startsWith('make'))
        .sort(),
    ).toEqual([
      'makeQueryAllowanceTx',
      'makeQueryAllowanceTxV2',
      'makeQueryBalanceTx',
      'makeQueryBalanceTxV2',
      'makeTransferStateTx',
      'makeTransferStateTxV2',
      'makeTransferToMany',
      'makeTransferToManyV2',
      'makeTransferTx',
      'makeTransferTxV2',
      'makeWithdrawOngTx',
      'makeWithdrawOngTxV2',
    ])
  })

  it('makeTransferTx and makeTransferTxV2: main and gas, amounts 1, 15, 16, 100, 1e9, 2^63-1, 2^64-1', () => {
    for (const [asset, token] of tokens) {
      for (const amount of amounts) {
        const states = [{ from: A, to: B, amount }]
        check(code(builder.makeTransferTx(asset, from, to, amount.toString(), '2500', '20000')), { token, method: 'transfer', v2: false, states })
        check(code(builder.makeTransferTxV2(asset, from, to, amount.toString(), '2500', '20000')), { token, method: 'transfer', v2: true, states })
      }
      const big = 10n ** 27n // above u64: only a V2 amount can carry it
      check(code(builder.makeTransferTxV2(asset, from, to, big.toString(), '0', '20000')), { token, method: 'transfer', v2: true, states: [{ from: A, to: B, amount: big }] })
    }
  })

  it('pushes 1..15 as one opcode, 16 and 100 as 8 padded bytes (§2.5)', () => {
    const amountPush = (amount: string) => {
      const h = hex(code(builder.makeTransferTx('ONT', from, to, amount, '0', '20000')))
      return h.slice(`00c66b14${hex(A)}6a7cc814${hex(B)}6a7cc8`.length, h.indexOf('6a7cc86c51c1'))
    }
    expect(amountPush('1')).toBe('51')
    expect(amountPush('15')).toBe('5f')
    expect(amountPush('16')).toBe('081000000000000000')
    expect(amountPush('100')).toBe('086400000000000000')
  })

  it('refuses amount 0 in the SDK (verifyAmount); our builder pushes it as 00 and it decodes to 0', () => {
    expect(() => builder.makeTransferTx('ONT', from, to, 0, '0', '20000')).toThrow('Amount is invalid')
    const zero: TokenCall = { token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 0n }] }
    expect(hex(buildTokenCall(zero))).toContain('6a7cc8006a7cc86c')
    expect(call(buildTokenCall(zero))).toEqual(zero)
  })

  it('makeTransferToMany, makeTransferStateTx and their V2: several states, PACK count up to 16', () => {
    for (const [asset, token] of tokens) {
      for (const v2 of [false, true]) {
        const many = (v2 ? builder.makeTransferToManyV2 : builder.makeTransferToMany)(asset, from, [to, from, to], [5, 7, 16], '2500', '20000')
        check(code(many), {
          token,
          method: 'transfer',
          v2,
          states: [
            { from: A, to: B, amount: 5n },
            { from: A, to: A, amount: 7n },
            { from: A, to: B, amount: 16n },
          ],
        })
        const states = [new sdk.Token.State(from, to, '100'), new sdk.Token.State(to, from, '1000000000')]
        const stateTx = (v2 ? builder.makeTransferStateTxV2 : builder.makeTransferStateTx)(asset, states, '2500', '20000')
        check(code(stateTx), {
          token,
          method: 'transfer',
          v2,
          states: [
            { from: A, to: B, amount: 100n },
            { from: B, to: A, amount: 10n ** 9n },
          ],
        })
      }
    }
    // 16 states: the count is pushed as 08 1000000000000000, not PUSH16.
    const sixteen = builder.makeTransferToMany(
      'ONG',
      from,
      Array.from({ length: 16 }, () => to),
      Array.from({ length: 16 }, (_, i) => i + 1),
      '0',
      '20000',
    )
    expect(hex(code(sixteen))).toContain('081000000000000000c1')
    check(code(sixteen), { token: 'gas', method: 'transfer', v2: false, states: Array.from({ length: 16 }, (_, i) => ({ from: A, to: B, amount: BigInt(i + 1) })) })
  })

  it('makeWithdrawOngTx(V2): the claim is transferFrom on the gas contract, sender = claimer, from = 0x…01', () => {
    check(code(builder.makeWithdrawOngTx(from, to, '42', from, '2500', '20000')), { token: 'gas', method: 'transferFrom', v2: false, sender: A, from: MAIN, to: B, amount: 42n })
    check(code(builder.makeWithdrawOngTxV2(from, to, '9223372036854775807', from, '2500', '20000')), {
      token: 'gas',
      method: 'transferFrom',
      v2: true,
      sender: A,
      from: MAIN,
      to: B,
      amount: 2n ** 63n - 1n,
    })
  })

  it('makeQueryBalanceTx(V2) and makeQueryAllowanceTx(V2)', () => {
    for (const [asset, token] of tokens) {
      check(code(builder.makeQueryBalanceTx(asset, from)), { token, method: 'balanceOf', v2: false, address: A })
      check(code(builder.makeQueryBalanceTxV2(asset, to)), { token, method: 'balanceOf', v2: true, address: B })
      check(code(builder.makeQueryAllowanceTx(asset, from, to)), { token, method: 'allowance', v2: false, from: A, to: B })
      check(code(builder.makeQueryAllowanceTxV2(asset, to, from)), { token, method: 'allowance', v2: true, from: B, to: A })
    }
  })

  it("refuses the SDK's NeoVM and Wasm contract calls with the devnet's message", () => {
    const params = [new sdk.Parameter('a', sdk.ParameterType.ByteArray, hex(A)), new sdk.Parameter('n', sdk.ParameterType.Integer, 100)]
    const contract = new sdk.Crypto.Address('36bb5c053b6b839c8f6b923fe852f91239b9fccc')
    const neo = code(sdk.TransactionBuilder.makeInvokeTransaction('transfer', params, contract))
    expect(() => decodeNativeInvoke(neo)).toThrow(UnsupportedScriptError)
    expect(() => decodeNativeInvoke(neo)).toThrow(`APPCALL (0x67), a call to NeoVM contract code at offset ${neo.length - 21}; ${DEVNET_TEXT}`)
    const wasm = fromHex(sdk.TransactionBuilder.buildWasmVmInvokeCode(contract, params))
    expect(() => decodeNativeInvoke(wasm)).toThrow(DEVNET_TEXT)
  })
})

describe('native input bytes (§2.5 "native input bytes received by the contract")', () => {
  const amount = '086400000000000000'
  const input = (c: TokenCall) => hex(toNativeInput(decodeNativeInvoke(buildTokenCall(c)).args))

  it('transfer: count, then per state from, to, amount', () => {
    expect(input({ token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 100n }] })).toBe(`0101 14${hex(A)} 14${hex(B)} ${amount}`.replaceAll(' ', ''))
    expect(
      input({
        token: 'gas',
        method: 'transfer',
        v2: false,
        states: [
          { from: A, to: B, amount: 5n },
          { from: B, to: A, amount: 100n },
        ],
      }),
    ).toBe(`0102 14${hex(A)} 14${hex(B)} 0105 14${hex(B)} 14${hex(A)} ${amount}`.replaceAll(' ', ''))
  })

  it('approve, transferFrom, balanceOf, allowance: fields concatenated, no count', () => {
    expect(input({ token: 'main', method: 'approve', v2: false, from: A, to: B, amount: 100n })).toBe(`14${hex(A)}14${hex(B)}${amount}`)
    expect(input({ token: 'gas', method: 'transferFrom', v2: false, sender: A, from: MAIN, to: B, amount: 100n })).toBe(`14${hex(A)}14${hex(MAIN)}14${hex(B)}${amount}`)
    expect(input({ token: 'main', method: 'balanceOf', v2: false, address: A })).toBe(`14${hex(A)}`)
    expect(input({ token: 'gas', method: 'allowance', v2: true, from: A, to: B })).toBe(`14${hex(A)}14${hex(B)}`)
  })

  it('converts each kind of value as BuildParamToNative does', () => {
    expect(hex(toNativeInput(bytes('')))).toBe('00')
    expect(hex(toNativeInput(int(0n)))).toBe('00')
    expect(hex(toNativeInput(int(-1n)))).toBe('01ff')
    expect(hex(toNativeInput(int(128n)))).toBe('028000')
    expect(hex(toNativeInput({ type: 'bool', value: true }))).toBe('01')
    expect(hex(toNativeInput(array()))).toBe('00')
    expect(hex(toNativeInput(struct(array(int(7n)), { type: 'bool', value: false })))).toBe('0101010700')
  })

  it('refuses circular values and nesting deeper than 10', () => {
    const loop: NeoValue = { type: 'array', items: [] }
    if (loop.type === 'array') loop.items.push(loop)
    expect(() => toNativeInput(loop)).toThrow(UnsupportedScriptError)
    let deep: NeoValue = bytes('01')
    for (let i = 0; i < 11; i++) deep = struct(deep)
    expect(() => toNativeInput(deep)).toThrow(/nested deeper than 10/)
  })
})

describe('NeoBytes', () => {
  it("reads little-endian two's complement and accepts trailing zero bytes", () => {
    const cases: [string, bigint][] = [
      ['', 0n],
      ['00', 0n],
      ['6400000000000000', 100n],
      ['80c3c901', 30_000_000n],
      ['ff', -1n],
      ['80', -128n],
      ['8000', 128n],
      ['ffffffffffffffff00', 2n ** 64n - 1n],
    ]
    for (const [h, v] of cases) expect(bigIntFromNeoBytes(fromHex(h))).toBe(v)
  })

  it('writes the minimal form, and reading it back (padded or not) gives the value', () => {
    fc.assert(
      fc.property(fc.bigInt(-(2n ** 130n), 2n ** 130n), fc.nat(8), (value, pad) => {
        const b = neoBytes(value)
        expect(bigIntFromNeoBytes(b)).toBe(value)
        if (b.length > 0) expect(bigIntFromNeoBytes(b.subarray(0, b.length - 1))).not.toBe(value) // minimal: no byte to spare
        if (value >= 0n) expect(bigIntFromNeoBytes(Uint8Array.from([...b, ...new Uint8Array(pad)]))).toBe(value)
      }),
      { numRuns: 500 },
    )
    expect(hex(neoBytes(0n))).toBe('')
    expect(hex(neoBytes(-129n))).toBe('7fff')
  })
})

const address = fc.uint8Array({ minLength: 20, maxLength: 20 })
const tokenCall: fc.Arbitrary<TokenCall> = fc.tuple(fc.constantFrom('main' as const, 'gas' as const), fc.boolean(), fc.nat(8)).chain(([token, v2, kind]) => {
  const amount = fc.oneof(fc.constantFrom(0n, 1n, 15n, 16n, 2n ** 64n - 1n), fc.bigInt(0n, v2 ? 2n ** 100n : 2n ** 64n - 1n))
  switch (kind) {
    case 0:
      return fc.array(fc.record({ from: address, to: address, amount }), { maxLength: 18 }).map((states): TokenCall => ({ token, method: 'transfer', v2, states }))
    case 1:
      return fc.record({ from: address, to: address, amount }).map((r): TokenCall => ({ token, method: 'approve', v2, ...r }))
    case 2:
      return fc.record({ sender: address, from: address, to: address, amount }).map((r): TokenCall => ({ token, method: 'transferFrom', v2, ...r }))
    case 3:
      return address.map((a): TokenCall => ({ token, method: 'balanceOf', v2, address: a }))
    case 4:
      return fc.record({ from: address, to: address }).map((r): TokenCall => ({ token, method: 'allowance', v2, ...r }))
    case 5:
    case 6:
      return fc.constant<TokenCall>({ token, method: kind === 5 ? 'name' : 'symbol', v2: false })
    default:
      return fc.constant<TokenCall>({ token, method: kind === 7 ? 'decimals' : 'totalSupply', v2 })
  }
})

describe('round trips', () => {
  it('decode(build(call)) gives the call back', () => {
    fc.assert(
      fc.property(tokenCall, (c) => void expect(call(buildTokenCall(c))).toEqual(c)),
      { numRuns: 1000 },
    )
  })

  it('decodes any built tree of byte arrays, structs and arrays to the same tree', () => {
    const tree = fc.letrec<{ value: NeoValue }>((tie) => ({
      value: fc.oneof(
        { maxDepth: 5, depthSize: 'small', withCrossShrink: true },
        fc.uint8Array({ maxLength: 300 }).map(bytes),
        fc.array(tie('value'), { maxLength: 4 }).map((items): NeoValue => ({ type: 'struct', items })),
        fc.array(tie('value'), { maxLength: 20 }).map((items): NeoValue => ({ type: 'array', items })),
      ),
    })).value
    fc.assert(
      fc.property(tree, fc.string({ unit: fc.constantFrom(...'abcXYZ019_'), minLength: 1, maxLength: 80 }), (args, method) => {
        // PUSH0 pushes an empty byte array; every other byte array comes back as it went.
        expect(decodeNativeInvoke(buildNativeInvoke(GAS, method, args))).toEqual({ contract: GAS, method, version: 0, args })
      }),
      { numRuns: 300 },
    )
  })

  it('pushes integers the way the SDK does and reads them back', () => {
    const pushed = (v: bigint) => hex(buildNativeInvoke(MAIN, 'm', int(v))).slice(0, -TAIL.length - 46)
    expect([0n, -1n, 1n, 15n, 16n, 100n].map(pushed)).toEqual(['00', '4f', '51', '5f', '081000000000000000', '086400000000000000'])
    fc.assert(
      fc.property(fc.bigInt(-(2n ** 200n), 2n ** 200n), (v) => {
        const { args } = decodeNativeInvoke(buildNativeInvoke(MAIN, 'm', int(v)))
        expect(args.type === 'int' ? args.value : args.type === 'bytes' ? bigIntFromNeoBytes(args.value) : undefined).toBe(v)
      }),
      { numRuns: 300 },
    )
  })
})

describe('refusals', () => {
  const transferOf = (amount: bigint, v2 = false) => buildTokenCall({ token: 'main', method: 'transfer', v2, states: [{ from: A, to: B, amount }] })

  it('refuses NeoVM code, other syscalls, unknown opcodes and malformed scripts with the devnet message', () => {
    const refusals: [string, RegExp][] = [
      [`67${'11'.repeat(20)}`, /^unsupported invocation script: APPCALL \(0x67\), a call to NeoVM contract code at offset 0; /],
      [`69${'11'.repeat(20)}`, /TAILCALL/],
      [`00${hex(buildNativeInvoke(MAIN, 'transfer', bytes(''))).slice(2, -46)}144f6e746f6c6f67792e52756e74696d652e4c6f67`, /SYSCALL "Ontology\.Runtime\.Log"/],
      ['5193', /opcode 0x93/],
      ['66', /opcode 0x66 \(RET\)/],
      ['4e ffffffff 00'.replaceAll(' ', ''), /a push of 4294967295 bytes past the end/],
      ['14 0102'.replaceAll(' ', ''), /past the end/],
      [TAIL.slice(2), /stack underflow \(invoke version\)/],
      [TAIL, /stack underflow \(invoke contract\)/],
      [`14${hex(MAIN)}${TAIL}`, /stack underflow \(invoke method\)/],
      ['', /ends without SYSCALL/],
      ['00c66b', /ends without SYSCALL/],
      ['6c', /FROMALTSTACK with an empty alt stack/],
      ['6a', /DUPFROMALTSTACK with an empty alt stack/],
      ['51c6', /NEWSTRUCT with fields/],
      ['0051c8', /APPEND to a bytes value/],
      ['55c1', /PACK of 5 items with 0 on the stack/],
      [`${hex(transferOf(1n))}${hex(transferOf(2n))}`, /bytes after the native invoke \(a script makes exactly one native call\)/],
      [`${hex(transferOf(1n))}00`, /1 bytes after the native invoke/],
      [`00 087472616e73666572 13${hex(MAIN).slice(2)} ${TAIL}`.replaceAll(' ', ''), /the invoke contract is 19 bytes, not a 20-byte address/],
      [`00 0268ff 14${hex(MAIN)} ${TAIL}`.replaceAll(' ', ''), /method name "h\?" is not ASCII/],
    ]
    for (const [code, message] of refusals) {
      expect(() => decodeNativeInvoke(script(code)), code).toThrow(message)
      expect(() => decodeNativeInvoke(script(code)), code).toThrow(DEVNET_TEXT)
    }
  })

  it('refuses values the node would not serialise: cycles, deep nesting, runaway sharing, too many stack items', () => {
    const tail = hex(buildNativeInvoke(MAIN, 'transfer', bytes(''))).slice(2)
    // An empty array appended to itself: [a] where a contains a.
    expect(() => decodeNativeInvoke(script(`00c1 6b 6a6a c8 6c ${tail}`.replaceAll(' ', '')))).toThrow(/circular reference|nested deeper/)
    // PUSH1 PACK wraps the top value in an array: 10 levels are fine, 11 are not.
    expect(decodeNativeInvoke(script(`00c1${'51c1'.repeat(10)}${tail}`)).method).toBe('transfer')
    expect(() => decodeNativeInvoke(script(`00c1${'51c1'.repeat(11)}${tail}`))).toThrow(/nested deeper than 10/)
    // Each level packs 16 references to the previous value: 16^9 leaves from 172 bytes.
    const sharing = `00${`6b${'6a'.repeat(16)}60c1`.repeat(9)}`
    expect(() => decodeNativeInvoke(script(`${sharing}${tail}`))).toThrow(/arguments larger than the script/)
    expect(() => decodeNativeInvoke(script(`00c66b${'6a'.repeat(5000)}${tail}`))).toThrow(/more than 2048 stack items/)
  })

  it('refuses other native contracts and unknown methods, naming them', () => {
    const ontId = fromHex('0000000000000000000000000000000000000003')
    expect(() => call(buildNativeInvoke(ontId, 'regIDWithPublicKey', bytes(A)))).toThrow(/^unsupported invocation script: a call to native contract 0{38}03 \(ONT ID\); only the main token/)
    expect(() => call(buildNativeInvoke(MAIN, 'init', bytes('')))).toThrow(/method "init" of the main token \(supported: transfer, transferV2, /)
    expect(() => call(buildNativeInvoke(GAS, 'totalAllowance', bytes(A)))).toThrow(UnsupportedScriptError)
    expect(() => call(buildNativeInvoke(GAS, 'nameV2', bytes('')))).toThrow(/method "nameV2"/)
    expect(() => call(buildNativeInvoke(GAS, 'constructor', bytes('')))).toThrow(/method "constructor"/)
  })

  it('refuses arguments the token contract cannot decode, with InvalidTokenCallError', () => {
    const refusals: [Uint8Array, RegExp][] = [
      [
        transferOf(-5n),
        /^invalid main-token transfer call: states\[0\]\.amount is negative \(-5\); expected arguments Array\[Struct\(from, to, amount\), …\], got Array\[Struct\(bytes\[20\], bytes\[20\], bytes\[8\]\)\]$/,
      ],
      [transferOf(2n ** 64n), /states\[0\]\.amount 18446744073709551616 does not fit in u64/],
      [transferOf(-(2n ** 70n), true), /invalid main-token transferV2 call: states\[0\]\.amount is negative/],
      [buildNativeInvoke(MAIN, 'transfer', struct(bytes(A), bytes(B), int(1n))), /got Struct\(bytes\[20\], bytes\[20\], int\)/],
      [buildNativeInvoke(MAIN, 'transfer', array(struct(bytes(A), bytes(B)))), /states\[0\]\.amount is missing/],
      [buildNativeInvoke(GAS, 'approve', struct(bytes(A), bytes(B))), /invalid gas-token approve call: amount is missing/],
      [buildNativeInvoke(GAS, 'approveV2', struct(bytes(A), bytes(B), int(-1n))), /amount is negative \(-1\)/],
      [buildNativeInvoke(GAS, 'transferFrom', struct(bytes(A), bytes(B), int(1n))), /to is 1 bytes, not a 20-byte address/],
      [buildNativeInvoke(MAIN, 'balanceOf', bytes(A.subarray(1))), /address is 19 bytes, not a 20-byte address/],
      [buildNativeInvoke(MAIN, 'balanceOfV2', int(5n)), /address is 1 bytes/],
      [buildNativeInvoke(MAIN, 'allowance', bytes(A)), /to is missing/],
      [buildNativeInvoke(MAIN, 'allowance', struct(bytes(A), bytes(new Uint8Array(300)))), /to is 300 bytes/],
    ]
    for (const [code, message] of refusals) {
      expect(() => call(code), hex(code)).toThrow(InvalidTokenCallError)
      expect(() => call(code), hex(code)).toThrow(message)
    }
  })

  it('accepts what the node accepts: amounts with trailing zeros, minimal pushes, V2 amounts above u64, no states, query arguments ignored', () => {
    const withAmount = (push: string) => `00c66b14${hex(A)}6a7cc814${hex(B)}6a7cc8${push}6a7cc86c51c1${hex(buildNativeInvoke(MAIN, 'transfer', bytes(''))).slice(2)}`
    for (const push of ['0164', '0a64000000000000000000', '4c0164']) {
      expect(call(withAmount(push)), push).toEqual({ token: 'main', method: 'transfer', v2: false, states: [{ from: A, to: B, amount: 100n }] })
    }
    expect(call(transferOf(2n ** 80n, true))).toEqual({ token: 'main', method: 'transfer', v2: true, states: [{ from: A, to: B, amount: 2n ** 80n }] })
    expect(call(buildNativeInvoke(GAS, 'transfer', array()))).toEqual({ token: 'gas', method: 'transfer', v2: false, states: [] })
    expect(call(buildNativeInvoke(GAS, 'decimalsV2', struct(int(9n))))).toEqual({ token: 'gas', method: 'decimals', v2: true })
    // Values left below the arguments are ignored, as the node ignores them.
    expect(call(`51${hex(transferOf(3n))}`)).toEqual(call(transferOf(3n)))
    // The version's low byte is kept (the node's byte(version)).
    const v = decodeNativeInvoke(buildNativeInvoke(MAIN, 'name', bytes(''), 0x1ff))
    expect(v.version).toBe(0xff)
  })
})

describe('fuzzing', () => {
  const valid = [
    buildTokenCall({
      token: 'gas',
      method: 'transfer',
      v2: false,
      states: [
        { from: A, to: B, amount: 123456789n },
        { from: B, to: A, amount: 7n },
      ],
    }),
    buildTokenCall({ token: 'gas', method: 'transferFrom', v2: true, sender: A, from: MAIN, to: B, amount: 10n ** 20n }),
    buildTokenCall({ token: 'main', method: 'allowance', v2: false, from: A, to: B }),
    buildTokenCall({ token: 'main', method: 'balanceOf', v2: false, address: A }),
  ]
  const mutated = fc
    .tuple(fc.constantFrom(...valid), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'delete')), { minLength: 1, maxLength: 4 }), fc.nat(30))
    .map(([base, edits, cut]) => {
      let b = [...base]
      for (const [pos, value, kind] of edits) {
        const at = pos % (b.length + 1)
        if (kind === 'set' && at < b.length) b[at] = value
        else if (kind === 'insert') b.splice(at, 0, value)
        else b.splice(at, 1)
      }
      if (cut % 3 === 0) b = b.slice(0, Math.max(0, b.length - cut))
      return Uint8Array.from(b)
    })
  /** Sequences of the opcodes the decoder knows, then the invoke tail: reaches deep machine states. */
  const ops = fc
    .array(
      fc.oneof(
        fc.constantFrom('00', '4f', '51', '52', '55', '60', 'c6', '6b', '6a', '6c', '7c', 'c8', 'c1', '00c66b', '6a7cc8'),
        address.map((a) => `14${hex(a)}`),
        fc.bigInt(0n, 2n ** 70n).map((v) => `08${hex(neoBytes(v)).padEnd(16, '0').slice(0, 16)}`),
      ),
      { maxLength: 60 },
    )
    .chain((parts) => fc.constantFrom(...['transfer', 'approveV2', 'balanceOf', 'transferFrom', 'allowance'].map((m) => fromHex(parts.join('') + hex(buildNativeInvoke(GAS, m, bytes(''))).slice(2)))))

  const outcome = (code: Uint8Array): 'call' | 'invoke' | 'refused' => {
    let invoke: NativeInvoke
    try {
      invoke = decodeNativeInvoke(code)
    } catch (err) {
      if (!(err instanceof UnsupportedScriptError)) throw err
      expect(err.message).toContain(DEVNET_TEXT)
      return 'refused'
    }
    expect(invoke.contract).toHaveLength(20)
    toNativeInput(invoke.args)
    try {
      decodeTokenCall(invoke)
      return 'call'
    } catch (err) {
      if (!(err instanceof UnsupportedScriptError)) throw err
      return 'invoke'
    }
  }

  it('random bytes, mutated scripts and opcode soups give a NativeInvoke or a named error (3 x 5,000 runs)', () => {
    const seen = { call: 0, invoke: 0, refused: 0 }
    for (const source of [fc.uint8Array({ maxLength: 400 }), mutated, ops]) {
      fc.assert(
        fc.property(source, (code) => void seen[outcome(code)]++),
        { numRuns: 5000 },
      )
    }
    // The fuzz reaches every outcome, not just the first refusal.
    expect(seen.call).toBeGreaterThan(100)
    expect(seen.invoke).toBeGreaterThan(10)
    expect(seen.refused).toBeGreaterThan(1000)
  })

  // No wall-clock assertion (the machine may be busy): a parser that went quadratic on
  // these inputs would take minutes, and the test's own 30 s timeout catches that.
  it('stays linear on large hostile scripts', () => {
    const hostile = [
      fromHex(`4e00001000${'00'.repeat(0x100000)}`), // a 1 MiB push, then no invoke
      fromHex(`${'00c1'.repeat(1000)}${'6b'.repeat(1000)}`), // 1000 arrays to the alt stack
      fromHex(`00c66b${'516a7cc8'.repeat(1023)}6c${hex(buildNativeInvoke(MAIN, 'transfer', bytes(''))).slice(2)}`), // 1023-field struct
      fromHex(`00c1${'6b6c'.repeat(40_000)}`), // alt-stack traffic
    ]
    for (const code of hostile) expect(['call', 'invoke', 'refused']).toContain(outcome(code))
  })
})
