/**
 * The controls under Anvil's, Hardhat's and Ganache's names (issue 34 item 4): each
 * answers Anvil's (or Hardhat's) result and has its effect; the ones the chain cannot
 * honour are -32602 naming the argument.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, encodeFunctionData, decodeFunctionResult, encodeAbiParameters, hexToBytes, type Abi, type Hex } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { chainOf } from '../src/devnet/provider.ts'
import { devnetTransport, dualnetChain } from '../src/viem.ts'
import { ConsoleLogger, Token } from '../fixtures/index.ts'

const STRANGER = '0x00000000000000000000000000000000000000aa'
const GAS_TOKEN = '0x0000000000000000000000000000000000000002'
const MAIN_TOKEN = '0x0000000000000000000000000000000000000001'

let devnet: Devnet
let lines: string[]

beforeEach(async () => {
  lines = []
  devnet = await createDevnet({ console: (line) => lines.push(line) })
})
afterEach(() => devnet.close())

const rpc = (method: string, params: unknown[] = []) => devnet.rpc(method as never, params as never) as Promise<unknown>
const failure = (method: string, params: unknown[]) =>
  rpc(method, params).then(
    () => ({ code: 0, message: 'resolved' }),
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  )

async function deployToken(): Promise<Hex> {
  const chain = dualnetChain(undefined, { id: devnet.chainId })
  const wallet = createWalletClient({ chain, transport: devnetTransport(devnet), account: devnet.accounts[0]!.address as Hex })
  const client = createPublicClient({ chain, transport: devnetTransport(devnet) })
  const hash = await wallet.deployContract({ abi: Token.abi as Abi, bytecode: Token.bytecode as Hex, args: ['T', 'T', 1000n] })
  return (await client.getTransactionReceipt({ hash })).contractAddress!
}

async function tokenRead(token: Hex, functionName: 'balanceOf' | 'allowance', args: readonly Hex[]): Promise<bigint> {
  const data = encodeFunctionData({ abi: Token.abi as Abi, functionName, args })
  const out = (await rpc('eth_call', [{ to: token, data }, 'latest'])) as Hex
  return decodeFunctionResult({ abi: Token.abi as Abi, functionName, data: out }) as bigint
}

describe('Anvil-named controls', () => {
  it('mines with interval 0 as Anvil does (viem sends [blocks, 0])', async () => {
    const before = Number(await rpc('eth_blockNumber'))
    expect(await rpc('anvil_mine', ['0x2', '0x0'])).toBeNull()
    expect(await rpc('hardhat_mine', ['0x1', '0x0'])).toBe(true)
    expect(Number(await rpc('eth_blockNumber'))).toBe(before + 3)
  })

  it('evm_mine_detailed answers the mined blocks with full transactions', async () => {
    await rpc('anvil_setAutomine', [false])
    const hash = await rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: STRANGER, value: '0x1' }])
    const blocks = (await rpc('evm_mine_detailed', [{ blocks: 2 }])) as { number: string; transactions: { hash: string }[] }[]
    expect(blocks).toHaveLength(2)
    expect(blocks[0]!.transactions.map((t) => t.hash)).toEqual([hash])
    expect(Number(blocks[1]!.number)).toBe(Number(blocks[0]!.number) + 1)
    expect(await rpc('anvil_mine_detailed', [])).toHaveLength(1)
  })

  it('automine, interval mining (seconds) and miner_start / miner_stop', async () => {
    expect(await rpc('anvil_setAutomine', [false])).toBeNull()
    expect(await rpc('anvil_getAutomine')).toBe(false)
    expect(await rpc('miner_start')).toBe(true)
    expect(await rpc('anvil_getAutomine')).toBe(true)
    expect(await rpc('miner_stop')).toBe(true)
    expect(await rpc('hardhat_getAutomine')).toBe(false)
    expect(await rpc('anvil_getIntervalMining')).toBeNull()
    expect(await rpc('anvil_setIntervalMining', [3600])).toBeNull()
    expect(await rpc('anvil_getIntervalMining')).toBe(3600)
    expect(await rpc('anvil_setIntervalMining', [0])).toBeNull()
    expect(await rpc('anvil_getIntervalMining')).toBeNull()
  })

  it('time: setTime / evm_setTime answer the offset, getGenesisTime the first block', async () => {
    const genesis = (await rpc('eth_getBlockByNumber', ['0x0', false])) as { timestamp: string }
    expect(await rpc('anvil_getGenesisTime')).toBe(Number(genesis.timestamp))
    const offset = (await rpc('anvil_setTime', [3_000_000_000])) as number
    expect(typeof offset).toBe('number')
    await rpc('evm_mine')
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }
    expect(Number(block.timestamp)).toBeGreaterThanOrEqual(3_000_000_000)
    expect(Number(block.timestamp)).toBeLessThan(3_000_000_100)
    expect(typeof (await rpc('evm_setTime', [3_000_001_000]))).toBe('number')
    expect(await rpc('anvil_increaseTime', [10])).toBeTypeOf('number')
    expect(await rpc('anvil_setNextBlockTimestamp', [3_000_002_000])).toBeNull()
  })

  it('snapshots under anvil_ names, listed by anvil_metadata', async () => {
    const id = (await rpc('anvil_snapshot')) as string
    const meta = (await rpc('anvil_metadata')) as { snapshots: Record<string, [number, string]>; latestBlockNumber: number }
    expect(meta.snapshots[id]![0]).toBe(meta.latestBlockNumber)
    await rpc('evm_mine')
    expect(await rpc('anvil_revert', [id])).toBe(true)
    expect(Number(await rpc('eth_blockNumber'))).toBe(meta.latestBlockNumber)
  })

  it('anvil_nodeInfo and hardhat_metadata in the shapes hardhat-viem and Anvil users read', async () => {
    const info = (await rpc('anvil_nodeInfo')) as Record<string, unknown>
    expect(info).toMatchObject({ hardFork: 'Istanbul', transactionOrder: 'fees', environment: { chainId: devnet.chainId, baseFee: '0x0', gasLimit: '0x5b8d80' }, forkConfig: { forkUrl: null } })
    const meta = (await rpc('hardhat_metadata')) as Record<string, unknown>
    expect(meta).toMatchObject({ chainId: devnet.chainId, forkedNetwork: null })
    expect(meta.instanceId).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await rpc('anvil_metadata')).toEqual(meta)
    await devnet.reset()
    expect(((await rpc('hardhat_metadata')) as { instanceId: string }).instanceId).not.toBe(meta.instanceId)
  })

  it('balances: addBalance and the Ganache setters', async () => {
    expect(await rpc('anvil_addBalance', [STRANGER, '0x10'])).toBeNull()
    expect(await rpc('hardhat_addBalance', [STRANGER, '0x10'])).toBeNull()
    expect(await rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x20')
    expect(await rpc('evm_setAccountBalance', [STRANGER, '0x5'])).toBe(true)
    expect(await rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x5')
    expect(await rpc('evm_setAccountNonce', [STRANGER, '0x7'])).toBe(true)
    expect(await rpc('eth_getTransactionCount', [STRANGER, 'latest'])).toBe('0x7')
    expect(await rpc('evm_setAccountCode', [STRANGER, '0x6001'])).toBe(true)
    expect(await rpc('eth_getCode', [STRANGER, 'latest'])).toBe('0x6001')
    expect(await rpc('evm_setAccountStorageAt', [STRANGER, '0x1', `0x${'0'.repeat(63)}9`])).toBe(true)
    expect(await rpc('eth_getStorageAt', [STRANGER, '0x1', 'latest'])).toBe(`0x${'0'.repeat(63)}9`)
  })

  it('autoImpersonateAccount lets any address send', async () => {
    await rpc('anvil_addBalance', [STRANGER, '0xde0b6b3a7640000'])
    const send = () => rpc('eth_sendTransaction', [{ from: STRANGER, to: devnet.accounts[0]!.address, value: '0x1' }])
    await expect(send()).rejects.toThrow()
    expect(await rpc('anvil_autoImpersonateAccount', [true])).toBeNull()
    expect(await send()).toMatch(/^0x[0-9a-f]{64}$/)
    await rpc('anvil_autoImpersonateAccount', [false])
    await expect(send()).rejects.toThrow()
  })

  it('setMinGasPrice: the pool refuses a lower price; a price not in whole gwei is -32602', async () => {
    expect(await rpc('anvil_setMinGasPrice', ['0x3b9aca00'])).toBeNull()
    const low = await failure('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: STRANGER, value: '0x1', gasPrice: '0x0' }])
    expect(low.code).not.toBe(0)
    expect(await rpc('hardhat_setMinGasPrice', ['0x0'])).toBe(true)
    expect(await rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: STRANGER, value: '0x1', gasPrice: '0x0' }])).toMatch(/^0x/)
    expect(await failure('anvil_setMinGasPrice', ['0x1'])).toMatchObject({ code: -32602, message: expect.stringContaining('gasPrice') })
  })

  it('dealERC20 finds the balance slot by tracing balanceOf; setERC20Allowance the allowance slot', async () => {
    const token = await deployToken()
    expect(await rpc('anvil_dealERC20', [STRANGER, token, '0x1234'])).toBeNull()
    expect(await tokenRead(token, 'balanceOf', [STRANGER])).toBe(0x1234n)
    expect(await rpc('anvil_setERC20Balance', [STRANGER, token, '0x5'])).toBeNull()
    expect(await rpc('hardhat_dealERC20', [devnet.accounts[1]!.address, token, '0x6'])).toBeNull()
    expect(await tokenRead(token, 'balanceOf', [STRANGER])).toBe(5n)
    expect(await tokenRead(token, 'balanceOf', [devnet.accounts[1]!.address as Hex])).toBe(6n)
    // The deployer's balance (another slot of the same mapping) is untouched.
    expect(await tokenRead(token, 'balanceOf', [devnet.accounts[0]!.address as Hex])).toBe(1000n)
    expect(await rpc('anvil_setERC20Allowance', [STRANGER, devnet.accounts[2]!.address, token, '0x77'])).toBeNull()
    expect(await tokenRead(token, 'allowance', [STRANGER, devnet.accounts[2]!.address as Hex])).toBe(0x77n)
  })

  it("dealERC20 on the chain's gas and main tokens sets the account's balances", async () => {
    await rpc('anvil_dealERC20', [STRANGER, GAS_TOKEN, '0xde0b6b3a7640000'])
    expect(await rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0xde0b6b3a7640000')
    expect(await rpc('anvil_dealERC20', [STRANGER, MAIN_TOKEN, '0x3b9aca00'])).toBeNull()
    expect(chainOf(devnet).account(hexToBytes(STRANGER)).main).toBe(10n ** 9n)
    expect(await failure('anvil_dealERC20', [STRANGER, STRANGER, '0x1'])).toMatchObject({ code: -32000, message: expect.stringContaining('no contract code') })
  })

  it('setLoggingEnabled silences console.log lines and turns them on again', async () => {
    const from = devnet.accounts[0]!.address
    const deploy = await rpc('eth_sendTransaction', [{ from, data: ConsoleLogger.bytecode }])
    const logger = ((await rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
    const logAll = () => rpc('eth_sendTransaction', [{ from, to: logger, data: encodeFunctionData({ abi: ConsoleLogger.abi as Abi, functionName: 'logAll' }) }])
    await logAll()
    const printed = lines.length
    expect(printed).toBeGreaterThan(0)
    expect(await rpc('anvil_setLoggingEnabled', [false])).toBeNull()
    await logAll()
    expect(lines).toHaveLength(printed)
    expect(await rpc('hardhat_setLoggingEnabled', [true])).toBe(true)
    await logAll()
    expect(lines.length).toBeGreaterThan(printed)
  })

  it('what the chain cannot honour is -32602 naming the argument', async () => {
    expect(await failure('anvil_setChainId', [1])).toMatchObject({ code: -32602, message: expect.stringContaining('invalid argument 0: chainId') })
    expect(await rpc('anvil_setChainId', [devnet.chainId])).toBeNull()
    expect(await failure('anvil_setRpcUrl', ['http://127.0.0.1:1'])).toMatchObject({ code: -32602, message: expect.stringContaining('invalid argument 0: url') })
    expect(await failure('anvil_rollback', [1])).toMatchObject({ code: -32602, message: expect.stringContaining('invalid argument 0: depth') })
    expect(await failure('anvil_reorg', [{ depth: 1, tx_block_pairs: [] }])).toMatchObject({ code: -32602, message: expect.stringContaining('invalid argument 0: options') })
    expect(await failure('anvil_impersonateSignature', ['0x00', STRANGER])).toMatchObject({ code: -32602, message: expect.stringContaining('invalid argument 0: signature') })
  })
})

describe('on a fork', () => {
  it('anvil_nodeInfo and hardhat_metadata name the fork; setRpcUrl is refused; dealERC20 works on a remote token', async () => {
    const remote = await createDevnet({ console: false })
    try {
      const { rpcUrl } = await remote.listen()
      await remote.rpc('hardhat_mine', ['0x3'])
      const fork = await createDevnet({ console: false, fork: { url: rpcUrl } })
      try {
        const info = (await fork.rpc('anvil_nodeInfo')) as { forkConfig: { forkUrl: string; forkBlockNumber: number } }
        expect(info.forkConfig).toMatchObject({ forkUrl: rpcUrl, forkBlockNumber: 3 })
        const meta = (await fork.rpc('hardhat_metadata')) as { forkedNetwork: { chainId: number; forkBlockNumber: number; forkBlockHash: string } }
        const block = (await remote.rpc('eth_getBlockByNumber', ['0x3', false]))!
        expect(meta.forkedNetwork).toEqual({ chainId: remote.chainId, forkBlockNumber: 3, forkBlockHash: block.hash })
        await expect(fork.rpc('anvil_setRpcUrl', [rpcUrl])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("a fork's remote is fixed") })
        // dealERC20 on a token the remote deployed: its code and slots are fetched as any read's.
        const deployer = remote.accounts[0]!.address
        const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['T', 'T', 1000n]).slice(2)
        const deployed = await remote.rpc('eth_sendTransaction', [{ from: deployer, data: `${Token.bytecode}${args}` }])
        const token = ((await remote.rpc('eth_getTransactionReceipt', [deployed])) as { contractAddress: Hex }).contractAddress
        await fork.reset({ fork: { url: rpcUrl } })
        expect(await fork.rpc('anvil_dealERC20', [STRANGER, token, '0x1234'])).toBeNull()
        const out = (await fork.rpc('eth_call', [{ to: token, data: encodeFunctionData({ abi: Token.abi as Abi, functionName: 'balanceOf', args: [STRANGER] }) }, 'latest'])) as Hex
        expect(decodeFunctionResult({ abi: Token.abi as Abi, functionName: 'balanceOf', data: out })).toBe(0x1234n)
      } finally {
        await fork.close()
      }
    } finally {
      await remote.close()
    }
  })
})
