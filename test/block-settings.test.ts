/**
 * The block settings of Hardhat's controls: evm_setBlockGasLimit, hardhat_setCoinbase,
 * hardhat_setNextBlockBaseFeePerGas, hardhat_setPrevRandao and Anvil's names for the
 * first three. A Shanghai devnet (BASEFEE and PREVRANDAO exist) runs the BlockEnv
 * fixture, which reads COINBASE, GASLIMIT, BASEFEE and PREVRANDAO in a call and records
 * them in a mined transaction; on the chain's Istanbul the two that need a later
 * hardfork fail with Hardhat's texts. The block objects keep the real node's fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, Interface, type InterfaceAbi } from 'ethers'
import { BlockEnv } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { GWEI } from './support.ts'

const env = new Interface(BlockEnv.abi as InterfaceAbi)
const ALICE = '0x00000000000000000000000000000000000a11ce'
const RANDAO = `0x${'ab'.repeat(32)}`
const quantity = (n: bigint | number) => `0x${n.toString(16)}`
/** The real node's EVM environment (reference §6.3): COINBASE 0, GASLIMIT 2^64 - 1, no base fee, DIFFICULTY 0. */
const CHAIN_DEFAULTS = [getAddress(`0x${'00'.repeat(20)}`), 2n ** 64n - 1n, 0n, 0n]

