/**
 * eth_signTypedData_v3 and eth_signTypedData: signed as eth_signTypedData_v4 where the
 * encodings agree (checked against viem's local-account EIP-712 signature), refused
 * with -32602 where they do not (v3 arrays and missing fields, the v1 array form).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet
let rpcUrl: string
let from: string
let privateKey: `0x${string}`

const typed = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Mailer', chainId: 1 },
  message: { from: { name: 'Cow', wallet: `0x${'cd'.repeat(20)}` }, contents: 'Hello' },
} as const

beforeAll(async () => {
  devnet = await createDevnet({ chainId: 12345, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  from = devnet.accounts[0]!.address
  privateKey = devnet.accounts[0]!.privateKey as `0x${string}`
})

afterAll(async () => {
  await devnet?.close()
})

async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as never
}

describe('typed data under the older names', () => {
  it('v3 and the bare name sign as v4 and as viem signs', async () => {
    const expected = await privateKeyToAccount(privateKey).signTypedData(typed as never)
    expect(await devnet.rpc('eth_signTypedData_v4', [from, typed])).toBe(expected)
    expect(await devnet.rpc('eth_signTypedData_v3', [from, typed])).toBe(expected)
    expect(await devnet.rpc('eth_signTypedData', [from, JSON.stringify(typed)])).toBe(expected)
    expect((await overHttp('eth_signTypedData_v3', [from, JSON.stringify(typed)])).result).toBe(expected)
  })

  it('v3 refuses an array member and a missing field, naming them', async () => {
    const withArray = { ...typed, types: { ...typed.types, Mail: [...typed.types.Mail, { name: 'cc', type: 'Person[]' }] }, message: { ...typed.message, cc: [] } }
    const arrays = await overHttp('eth_signTypedData_v3', [from, withArray])
    expect(arrays.error?.code).toBe(-32602)
    expect(arrays.error?.message).toMatch(/Mail\.cc: Person\[\]/)
    const missing = await overHttp('eth_signTypedData_v3', [from, { ...typed, message: { from: { name: 'Cow' }, contents: 'Hello' } }])
    expect(missing.error?.code).toBe(-32602)
    expect(missing.error?.message).toMatch(/message\.from\.wallet is missing/)
  })

  it('the bare name refuses the v1 array form', async () => {
    const v1 = await overHttp('eth_signTypedData', [from, [{ type: 'string', name: 'greeting', value: 'hi' }]])
    expect(v1.error?.code).toBe(-32602)
    expect(v1.error?.message).toMatch(/v1 typed-data array/)
  })
})
