/**
 * eth_createAccessList (go-ethereum's AccessListResult) on the Istanbul devnet: the
 * slots a call reads and writes, the addresses its code touches, gasUsed equal to
 * eth_estimateGas's run, and the error of a failed call; in process, over HTTP and
 * through viem's createAccessList.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, Wallet, getCreateAddress } from 'ethers'
import { createPublicClient, http } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, Store } from '../fixtures/index.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const store = new Interface(Store.abi as never)
const reverter = new Interface(Reverter.abi as never)
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

let devnet: Devnet
let rpcUrl: string
let from: string
let storeAddress: string
let reverterAddress: string

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  from = wallet.address.toLowerCase()
  for (const [nonce, bytecode] of [Store.bytecode, Reverter.bytecode].entries())
    await devnet.rpc('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce, gasPrice: GWEI, gasLimit: 3_000_000n, data: bytecode })])
  storeAddress = getCreateAddress({ from, nonce: 0 }).toLowerCase()
  reverterAddress = getCreateAddress({ from, nonce: 1 }).toLowerCase()
})

afterAll(async () => {
  await devnet?.close()
})

describe('eth_createAccessList', () => {
  it('lists the slot a call reads and writes, with the gas the call uses', async () => {
    const call = { from, to: storeAddress, data: store.encodeFunctionData('increment') }
    const answer = await devnet.rpc('eth_createAccessList', [call, 'latest'])
    expect(answer).toEqual({ accessList: [{ address: storeAddress, storageKeys: [slot(0)] }], gasUsed: await devnet.rpc('eth_estimateGas', [call]) })
  })

  it('a mapping entry: its keccak slot', async () => {
    const call = { from, to: storeAddress, data: store.encodeFunctionData('setEntry', [7, `0x${'11'.repeat(32)}`]) }
    const { accessList } = await devnet.rpc('eth_createAccessList', [call])
    expect(accessList).toHaveLength(1)
    expect(accessList[0]!.storageKeys).toHaveLength(1)
    expect(accessList[0]!.storageKeys[0]).not.toBe(slot(0))
  })

  it('a plain transfer touches nothing; the sender and recipient are left out', async () => {
    const answer = await devnet.rpc('eth_createAccessList', [{ from, to: `0x${'ab'.repeat(20)}`, value: '0x1' }])
    expect(answer).toEqual({ accessList: [], gasUsed: '0x5208' })
  })

  it('a failed call answers its error beside the list', async () => {
    const answer = await devnet.rpc('eth_createAccessList', [{ from, to: reverterAddress, data: reverter.encodeFunctionData('revertWithReason') }])
    expect(answer.error).toBe('execution reverted')
    expect(answer.gasUsed).toMatch(/^0x[1-9a-f]/)
  })

  it('over HTTP and through viem createAccessList', async () => {
    const call = { from, to: storeAddress, data: store.encodeFunctionData('increment') }
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_createAccessList', params: [call, 'latest'] }),
    })
    const { result } = (await response.json()) as { result: { accessList: unknown } }
    expect(result.accessList).toEqual([{ address: storeAddress, storageKeys: [slot(0)] }])
    const client = createPublicClient({ transport: http(rpcUrl) })
    const viaViem = await client.createAccessList({ account: from as `0x${string}`, to: storeAddress as `0x${string}`, data: call.data as `0x${string}` })
    expect(viaViem.accessList).toEqual([{ address: storeAddress, storageKeys: [slot(0)] }])
    expect(viaViem.gasUsed).toBeGreaterThan(21_000n)
  })

  it('a block that is not a block is refused with -32602', async () => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_createAccessList', params: [{ from }, 'nonsense'] }),
    })
    const { error } = (await response.json()) as { error: { code: number } }
    expect(error.code).toBe(-32602)
  })
})