describe('on a Shanghai devnet', () => {
  let devnet: Devnet
  let from: string
  let address: string
  const rpc = (method: string, params: unknown[] = []) => devnet.rpcUntyped(method, params)
  /** BlockEnv.read() at `block`: [coinbase, gaslimit, basefee, prevrandao]. */
  const read = async (block = 'pending') => [...env.decodeFunctionResult('read', (await rpc('eth_call', [{ to: address, data: env.encodeFunctionData('read') }, block])) as string)]
  /** What BlockEnv.record() stored, mined in a transaction of `gasPrice`. */
  const record = async (gasPrice = GWEI) => {
    const hash = await rpc('eth_sendTransaction', [{ from, to: address, data: env.encodeFunctionData('record'), gasPrice: quantity(gasPrice), gas: quantity(200_000) }])
    expect(((await rpc('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1')
    const get = async (name: string) => env.decodeFunctionResult(name, (await rpc('eth_call', [{ to: address, data: env.encodeFunctionData(name) }, 'latest'])) as string)[0]
    return [await get('coinbase'), await get('gasLimit'), await get('baseFee'), await get('prevRandao')]
  }

  beforeAll(async () => {
    devnet = await createDevnet({ hardfork: 'shanghai', accounts: 1, nativeAccounts: 0, console: false })
    from = devnet.accounts[0]!.address
    const hash = await rpc('eth_sendTransaction', [{ from, data: BlockEnv.bytecode }])
    address = ((await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string }).contractAddress
  })
  afterAll(async () => {
    await devnet.close()
  })

  it('reads the chain’s environment before any setting', async () => {
    expect(await rpc('eth_coinbase')).toBe(`0x${'00'.repeat(20)}`)
    expect(await read()).toEqual(CHAIN_DEFAULTS)
  })

  it('a mined transaction reads the four settings; the base fee and PREVRANDAO are the next block’s only', async () => {
    const id = await devnet.snapshot()
    expect(await rpc('hardhat_setCoinbase', [ALICE])).toBe(true)
    expect(await rpc('evm_setBlockGasLimit', [quantity(30_000_000)])).toBe(true)
    expect(await rpc('hardhat_setNextBlockBaseFeePerGas', [quantity(2n * GWEI)])).toBe(true)
    expect(await rpc('hardhat_setPrevRandao', [RANDAO])).toBe(true)
    expect(await rpc('eth_coinbase')).toBe(ALICE)
    expect(await read()).toEqual([getAddress(ALICE), 30_000_000n, 2n * GWEI, BigInt(RANDAO)])
    const mined = await record(2n * GWEI)
    expect(mined).toEqual([getAddress(ALICE), 30_000_000n, 2n * GWEI, BigInt(RANDAO)])
    // The block it was mined in keeps its environment for calls at it (blockContext 'node': the latest block's call runs as the next block).
    expect(await read('pending')).toEqual([getAddress(ALICE), 30_000_000n, 0n, 0n])
    // The block objects keep the real node's fields (reference §6.3): miner 0, gasLimit the 6,000,000 cap, no baseFeePerGas, mixHash 0.
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as Record<string, unknown>
    expect(block).toMatchObject({ miner: `0x${'00'.repeat(20)}`, gasLimit: quantity(6_000_000), mixHash: `0x${'00'.repeat(32)}` })
    expect(block).not.toHaveProperty('baseFeePerGas')
    // The next block: the one-shot settings are used up, the others stay.
    expect(await record()).toEqual([getAddress(ALICE), 30_000_000n, 0n, 0n])
    expect(await devnet.revert(id)).toBe(true)
  })

  it('debug_traceTransaction replays a transaction in the environment its block was mined in; the function-call API sets the same', async () => {
    const id = await devnet.snapshot()
    await devnet.setCoinbase(ALICE)
    await devnet.setBlockGasLimit(5_000_000)
    await devnet.setNextBlockBaseFeePerGas(GWEI)
    await devnet.setPrevRandao(RANDAO)
    const hash = await rpc('eth_sendTransaction', [{ from, to: address, data: env.encodeFunctionData('record'), gasPrice: quantity(GWEI), gas: quantity(200_000) }])
    // Settings changed after the block was mined do not reach its replay.
    await devnet.setCoinbase('0x0000000000000000000000000000000000000b0b')
    const trace = (await rpc('debug_traceTransaction', [hash])) as { structLogs: { op: string; stack: string[] }[] }
    /** The word an opcode pushed: the top of the next step's stack. */
    const pushed = (op: string) => {
      const at = trace.structLogs.findIndex((step) => step.op === op)
      return BigInt(trace.structLogs[at + 1]!.stack.at(-1)!)
    }
    expect([pushed('COINBASE'), pushed('GASLIMIT'), pushed('BASEFEE'), pushed('PREVRANDAO')]).toEqual([BigInt(ALICE), 5_000_000n, GWEI, BigInt(RANDAO)])
    expect(await devnet.revert(id)).toBe(true)
  })

  it('the pool refuses a gas price below the next block’s base fee and a gas limit above the block gas limit (Hardhat’s texts)', async () => {
    const id = await devnet.snapshot()
    await rpc('hardhat_setNextBlockBaseFeePerGas', [quantity(3n * GWEI)])
    const send = (gasPrice: bigint, gas: number) => rpc('eth_sendTransaction', [{ from, to: ALICE, gasPrice: quantity(gasPrice), gas: quantity(gas) }])
    await expect(send(2n * GWEI, 21_000)).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining(`error: Transaction gasPrice (${2n * GWEI}) is too low for the next block, which has a baseFeePerGas of ${3n * GWEI} (transaction underpriced)`),
    })
    await rpc('evm_setBlockGasLimit', [quantity(50_000)])
    await expect(send(3n * GWEI, 60_000)).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('error: Transaction gas limit is 60000 and exceeds block gas limit of 50000 (exceeds block gas limit)'),
    })
    // Estimates stop at the block gas limit.
    await expect(rpc('eth_estimateGas', [{ from, to: address, data: env.encodeFunctionData('record') }])).rejects.toMatchObject({
      message: 'gas required exceeds allowance (50000)',
    })
    // At the base fee and within the limit it is mined; the block after has no base fee again.
    await send(3n * GWEI, 21_000)
    await send(0n, 21_000)
    // A setting above 6,000,000 never lifts the per-transaction cap.
    await rpc('evm_setBlockGasLimit', [quantity(30_000_000)])
    await expect(send(0n, 6_000_001)).rejects.toMatchObject({ message: expect.stringContaining('EIP155 tx gaslimit exceed ') })
    expect(await devnet.revert(id)).toBe(true)
  })

  it('evm_revert restores the settings of the snapshot; hardhat_reset the chain’s', async () => {
    await rpc('hardhat_setCoinbase', [ALICE])
    const id = await rpc('evm_snapshot')
    await rpc('hardhat_setCoinbase', ['0x0000000000000000000000000000000000000b0b'])
    await rpc('evm_setBlockGasLimit', ['0x5208'])
    await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x9'])
    await rpc('hardhat_setPrevRandao', [RANDAO])
    expect(await rpc('evm_revert', [id])).toBe(true)
    expect(await rpc('eth_coinbase')).toBe(ALICE)
    expect(await read()).toEqual([getAddress(ALICE), 2n ** 64n - 1n, 0n, 0n])
    // A snapshot also restores a one-shot setting not used up yet.
    await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x9'])
    const before = await rpc('evm_snapshot')
    await rpc('evm_mine')
    expect((await read())[2]).toBe(0n)
    await rpc('evm_revert', [before])
    expect((await read())[2]).toBe(9n)
    await rpc('hardhat_reset')
    expect(await rpc('eth_coinbase')).toBe(`0x${'00'.repeat(20)}`)
  })
})

