/**
 * Every viem test action (viem src/actions/test/) in modes `anvil`, `hardhat` and
 * `ganache`, in process (dualnet/viem's devnetTransport) and over HTTP, each asserting
 * its effect. In mode `ganache` viem sends `ganache_*` names for the actions Ganache
 * never served (setNonce, setStorageAt, impersonateAccount, …): dualnet does not serve
 * them either, and the test holds them to "method not found" (docs/controls.md); so
 * are the three `hardhat_*` names Hardhat lacks. viem's `reset()` always sends
 * `forking` without a URL unless given one, which Anvil refuses on a devnet that is no
 * fork ("Forking not enabled and RPC URL not provided"), and so does dualnet.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestClient, http, parseGwei, type Address, type Hex, type Transport } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { devnetTransport, dualnetChain } from '../src/viem.ts'
import { rpcMethods } from '../src/rpc/methods/index.ts'

const STRANGER: Address = '0x00000000000000000000000000000000000000aa'
const SLOT_VALUE: Hex = `0x${'0'.repeat(63)}7`

/** The actions viem sends under `hardhat_*` names that Hardhat never served (nor dualnet). */
const HARDHAT_UNSERVED = new Set(['setBlockTimestampInterval', 'removeBlockTimestampInterval', 'setRpcUrl'])

/** The actions viem sends under `ganache_*` names in mode ganache, which Ganache never served. */
const GANACHE_UNSERVED = new Set([
  'dropTransaction',
  'dumpState',
  'loadState',
  'impersonateAccount',
  'stopImpersonatingAccount',
  'removeBlockTimestampInterval',
  'setBlockTimestampInterval',
  'reset',
  'setCoinbase',
  'setLoggingEnabled',
  'setMinGasPrice',
  'setNextBlockBaseFeePerGas',
  'setNonce',
  'setRpcUrl',
  'setStorageAt',
])

let devnet: Devnet
let rpcUrl: string
let baseline: string

beforeAll(async () => {
  devnet = await createDevnet({ console: false })
  ;({ rpcUrl } = await devnet.listen())
})
afterAll(() => devnet.close())
beforeEach(async () => {
  baseline = await devnet.rpc('evm_snapshot')
})
afterEach(async () => {
  await devnet.rpc('evm_revert', [baseline])
  await devnet.rpc('evm_setAutomine', [true])
})

const transports: [string, () => Transport][] = [
  ['in process', () => devnetTransport(devnet)],
  ['over HTTP', () => http(rpcUrl, { retryCount: 0 })],
]
const modes = ['anvil', 'hardhat', 'ganache'] as const

