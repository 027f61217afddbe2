/**
 * The page's decoding of calls, logs and revert data (src/explorer/page/abi.ts, names.ts)
 * against the server's artifacts (src/explorer/artifacts.ts over fixtures/artifacts):
 * the address's own contract first, then any artifact with the selector (for logs after
 * ERC-20's events), Solidity's built-in errors; encoded by ethers, so the decoder is checked
 * against another implementation of the ABI.
 */
import { AbiCoder, Interface, id } from 'ethers'
import { describe, expect, it } from 'vitest'
import { Reverter, Token, TraceCallee } from '../fixtures/index.ts'
import type { ExplorerAbiItem } from '../src/explorer/api/contractTypes.ts'
import { ExplorerArtifacts } from '../src/explorer/artifacts.ts'
import { type Decoded, decodedText, decodeLog, decodeReturn, valueText } from '../src/explorer/page/abi.ts'
import { type ArtifactLookup, ContractNames } from '../src/explorer/page/names.ts'
import { fromHex } from '../src/util/hex.ts'

const TOKEN_AT = `0x${'a1'.repeat(20)}`
const REVERTER_AT = `0x${'a2'.repeat(20)}`
const UNKNOWN_AT = `0x${'a3'.repeat(20)}`
const ALICE = `0x${'11'.repeat(20)}`
const BOB = `0x${'22'.repeat(20)}`

const artifacts = new ExplorerArtifacts(['fixtures/artifacts'])
const codes = new Map([
  [TOKEN_AT, Token.deployedBytecode],
  [REVERTER_AT, Reverter.deployedBytecode],
])
/** The API's answers as the server gives them, for a chain where Token and Reverter are deployed. */
const lookup: ArtifactLookup = {
  contract: (address) => artifacts.contractOf(fromHex(codes.get(address) ?? '0x')),
  signatures: (selector) => artifacts.signature(selector),
}
const none: ArtifactLookup = { contract: async () => null, signatures: async () => [] }

const token = new Interface(Token.abi as never)
const reverter = new Interface(Reverter.abi as never)
const callee = new Interface(TraceCallee.abi as never)
const text = (d: Decoded | undefined) => (d === undefined ? undefined : decodedText(d))

