/**
 * dualnet/hardhat's own logic, without Hardhat (the example projects run it under
 * Hardhat 2 and 3: test/hardhat-examples.test.ts, whose test/Gas files send through
 * hardhat-ethers and hardhat-viem): the `dualnet` config key and its errors, how a
 * request reaches the devnet (the network's gas, failed sends), Hardhat 3's config
 * hooks, and its network hooks answering a connection's requests from that
 * connection's devnet.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Token } from '../fixtures/index.ts'
import { requestOnNetwork, withNetworkGas } from '../src/hardhat/networkRequest.ts'
import { devnetOf, registerDevnet, resolveDualnetConfig, serve } from '../src/hardhat/shared.ts'
import { fixEthersSignersGas } from '../src/hardhat/v2Ethers.ts'
import configHooks, { IN_PROCESS_URL } from '../src/hardhat/v3Config.ts'
import networkHooks from '../src/hardhat/v3Network.ts'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'

const HH2_RESERVED = ['hardhat', 'localhost']

describe('the dualnet config key', () => {
  it("defaults: network dualnet, profile ethereum, every other option createDevnet's", () => {
    expect(resolveDualnetConfig(undefined, HH2_RESERVED)).toEqual({ network: 'dualnet', gas: 6_000_000, options: { profile: 'ethereum' } })
  })

  it("passes createDevnet options through; the user's blockContext is kept beside the profile (a switch wins over it); network renames", () => {
    expect(resolveDualnetConfig({ network: 'chain', hardfork: 'shanghai', chainId: 7, blockContext: 'node' }, HH2_RESERVED)).toEqual({
      network: 'chain',
      gas: 6_000_000,
      options: { profile: 'ethereum', hardfork: 'shanghai', chainId: 7, blockContext: 'node' },
    })
  })

  it("takes gas as a number of gas within the chain's limits or 'auto', kept out of the devnet's options", () => {
    expect(resolveDualnetConfig({ gas: 'auto' }, HH2_RESERVED)).toEqual({ network: 'dualnet', gas: 'auto', options: { profile: 'ethereum' } })
    expect(resolveDualnetConfig({ gas: 20_000 }, HH2_RESERVED).gas).toBe(20_000)
    const message = (got: string) => `Invalid Hardhat config: 'dualnet.gas' must be 'auto' or a whole number of gas from 20000 to 6000000, got ${got}`
    expect(() => resolveDualnetConfig({ gas: 6_000_001 }, HH2_RESERVED)).toThrow(new TypeError(message('6000001')))
    expect(() => resolveDualnetConfig({ gas: 19_999 }, HH2_RESERVED)).toThrow(message('19999'))
    expect(() => resolveDualnetConfig({ gas: 21_000.5 }, HH2_RESERVED)).toThrow(message('21000.5'))
    expect(() => resolveDualnetConfig({ gas: 'max' }, HH2_RESERVED)).toThrow(message("'max'"))
    expect(() => resolveDualnetConfig({ gas: 30_000n }, HH2_RESERVED)).toThrow(TypeError)
    expect(() => resolveDualnetConfig({ gas: null }, HH2_RESERVED)).toThrow(message('null'))
  })

  it('refuses a key that is not an object, naming it', () => {
    expect(() => resolveDualnetConfig('yes', HH2_RESERVED)).toThrow(new TypeError("Invalid Hardhat config: 'dualnet' must be an object of createDevnet options, got 'yes'"))
    expect(() => resolveDualnetConfig([], HH2_RESERVED)).toThrow("'dualnet' must be an object of createDevnet options, got an array")
    expect(() => resolveDualnetConfig(null, HH2_RESERVED)).toThrow("'dualnet' must be an object of createDevnet options, got null")
  })

  it("refuses a network name that is empty, not a string, or Hardhat's own", () => {
    const message = (got: string) => `Invalid Hardhat config: 'dualnet.network' must be a network name other than 'hardhat', 'localhost', got ${got}`
    expect(() => resolveDualnetConfig({ network: 'hardhat' }, HH2_RESERVED)).toThrow(new TypeError(message("'hardhat'")))
    expect(() => resolveDualnetConfig({ network: '' }, HH2_RESERVED)).toThrow(message("''"))
    expect(() => resolveDualnetConfig({ network: 5 }, HH2_RESERVED)).toThrow(message('5'))
  })
})

describe('devnetOf', () => {
  it('refuses a provider of another network', async () => {
    await expect(devnetOf({})).rejects.toThrow(new TypeError('devnetOf: this provider is not one of a dualnet network (run with --network dualnet, or connect to it)'))
  })

  it('resolves to the devnet registered for a provider', async () => {
    const provider = {}
    const devnet = { chainId: 1 } as unknown as Devnet
    registerDevnet(provider, async () => devnet)
    expect(await devnetOf(provider)).toBe(devnet)
  })
})

describe('Hardhat 3 config hooks', async () => {
  const hooks = await configHooks()
  const same = async <T>(config: T) => config

  it('adds the network as an HTTP network that is never dialled, with the chain id', async () => {
    const extended = await hooks.extendUserConfig({ dualnet: { chainId: 7 }, networks: { other: { type: 'http', url: 'http://x' } } }, same)
    expect(extended.networks).toEqual({ other: { type: 'http', url: 'http://x' }, dualnet: { type: 'http', url: IN_PROCESS_URL, chainId: 7, gas: 6_000_000 } })
    expect(await hooks.validateUserConfig(extended)).toEqual([])
    const named = await hooks.extendUserConfig({ dualnet: { network: 'mine', gas: 'auto' } }, same)
    expect(named.networks).toEqual({ mine: { type: 'http', url: IN_PROCESS_URL, chainId: 12345, gas: 'auto' } })
  })

  it("reports a network of the user's under the same name, and a bad key, as config errors", async () => {
    const taken = await hooks.extendUserConfig({ networks: { dualnet: { type: 'http', url: 'http://x' } } }, same)
    expect(await hooks.validateUserConfig(taken)).toEqual([
      {
        path: ['networks', 'dualnet'],
        message: "Invalid Hardhat config: networks.dualnet is provided by dualnet/hardhat; put its options under the 'dualnet' key, or name the plugin's network otherwise with dualnet.network",
      },
    ])
    const bad = await hooks.extendUserConfig({ dualnet: { network: 'node' } }, same)
    expect(bad.networks).toBeUndefined()
    expect(await hooks.validateUserConfig(bad)).toEqual([
      { path: ['dualnet'], message: "Invalid Hardhat config: 'dualnet.network' must be a network name other than 'default', 'localhost', 'node', got 'node'" },
    ])
  })

  it('resolves the key into config.dualnet', async () => {
    const resolved = await hooks.resolveUserConfig({ dualnet: { hardfork: 'cancun' } }, undefined, async () => ({ networks: {} }))
    expect(resolved).toEqual({ networks: {}, dualnet: { network: 'dualnet', gas: 6_000_000, options: { profile: 'ethereum', hardfork: 'cancun' } } })
  })
})

describe('Hardhat 3 network hooks', async () => {
  const hooks = await networkHooks()
  const context = { config: { dualnet: resolveDualnetConfig({ chainId: 7 }, []) } }
  const connect = (networkName: string) => hooks.newConnection(context, async () => ({ networkName, provider: {} }))
  const fallThrough = async () => 'next'

  it('gives each connection to the network its own devnet, answers its requests, closes it with the connection', async () => {
    const first = await connect('dualnet')
    const second = await connect('dualnet')
    expect(first.dualnet).toBeDefined()
    expect(second.dualnet).not.toBe(first.dualnet)
    expect(await devnetOf(first.provider)).toBe(first.dualnet)
    expect(await hooks.onRequest(context, first, { jsonrpc: '2.0', id: 3, method: 'eth_chainId' }, fallThrough)).toEqual({ jsonrpc: '2.0', id: 3, result: '0x7' })
    await hooks.onRequest(context, first, { jsonrpc: '2.0', id: 4, method: 'evm_mine', params: [] }, fallThrough)
    expect(await first.dualnet!.rpc('eth_blockNumber')).toBe('0x1')
    expect(await second.dualnet!.rpc('eth_blockNumber')).toBe('0x0')
    await hooks.closeConnection(context, first, async () => {})
    await expect(first.dualnet!.rpc('eth_blockNumber')).rejects.toThrow('the devnet is closed')
    expect(await hooks.onRequest(context, first, { jsonrpc: '2.0', id: 5, method: 'eth_chainId' }, fallThrough)).toBe('next')
    await hooks.closeConnection(context, second, async () => {})
  })

  it('answers an error as the JSON-RPC error object, code, message and data kept', async () => {
    const connection = await connect('dualnet')
    const answer = await hooks.onRequest(context, connection, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x12'] }, fallThrough)
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } })
    expect(await hooks.onRequest(context, connection, { jsonrpc: '2.0', id: 2, method: 'no_such_method' }, fallThrough)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32601, message: 'the method no_such_method does not exist/is not available' },
    })
    await hooks.closeConnection(context, connection, async () => {})
  })

  it("sends a transaction without gas with the network's gas ('auto': the devnet's estimate)", async () => {
    const connection = await connect('dualnet')
    const from = connection.dualnet!.accounts[0]!.address
    const send = async (config: typeof context) => {
      const answer = (await hooks.onRequest(config, connection, { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from, to: from }] }, fallThrough)) as { result: string }
      return ((await connection.dualnet!.rpcUntyped('eth_getTransactionByHash', [answer.result])) as { gas: string }).gas
    }
    expect(await send(context)).toBe('0x5b8d80')
    expect(await send({ config: { dualnet: resolveDualnetConfig({ gas: 'auto' }, []) } })).toBe('0x5208')
    await hooks.closeConnection(context, connection, async () => {})
  })

  it('leaves connections to other networks alone', async () => {
    const other = await connect('hardhat')
    expect(other.dualnet).toBeUndefined()
    expect(await hooks.onRequest(context, other, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, fallThrough)).toBe('next')
  })
})

/** Init code that reverts with `Error("no")`: CODECOPY of the 100-byte payload after the 12 bytes of code, then REVERT. */
const REVERT_NO = `0x6064600c60003960646000fd08c379a0${(32).toString(16).padStart(64, '0')}${'2'.padStart(64, '0')}${'6e6f'.padEnd(64, '0')}`
/** Init code that reverts with no data. */
const REVERT_EMPTY = '0x60006000fd'