describe.each(transports)('viem test actions %s', (_, transport) => {
  describe.each(modes)('mode %s', (mode) => {
    const client = () => createTestClient({ mode, chain: dualnetChain(rpcUrl, { id: devnet.chainId }), transport: transport() })
    const from = () => devnet.accounts[0]!.address as Address
    const head = async () => (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!
    const unserved = mode === 'ganache' ? GANACHE_UNSERVED : mode === 'hardhat' ? HARDHAT_UNSERVED : new Set<string>()
    /** `run` where the mode's name is served; elsewhere `bare` (the action alone) is "method not found". */
    const action = (name: string, run: () => Promise<void>, bare?: () => Promise<unknown>) =>
      it(name, async () => {
        if (unserved.has(name)) {
          await expect((bare ?? run)()).rejects.toMatchObject({ code: -32601 })
          return
        }
        await run()
      })

    action('mine', async () => {
      const before = Number((await head()).number)
      await client().mine({ blocks: 2 })
      expect(Number((await head()).number)).toBe(before + 2)
    })
    action('getAutomine / setAutomine', async () => {
      // Mode ganache reads eth_mining, which answers the node's false whatever the mode (reference §6.2).
      const automine = async () => (mode === 'ganache' ? devnet.rpc('hardhat_getAutomine') : client().getAutomine())
      if (mode === 'ganache') expect(await client().getAutomine()).toBe(false)
      expect(await automine()).toBe(true)
      await client().setAutomine(false)
      expect(await automine()).toBe(false)
      await client().setAutomine(true)
      expect(await automine()).toBe(true)
    })
    action('snapshot / revert', async () => {
      const id = await client().snapshot()
      const before = (await head()).number
      await client().mine({ blocks: 1 })
      await client().revert({ id })
      expect((await head()).number).toBe(before)
    })
    action('increaseTime', async () => {
      const before = Number((await head()).timestamp)
      await client().increaseTime({ seconds: 1000 })
      await client().mine({ blocks: 1 })
      expect(Number((await head()).timestamp)).toBeGreaterThanOrEqual(before + 1000)
    })
    action('setNextBlockTimestamp', async () => {
      const next = BigInt(Number((await head()).timestamp) + 5000)
      await client().setNextBlockTimestamp({ timestamp: next })
      await client().mine({ blocks: 1 })
      expect(BigInt((await head()).timestamp)).toBe(next)
    })
    action('setBalance', async () => {
      await client().setBalance({ address: STRANGER, value: 12345n })
      expect(await devnet.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x3039')
    })
    action('setCode', async () => {
      await client().setCode({ address: STRANGER, bytecode: '0x6001' })
      expect(await devnet.rpc('eth_getCode', [STRANGER, 'latest'])).toBe('0x6001')
    })
    action(
      'setNonce',
      async () => {
        await client().setNonce({ address: STRANGER, nonce: 9 })
        expect(await devnet.rpc('eth_getTransactionCount', [STRANGER, 'latest'])).toBe('0x9')
      },
      () => client().setNonce({ address: STRANGER, nonce: 9 }),
    )
    action(
      'setStorageAt',
      async () => {
        await client().setStorageAt({ address: STRANGER, index: 1, value: SLOT_VALUE })
        expect(await devnet.rpc('eth_getStorageAt', [STRANGER, '0x1', 'latest'])).toBe(SLOT_VALUE)
      },
      () => client().setStorageAt({ address: STRANGER, index: 1, value: SLOT_VALUE }),
    )
    action(
      'setCoinbase',
      async () => {
        await client().setCoinbase({ address: STRANGER })
        expect(await devnet.rpc('eth_coinbase')).toBe(STRANGER)
      },
      () => client().setCoinbase({ address: STRANGER }),
    )
    action('setBlockGasLimit', async () => {
      await client().setBlockGasLimit({ gasLimit: 5_000_000n })
      // A transaction above it is refused; the chain's cap of 6,000,000 stays the blocks' gasLimit.
      await expect(devnet.rpc('eth_sendTransaction', [{ from: from(), to: STRANGER, value: '0x1', gas: '0x4c4b41' }])).rejects.toThrow()
    })
    action(
      'setNextBlockBaseFeePerGas',
      async () => {
        // Istanbul (the chain's default) has no base fee: Hardhat's error.
        await expect(client().setNextBlockBaseFeePerGas({ baseFeePerGas: 1n })).rejects.toThrow(/EIP-1559 is not active/)
      },
      () => client().setNextBlockBaseFeePerGas({ baseFeePerGas: 1n }),
    )
    action(
      'setBlockTimestampInterval',
      async () => {
        await client().setBlockTimestampInterval({ interval: 7 })
        await client().mine({ blocks: 1 })
        const first = Number((await head()).timestamp)
        await client().mine({ blocks: 1 })
        expect(Number((await head()).timestamp)).toBe(first + 7)
      },
      () => client().setBlockTimestampInterval({ interval: 7 }),
    )
    action(
      'removeBlockTimestampInterval',
      async () => {
        // A day apart puts the head a day ahead of the clock; without the interval the next block is its parent + 1.
        await devnet.rpc('anvil_setBlockTimestampInterval', [86_400])
        await client().mine({ blocks: 2 })
        await client().removeBlockTimestampInterval()
        const first = Number((await head()).timestamp)
        await client().mine({ blocks: 1 })
        expect(Number((await head()).timestamp)).toBe(first + 1)
      },
      () => client().removeBlockTimestampInterval(),
    )
    action('setIntervalMining', async () => {
      await client().setIntervalMining({ interval: 3600 })
      // hardhat mode sends milliseconds (interval × 1000); anvil and ganache modes the number itself, taken as milliseconds (Hardhat's unit).
      expect(await devnet.rpc('anvil_getIntervalMining')).toBe(mode === 'hardhat' ? 3600 : 3)
      await client().setIntervalMining({ interval: 0 })
      expect(await devnet.rpc('anvil_getIntervalMining')).toBeNull()
    })
    action(
      'impersonateAccount',
      async () => {
        await devnet.rpc('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000'])
        await client().impersonateAccount({ address: STRANGER })
        expect(await devnet.rpc('eth_sendTransaction', [{ from: STRANGER, to: from(), value: '0x1' }])).toMatch(/^0x[0-9a-f]{64}$/)
      },
      () => client().impersonateAccount({ address: STRANGER }),
    )
    action(
      'stopImpersonatingAccount',
      async () => {
        await devnet.rpc('hardhat_impersonateAccount', [STRANGER])
        await client().stopImpersonatingAccount({ address: STRANGER })
        await expect(devnet.rpc('eth_sendTransaction', [{ from: STRANGER, to: from(), value: '0x1' }])).rejects.toThrow()
      },
      () => client().stopImpersonatingAccount({ address: STRANGER }),
    )
    action('getTxpoolContent / getTxpoolStatus / inspectTxpool', async () => {
      await devnet.rpc('evm_setAutomine', [false])
      await devnet.rpc('eth_sendTransaction', [{ from: from(), to: STRANGER, value: '0x1' }])
      expect(await client().getTxpoolStatus()).toEqual({ pending: 1, queued: 0 })
      expect(Object.keys((await client().getTxpoolContent()).pending)).toHaveLength(1)
      expect(Object.keys((await client().inspectTxpool()).pending)).toHaveLength(1)
    })
    action(
      'dropTransaction',
      async () => {
        await devnet.rpc('evm_setAutomine', [false])
        const hash = (await devnet.rpc('eth_sendTransaction', [{ from: from(), to: STRANGER, value: '0x1' }])) as Hex
        await client().dropTransaction({ hash })
        expect(await devnet.rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
      },
      () => client().dropTransaction({ hash: `0x${'1'.repeat(64)}` }),
    )
    action(
      'dumpState',
      async () => {
        await devnet.rpc('hardhat_setBalance', [STRANGER, '0x77'])
        expect(await client().dumpState()).toMatch(/^0x[0-9a-f]+$/)
      },
      () => client().dumpState(),
    )
    action(
      'loadState',
      async () => {
        await devnet.rpc('hardhat_setBalance', [STRANGER, '0x77'])
        const state = (await devnet.rpc('anvil_dumpState')) as Hex
        await devnet.rpc('hardhat_setBalance', [STRANGER, '0x1'])
        await client().loadState({ state })
        expect(await devnet.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x77')
      },
      () => client().loadState({ state: '0x00' }),
    )
    action(
      'setLoggingEnabled',
      async () => {
        await client().setLoggingEnabled(false)
        await client().setLoggingEnabled(true)
      },
      () => client().setLoggingEnabled(false),
    )
    action(
      'setMinGasPrice',
      async () => {
        await client().setMinGasPrice({ gasPrice: parseGwei('1') })
        await expect(devnet.rpc('eth_sendTransaction', [{ from: from(), to: STRANGER, value: '0x1', gasPrice: '0x0' }])).rejects.toThrow()
        await client().setMinGasPrice({ gasPrice: 0n })
      },
      () => client().setMinGasPrice({ gasPrice: 0n }),
    )
    action(
      'setRpcUrl',
      async () => {
        // Refused: a devnet that is no fork has no remote to change (-32602 naming the url).
        await expect(client().setRpcUrl('http://127.0.0.1:1')).rejects.toMatchObject({ code: -32602 })
      },
      () => client().setRpcUrl('http://127.0.0.1:1'),
    )
    action(
      'reset',
      async () => {
        // As Anvil: viem's forking without a URL on a devnet that is no fork is -32602; with one, a fork (test/fork-*.test.ts).
        await client().mine({ blocks: 3 })
        await expect(client().reset()).rejects.toMatchObject({ code: -32602 })
        await devnet.rpc(mode === 'anvil' ? 'anvil_reset' : 'hardhat_reset', [])
        expect(Number((await head()).number)).toBe(0)
      },
      () => client().reset(),
    )
    it.skipIf(!('eth_sendUnsignedTransaction' in rpcMethods))('sendUnsignedTransaction', async () => {
      await devnet.rpc('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000'])
      const hash = await client().sendUnsignedTransaction({ from: STRANGER, to: from(), value: 1n })
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    })
  })
})