describe('Anvil’s names', () => {
  it('anvil_setCoinbase, anvil_setBlockGasLimit, anvil_setNextBlockBaseFeePerGas do what Hardhat’s do and answer as Anvil’s (null, true, null)', async () => {
    const devnet = await createDevnet({ hardfork: 'london', accounts: 1, nativeAccounts: 0, console: false })
    try {
      expect(await devnet.rpc('anvil_setCoinbase', [ALICE])).toBeNull()
      expect(await devnet.rpc('eth_coinbase')).toBe(ALICE)
      expect(await devnet.rpc('anvil_setBlockGasLimit', ['0x1'])).toBe(true)
      expect(await devnet.rpc('anvil_setNextBlockBaseFeePerGas', ['0x1'])).toBeNull()
      // London has BASEFEE but is not post-merge.
      await expect(devnet.rpc('hardhat_setPrevRandao', [RANDAO])).rejects.toMatchObject({
        code: -32000,
        message: 'hardhat_setPrevRandao is only available in post-merge hardforks, the current hardfork is london',
      })
    } finally {
      await devnet.close()
    }
  })
})

describe('on the chain’s Istanbul', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false })
  })
  afterAll(async () => {
    await devnet.close()
  })

  it('the coinbase and the block gas limit apply; the base fee and PREVRANDAO fail with Hardhat’s texts and change nothing', async () => {
    await expect(devnet.rpc('hardhat_setNextBlockBaseFeePerGas', ['0x1'])).rejects.toMatchObject({
      code: -32000,
      message: 'hardhat_setNextBlockBaseFeePerGas is disabled because EIP-1559 is not active',
    })
    await expect(devnet.rpc('hardhat_setPrevRandao', [RANDAO])).rejects.toMatchObject({
      code: -32000,
      message: 'hardhat_setPrevRandao is only available in post-merge hardforks, the current hardfork is istanbul',
    })
    expect(await devnet.rpc('hardhat_setCoinbase', [ALICE])).toBe(true)
    expect(await devnet.rpc('eth_coinbase')).toBe(ALICE)
    expect(await devnet.rpc('evm_setBlockGasLimit', ['0x5b8d80'])).toBe(true)
  })

  it('refuses bad arguments with the usual codes', async () => {
    await expect(devnet.rpc('evm_setBlockGasLimit', ['0x0'])).rejects.toMatchObject({ code: -32000, message: 'Block gas limit must be greater than 0' })
    await expect(devnet.rpc('evm_setBlockGasLimit', [quantity(2n ** 64n)])).rejects.toMatchObject({ code: -32000, message: `block gas limit ${2n ** 64n} does not fit in 64 bits` })
    await expect(devnet.rpcUntyped('evm_setBlockGasLimit', [])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('hardhat_setCoinbase', ['0x1234'])).rejects.toMatchObject({ code: -32602 })
    const shanghai = await createDevnet({ hardfork: 'shanghai', accounts: 0, nativeAccounts: 0, console: false })
    try {
      await expect(shanghai.rpc('hardhat_setPrevRandao', ['0x01'])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('want 64 for PREVRANDAO') })
    } finally {
      await shanghai.close()
    }
  })
})
