/**
 * dualnet/hardhat's own logic, without Hardhat (the example projects run it under
 * Hardhat 2 and 3: test/examples.test.ts): the `dualnet` config key and its errors,
 * Hardhat 3's config hooks, and its network hooks answering a connection's requests
 * from that connection's devnet.
 */
import { describe, expect, it } from 'vitest'
import { devnetOf, registerDevnet, resolveDualnetConfig } from '../src/hardhat/shared.ts'
import configHooks, { IN_PROCESS_URL } from '../src/hardhat/v3Config.ts'
import networkHooks from '../src/hardhat/v3Network.ts'
import type { Devnet } from '../src/index.ts'

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

  it('leaves connections to other networks alone', async () => {
    const other = await connect('hardhat')
    expect(other.dualnet).toBeUndefined()
    expect(await hooks.onRequest(context, other, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, fallThrough)).toBe('next')
  })
})