describe('ContractNames', () => {
  it("decodes a call by the contract's own function, else by any artifact's with the selector", async () => {
    const names = new ContractNames(lookup)
    const input = token.encodeFunctionData('transfer', [BOB, 1234n])
    expect(await names.call(TOKEN_AT, input)).toMatchObject({ name: 'transfer', via: 'contract', from: 'contracts/Token.sol:Token' })
    expect(text(await names.call(TOKEN_AT, input))).toBe(`transfer(to ${BOB}, amount 1234)`)
    const elsewhere = await names.call(UNKNOWN_AT, input)
    expect(elsewhere).toMatchObject({ name: 'transfer', via: 'selector', from: expect.stringMatching(/Token\.sol:/) })
    // Its item decodes what the call returned.
    const { item } = (await names.call(TOKEN_AT, input))!
    expect(decodeReturn(item!, token.encodeFunctionResult('transfer', [true]))).toEqual([{ name: '', type: 'bool', value: 'true' }])
    expect(decodeReturn(item!, '0x')).toBeUndefined()
    expect(decodeReturn(item!, '0x1234')).toBeUndefined()
    expect(await names.call(UNKNOWN_AT, '0x12345678')).toBeUndefined()
    expect(await names.call(TOKEN_AT, '0x')).toBeUndefined()
    expect((await names.contract(TOKEN_AT.toUpperCase().replace('0X', '0x')))?.name).toBe('contracts/Token.sol:Token')
  })

  it('decodes a log by the emitter, else by any artifact, else as an ERC-20 event', async () => {
    const transfer = token.encodeEventLog('Transfer', [ALICE, BOB, 5n])
    const names = new ContractNames(lookup)
    expect(await names.log(TOKEN_AT, transfer.topics, transfer.data)).toMatchObject({ via: 'contract' })
    expect(text(await names.log(TOKEN_AT, transfer.topics, transfer.data))).toBe(`Transfer(from ${ALICE}, to ${BOB}, value 5)`)
    const pinged = callee.encodeEventLog('Pinged', [ALICE, 777n])
    const byIndex = await names.log(UNKNOWN_AT, pinged.topics, pinged.data)
    expect(byIndex).toMatchObject({ via: 'selector', from: 'contracts/TraceCalls.sol:TraceCallee' })
    expect(text(byIndex)).toBe(`Pinged(from ${ALICE}, value 777)`)
    // ERC-20's Transfer of an emitter the artifacts do not name: the standard, not whichever artifact declares it.
    expect(await names.log(UNKNOWN_AT, transfer.topics, transfer.data)).toMatchObject({ via: 'standard' })
    const standard = await new ContractNames(none).log(UNKNOWN_AT, transfer.topics, transfer.data)
    expect(standard).toMatchObject({ via: 'standard' })
    expect(text(standard)).toBe(`Transfer(from ${ALICE}, to ${BOB}, value 5)`)
    expect(await new ContractNames(none).log(UNKNOWN_AT, pinged.topics, pinged.data)).toBeUndefined()
    expect(await names.log(UNKNOWN_AT, [], '0x')).toBeUndefined()
  })

  it("decodes revert data as the contract's custom error, and as Error(string) and Panic(uint256)", async () => {
    const names = new ContractNames(lookup)
    const unauthorized = reverter.encodeErrorResult('Unauthorized', [ALICE, 7n])
    expect(await names.revert(REVERTER_AT, unauthorized)).toMatchObject({ via: 'contract', from: 'contracts/Reverter.sol:Reverter' })
    expect(text(await names.revert(REVERTER_AT, unauthorized))).toBe(`Unauthorized(caller ${ALICE}, code 7)`)
    expect(await names.revert(UNKNOWN_AT, unauthorized)).toMatchObject({ via: 'selector' })
    const reason = `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], ['Reverter: always fails']).slice(2)}`
    expect(text(await names.revert(REVERTER_AT, reason))).toBe('Error(Reverter: always fails)')
    const panic = `0x4e487b71${AbiCoder.defaultAbiCoder().encode(['uint256'], [0x12]).slice(2)}`
    expect(await names.revert(REVERTER_AT, panic)).toMatchObject({ name: 'Panic', via: 'builtin' })
    expect(text(await names.revert(REVERTER_AT, panic))).toMatch(/^Panic\(18: .*division or modulo by zero/)
    expect(await names.revert(REVERTER_AT, '0x')).toBeUndefined()
    expect(await names.revert(REVERTER_AT, '0xdeadbeef')).toBeUndefined()
  })

  it('asks the API once per address and selector, and counts a failed read as none', async () => {
    let asked = 0
    const names = new ContractNames({
      contract: async () => {
        asked++
        throw new Error('offline')
      },
      signatures: async () => [],
    })
    expect(await names.contract(TOKEN_AT)).toBeNull()
    expect(await names.contract(TOKEN_AT)).toBeNull()
    expect(asked).toBe(1)
  })
})

describe('decodeLog and valueText', () => {
  it('shows an indexed string as its hash, and tuples, arrays, bytes and booleans as text', () => {
    const item: ExplorerAbiItem = {
      type: 'event',
      name: 'Named',
      signature: 'Named(string,(uint256,bool),bytes)',
      selector: id('Named(string,(uint256,bool),bytes)'),
      inputs: [
        { name: 'label', type: 'string', indexed: true },
        {
          name: 'pair',
          type: 'tuple',
          components: [
            { name: 'n', type: 'uint256' },
            { name: 'ok', type: 'bool' },
          ],
        },
        { name: 'blob', type: 'bytes' },
      ],
    }
    const data = AbiCoder.defaultAbiCoder().encode(['(uint256,bool)', 'bytes'], [[3n, true], '0xbeef'])
    const decoded = decodeLog(item, [item.selector, id('hello')], data)
    expect(text(decoded)).toBe(`Named(label ${id('hello')} (hashed), pair {n 3, ok true}, blob 0xbeef)`)
    // One topic short: not this event.
    expect(decodeLog(item, [item.selector], data)).toBeUndefined()
    expect(valueText([1n, [2n, 3n]])).toBe('[1, [2, 3]]')
  })
})