describe("how a request reaches the plugin's devnet", () => {
  let devnet: Devnet
  let from: string
  const to = '0x0000000000000000000000000000000000000b0b'
  const gasOf = async (hash: unknown) => ((await devnet.rpcUntyped('eth_getTransactionByHash', [hash])) as { gas: string }).gas

  beforeAll(async () => {
    devnet = await createDevnet({ console: false })
    from = devnet.accounts[0]!.address
  })
  afterAll(() => devnet.close())

  it("gives an eth_sendTransaction without gas the network's gas, in a copy; leaves the rest alone", () => {
    const params = [{ from, to }, 'extra']
    expect(withNetworkGas('eth_sendTransaction', params, 6_000_000)).toEqual([{ from, to, gas: '0x5b8d80' }, 'extra'])
    expect(params).toEqual([{ from, to }, 'extra'])
    expect(withNetworkGas('eth_sendTransactionSync', [{ from }], 21_000)).toEqual([{ from, gas: '0x5208' }])
    const given = [{ from, gas: '0x5300' }]
    expect(withNetworkGas('eth_sendTransaction', given, 6_000_000)).toBe(given)
    expect(withNetworkGas('eth_sendTransaction', params, 'auto')).toBe(params)
    expect(withNetworkGas('eth_call', params, 6_000_000)).toBe(params)
    expect(withNetworkGas('eth_sendTransaction', [null], 6_000_000)).toEqual([null])
    expect(withNetworkGas('eth_sendTransaction', undefined, 6_000_000)).toBeUndefined()
  })

  it("sends with the network's gas, or the devnet's estimate under 'auto'", async () => {
    expect(await gasOf(await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, to, value: '0x1' }], 6_000_000))).toBe('0x5b8d80')
    expect(await gasOf(await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, to, value: '0x1' }], 'auto'))).toBe('0x5208')
  })

  it('rejects a send whose transaction was mined and reverted with the revert, code 3 and data, the transaction staying mined', async () => {
    const before = Number(await devnet.rpc('eth_blockNumber'))
    const failure = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, data: REVERT_NO }], 6_000_000).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(RpcError)
    expect(failure).toMatchObject({ code: 3, message: 'execution reverted: no', data: `0x${REVERT_NO.slice(26)}` })
    const hash = (failure as { transactionHash: string }).transactionHash
    expect(await devnet.rpcUntyped('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x0', blockNumber: `0x${(before + 1).toString(16)}` })
    const empty = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, data: REVERT_EMPTY }], 'auto').catch((err: unknown) => err)
    // Under 'auto' the devnet's estimate refuses it first, nothing mined.
    expect(empty).toMatchObject({ code: 3, message: 'execution reverted' })
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBe(before + 1)
    const mined = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, data: REVERT_EMPTY }], 6_000_000).catch((err: unknown) => err)
    expect(mined).toMatchObject({ code: 3, data: '0x', message: expect.stringMatching(/^transaction 0x[0-9a-f]{64} failed: execution reverted$/) })
    // JUMPDEST, PUSH1 0, JUMP: a loop until the gas runs out.
    const outOfGas = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, data: '0x5b600056', gas: '0x10000' }], 6_000_000).catch((err: unknown) => err)
    expect(outOfGas).toMatchObject({ code: -32000, data: '0x', message: expect.stringMatching(/^transaction 0x[0-9a-f]{64} failed: out of gas$/) })
    const { transactionHash } = outOfGas as { transactionHash: string }
    expect(await devnet.rpcUntyped('eth_getTransactionReceipt', [transactionHash])).toMatchObject({ status: '0x0', gasUsed: '0x10000' })
  })

  it('answers the hash of a send left pending (automine off), failing or not', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const hash = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, data: REVERT_NO }], 6_000_000)
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await devnet.rpcUntyped('eth_getTransactionReceipt', [hash])).toBeNull()
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })
})

