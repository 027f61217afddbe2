/**
 * Forking Anvil (docs/fork.md): a plain EVM node, so the EVM view only. A contract
 * deployed on Anvil, balances and storage read through the fork equal Anvil's; local
 * transactions change only the fork; a change on Anvil after a value was read is not
 * seen; the native state says it is not forked. The anvil binary: $ANVIL, or the one
 * test/foundry-support.ts installs. Run by `npm run test:tools` (vitest.tools.config.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { startAnvil, type Anvil } from './anvil-support.ts'

const HOLDER = '0x00000000000000000000000000000000c0ffee41'
const token = new Interface(Token.abi as InterfaceAbi)

let anvil: Anvil | undefined
let tokenAddress: string

/** One JSON-RPC call to Anvil. */
const anvilRpc = (method: string, params: unknown[] = []): Promise<unknown> => anvil!.rpc(method, params)

describe('fork of Anvil (EVM view only)', () => {
  let fork: Devnet
  beforeAll(async () => {
    // $ANVIL: a binary at hand; otherwise the one test/foundry-support.ts installs once (test/anvil-support.ts).
    anvil = await startAnvil()
    const [from] = (await anvilRpc('eth_accounts')) as string[]
    const data = Token.bytecode + token.encodeDeploy(['Anvil', 'ANV', 1_000_000n]).slice(2)
    const hash = await anvilRpc('eth_sendTransaction', [{ from, data, gas: '0x4c4b40' }])
    tokenAddress = (await anvil.receipt(hash)).contractAddress!
    await anvil.receipt(await anvilRpc('eth_sendTransaction', [{ from, to: tokenAddress, data: token.encodeFunctionData('transfer', [HOLDER, 300n]), gas: '0x186a0' }]))
    await anvilRpc('anvil_setBalance', [HOLDER, '0x1bc16d674ec80000'])
    fork = await createDevnet({ fork: { url: anvil.url }, console: false })
  }, 120_000)

  afterAll(async () => {
    await fork?.close()
    anvil?.close()
  })

  it("takes Anvil's chain id and continues its chain", async () => {
    expect(fork.chainId).toBe(31337)
    const head = (await anvilRpc('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string }
    expect(await fork.rpc('eth_blockNumber')).toBe(head.number)
    await fork.mine()
    const next = (await fork.rpc('eth_getBlockByNumber', ['latest', false])) as { parentHash: string; number: string }
    expect(next.parentHash).toBe(head.hash)
    expect(BigInt(next.number)).toBe(BigInt(head.number) + 1n)
  })

  it('reads balances, nonces, code, storage and calls as Anvil answers them', async () => {
    const [from] = (await anvilRpc('eth_accounts')) as string[]
    for (const [method, params] of [
      ['eth_getBalance', [HOLDER, 'latest']],
      ['eth_getTransactionCount', [from, 'latest']],
      ['eth_getCode', [tokenAddress, 'latest']],
      ['eth_getStorageAt', [tokenAddress, '0x2', 'latest']],
      ['eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [HOLDER]) }, 'latest']],
    ] as const) {
      // The fork answers for its own latest block, the fork block; Anvil's latest is the same block.
      expect(await fork.rpc(method, [...params] as never)).toBe(await anvilRpc(method, [...params]))
    }
    expect(token.decodeFunctionResult('balanceOf', (await fork.rpc('eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [HOLDER]) }, 'latest'])) as string)[0]).toBe(300n)
  })

  it('runs local transactions on the remote contract, changing only the fork; a later change on Anvil is not seen', async () => {
    const data = token.encodeFunctionData('transfer', [HOLDER, 5n])
    const [from] = (await anvilRpc('eth_accounts')) as [string]
    await fork.rpc('hardhat_impersonateAccount', [from])
    await fork.rpc('eth_sendTransaction', [{ from, to: tokenAddress, data, gas: '0x186a0' }])
    const balanceOf = { to: tokenAddress, data: token.encodeFunctionData('balanceOf', [HOLDER]) }
    expect(BigInt((await fork.rpc('eth_call', [balanceOf, 'latest'])) as string)).toBe(305n)
    expect(BigInt((await anvilRpc('eth_call', [balanceOf, 'latest'])) as string)).toBe(300n)
    await anvilRpc('anvil_setBalance', [HOLDER, '0x1'])
    expect(await fork.rpc('eth_getBalance', [HOLDER, 'latest'])).toBe('0x1bc16d674ec80000')
  })

  it('says that native state is not forked (Anvil has no REST interface)', async () => {
    const answer = await fork.rest.get('/api/v1/balancev2/AKwvKB53oQPWEShcH1bRgQhnjAN1u6QELJ')
    expect(answer.Error).toBe(45001)
    expect(String(answer.Result)).toMatch(/^fork: main-token balances are not forked/)
  })
})
