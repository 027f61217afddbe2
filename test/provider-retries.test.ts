/**
 * Reverts through a plain viem `custom(devnet)` transport, viem's default retries on
 * (what hardhat-viem and other EIP-1193 wrappers build), cost one provider call each:
 * the in-process provider answers a revert in a shape viem does not retry
 * (src/devnet/providerErrors.ts toProviderError), and viem still decodes the reason.
 * Counts the provider's calls; times nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BaseError, ContractFunctionRevertedError, createPublicClient, custom, encodeFunctionData, type Abi, type Address, type EIP1193RequestFn } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { dualnetChain } from '../src/viem.ts'
import { Reverter } from '../fixtures/index.ts'

let devnet: Devnet
let reverter: Address
let from: Address
const calls: string[] = []

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1 })
  from = devnet.accounts[0]!.address as Address
  const deploy = await devnet.rpc('eth_sendTransaction', [{ from, data: Reverter.bytecode, gasPrice: '0x3b9aca00' }])
  reverter = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: Address }).contractAddress
})
afterAll(() => devnet.close())
beforeEach(() => {
  calls.length = 0
})

/** A viem client over a plain custom() transport whose provider records each method it is asked. */
function client() {
  const provider = {
    request: ((args: { method: string; params?: unknown }) => {
      calls.push(args.method)
      return devnet.request(args as never)
    }) as EIP1193RequestFn,
  }
  return createPublicClient({ chain: dualnetChain(undefined, { id: devnet.chainId }), transport: custom(provider) })
}

/** The reason viem decoded from `send`'s failure. */
async function reasonOf(send: Promise<unknown>): Promise<string | undefined> {
  const err = await send.then(
    () => expect.unreachable('should revert'),
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(BaseError)
  const revert = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
  return (revert as ContractFunctionRevertedError | null)?.reason
}

describe('reverts through custom(devnet) with viem retries on', () => {
  it('readContract: one eth_call, the reason decoded', async () => {
    expect(await reasonOf(client().readContract({ address: reverter, abi: Reverter.abi as Abi, functionName: 'revertWithReason' }))).toBe('Reverter: always fails')
    expect(calls.filter((m) => m === 'eth_call')).toHaveLength(1)
  })

  it('simulateContract: one eth_call, the reason decoded', async () => {
    expect(await reasonOf(client().simulateContract({ account: from, address: reverter, abi: Reverter.abi as Abi, functionName: 'setAndRevert', args: [1n] }))).toBeDefined()
    expect(calls.filter((m) => m === 'eth_call')).toHaveLength(1)
  })

  it('call and estimateGas: one request each', async () => {
    const data = encodeFunctionData({ abi: Reverter.abi as Abi, functionName: 'revertWithReason' })
    await expect(client().call({ to: reverter, data })).rejects.toThrow(/Reverter: always fails/)
    await expect(client().estimateGas({ account: from, to: reverter, data })).rejects.toThrow(/Reverter: always fails/)
    expect(calls.filter((m) => m === 'eth_call')).toHaveLength(1)
    expect(calls.filter((m) => m === 'eth_estimateGas')).toHaveLength(1)
  })

  it('devnet.rpc still answers EIP-1474 code 3 with the data; devnet.request -32000 with the same data', async () => {
    const data = encodeFunctionData({ abi: Reverter.abi as Abi, functionName: 'revertWithReason' })
    const viaRpc = (await devnet.rpc('eth_call', [{ to: reverter, data }, 'latest']).catch((e: unknown) => e)) as { code: number; data: string }
    const viaRequest = (await devnet.request({ method: 'eth_call', params: [{ to: reverter, data }, 'latest'] }).catch((e: unknown) => e)) as { code: number; data: string; cause: { code: number } }
    expect(viaRpc.code).toBe(3)
    expect(viaRequest).toMatchObject({ code: -32000, data: viaRpc.data, cause: { code: 3 } })
  })
})
