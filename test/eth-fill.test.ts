/**
 * eth_fillTransaction: go-ethereum's SignTransactionResult without a signature, the
 * request completed as eth_sendTransaction completes it; its raw RLP decodes (ethers,
 * @ethereumjs/rlp) to the fields of `tx`, and signing those fields gives what
 * eth_signTransaction gives. In process and over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RLP } from '@ethereumjs/rlp'
import { Transaction, keccak256 } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'

const STRANGER = `0x${'ab'.repeat(20)}`

let devnet: Devnet
let rpcUrl: string
let from: string

beforeAll(async () => {
  devnet = await createDevnet({ chainId: 12345, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  from = devnet.accounts[0]!.address
})

afterAll(async () => {
  await devnet?.close()
})

describe('eth_fillTransaction', () => {
  it('fills nonce, gas price and gas, and answers the unsigned RLP with its JSON', async () => {
    const { raw, tx } = await devnet.rpc('eth_fillTransaction', [{ from, to: STRANGER, value: '0x5', data: '0x1234' }])
    expect(tx).toEqual({
      type: '0x0',
      nonce: await devnet.rpc('eth_getTransactionCount', [from, 'pending']),
      gasPrice: await devnet.rpc('eth_gasPrice'),
      gas: await devnet.rpc('eth_estimateGas', [{ from, to: STRANGER, value: '0x5', data: '0x1234' }]),
      to: STRANGER,
      value: '0x5',
      input: '0x1234',
      v: '0x0',
      r: '0x0',
      s: '0x0',
      hash: keccak256(raw),
    })
    const fields = RLP.decode(Buffer.from(raw.slice(2), 'hex')) as Uint8Array[]
    expect(fields).toHaveLength(9)
    expect(fields.slice(6).every((f) => f.length === 0)).toBe(true)
    const parsed = Transaction.from(raw)
    expect(parsed.to?.toLowerCase()).toBe(STRANGER)
    expect(parsed.value).toBe(5n)
    expect(parsed.gasLimit).toBe(BigInt(tx.gas))
    expect(parsed.signature).toBeNull()
  })

  it('signing the filled fields gives eth_signTransaction’s transaction', async () => {
    const request = { from, to: STRANGER, value: '0x5' }
    const { tx } = await devnet.rpc('eth_fillTransaction', [request])
    const signed = await devnet.rpc('eth_signTransaction', [{ ...request, nonce: tx.nonce, gas: tx.gas, gasPrice: tx.gasPrice }])
    const parsed = Transaction.from(signed)
    expect([parsed.nonce, parsed.gasLimit, parsed.gasPrice, parsed.value]).toEqual([Number(tx.nonce), BigInt(tx.gas), BigInt(tx.gasPrice), 5n])
  })

  it('a creation has to null; over HTTP; a request without from is -32602', async () => {
    const post = async (params: unknown[]) =>
      (await (
        await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_fillTransaction', params }) })
      ).json()) as {
        result?: { tx: { to: unknown } }
        error?: { code: number }
      }
    expect((await post([{ from, data: '0x600160005260206000f3' }])).result?.tx.to).toBeNull()
    expect((await post([{ to: STRANGER }])).error?.code).toBe(-32602)
  })
})