describe("hardhat-ethers' signers (Hardhat 2; the real one runs in examples/hardhat2's test/Gas.js)", () => {
  it('leaves a loaded hardhat-ethers other than 3.x as it is, saying so once per call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dualnet-hardhat-ethers-'))
    const pkg = join(dir, 'node_modules', '@nomicfoundation', 'hardhat-ethers')
    mkdirSync(join(pkg, 'internal'), { recursive: true })
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@nomicfoundation/hardhat-ethers', version: '4.0.0' }))
    writeFileSync(join(pkg, 'internal', 'index.js'), '')
    // signers.js would throw if the shim loaded it: a 4.x is not touched.
    writeFileSync(join(pkg, 'signers.js'), "throw new Error('loaded')")
    const require = createRequire(join(dir, 'index.js'))
    const entry = require.resolve('@nomicfoundation/hardhat-ethers/internal/index.js')
    require(entry)
    try {
      const lines: string[] = []
      fixEthersSignersGas((line) => lines.push(line))
      // The package's directory as Node's module cache has it (its real path).
      const loaded = dirname(dirname(entry))
      expect(lines.filter((line) => line.includes(loaded))).toEqual([
        `dualnet/hardhat: hardhat-ethers 4.0.0 at ${loaded} is not 3.x, whose signers dualnet knows; its signers estimate the gas of each transaction on the dualnet network (set dualnet.gas to 'auto' to say that is meant)`,
      ])
    } finally {
      delete require.cache[entry]
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the dualnet task', () => {
  it("serves JSON-RPC and REST, and with --explorer the explorer page naming the artifacts' contracts, whose URL it prints; it closes the devnet when told to stop", async () => {
    const lines: string[] = []
    let stop!: () => void
    const stopped = new Promise<void>((resolve) => (stop = resolve))
    const serving = serve(
      resolveDualnetConfig({ accounts: 1 }, HH2_RESERVED),
      // The tasks pass the project's root as `artifacts`.
      { port: 0, restPort: 0, explorer: true, artifacts: 'fixtures/artifacts' },
      (line) => lines.push(line),
      () => stopped,
    )
    const url = (label: string) => /^\S+ +(http:\S+)$/.exec(lines.find((l) => l.startsWith(label)) ?? '')?.[1]
    while (!lines.includes('Accounts')) await new Promise((resolve) => setTimeout(resolve, 10))
    const explorer = url('Explorer')
    expect(explorer).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/explorer$/)
    const page = await fetch(explorer!)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const answer = (await (
      await fetch(url('JSON-RPC')!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    ).json()) as { result: string }
    expect(answer.result).toBe('0x3039')
    const rpc = (method: string, params: unknown[]) =>
      fetch(url('JSON-RPC')!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    await rpc('hardhat_setCode', ['0x00000000000000000000000000000000000000a1', Token.deployedBytecode])
    expect(await (await fetch(`${explorer}/api/contract/0x00000000000000000000000000000000000000a1`)).json()).toMatchObject({ name: 'contracts/Token.sol:Token' })
    stop()
    await serving
    await expect(fetch(explorer!)).rejects.toThrow()
  })
})
