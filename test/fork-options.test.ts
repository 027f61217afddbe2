/**
 * The `fork` option and the CLI's --fork-url / --fork-rest-url / --fork-block-number (docs/fork.md):
 * malformed values are refused naming the option before anything starts; a past
 * block is read as of that block on a remote that serves past state (another
 * dualnet), and refused, saying why, on one that answers its latest state only (the
 * real node, recognised by web3_clientVersion `Ontology-…`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommanderError } from 'commander'
import { createServer, type AddressInfo } from 'node:net'
import { createDevnet, ForkOptionError, InvalidOptionError, type Devnet } from '../src/index.ts'
import { cliProgram, devnetOptionsOf, parseFlags } from '../src/cli/flags.ts'
import { chainOf } from '../src/devnet/provider.ts'

const PROBE = '0x00000000000000000000000000000000c0ffee03'

describe('fork option values', () => {
  // The message shape of every option error (test/options.test.ts has the full table of shapes).
  it.each([
    [{ url: 'ftp://example.com' }, 'fork.url', 'ftp://example.com', 'option fork.url: "ftp://example.com" is invalid. Allowed: an http(s) URL of a JSON-RPC node.'],
    [{ url: 'not a url' }, 'fork.url', 'not a url', 'option fork.url: "not a url" is invalid. Allowed: an http(s) URL of a JSON-RPC node.'],
    [{ url: 'http://127.0.0.1:1', blockNumber: -1 }, 'fork.blockNumber', -1, 'option fork.blockNumber: -1 is invalid. Allowed: a whole number from 0 to 9,007,199,254,740,991.'],
    [{ url: 'http://127.0.0.1:1', blockNumber: 1.5 }, 'fork.blockNumber', 1.5, 'option fork.blockNumber: 1.5 is invalid. Allowed: a whole number from 0 to 9,007,199,254,740,991.'],
    [
      { url: 'http://127.0.0.1:1', restUrl: 'ws://127.0.0.1:2' },
      'fork.restUrl',
      'ws://127.0.0.1:2',
      `option fork.restUrl: "ws://127.0.0.1:2" is invalid. Allowed: an http(s) URL of the node's REST interface.`,
    ],
    [{ url: 'http://127.0.0.1:1', historyLimit: 0 }, 'fork.historyLimit', 0, 'option fork.historyLimit: 0 is invalid. Allowed: a whole number from 1 to 9,007,199,254,740,991.'],
    ['http://127.0.0.1:1', 'fork', 'http://127.0.0.1:1', 'option fork: "http://127.0.0.1:1" is invalid. Allowed: { url, restUrl?, blockNumber?, cache?, historyLimit?, remote? } (docs/fork.md).'],
  ])('refuses %j', async (fork, option, value, message) => {
    const err = await createDevnet({ fork: fork as never }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ForkOptionError)
    expect(err).toBeInstanceOf(InvalidOptionError)
    expect(err).toMatchObject({ option, value, message })
  })

  it('refuses a fork with a state document, naming state', async () => {
    await expect(createDevnet({ fork: { url: 'http://127.0.0.1:1' }, state: { version: 1 } as never })).rejects.toThrow(
      'option state: {"version":1} is invalid (a fork cannot start from a state document yet: load it with devnet.loadState() after the start). Allowed: no state with fork.',
    )
  })

  it('names the remote call when the remote is not there', async () => {
    // A port that was just free: nothing listens there.
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    await expect(createDevnet({ fork: { url: `http://127.0.0.1:${port}`, remote: { retries: 1, backoff: 10 } } })).rejects.toThrow(
      `fork: the remote call eth_chainId() to http://127.0.0.1:${port} failed: ECONNREFUSED (2 attempts)`,
    )
  })
})

describe('CLI fork flags', () => {
  const parse = (args: string[]) =>
    parseFlags(
      cliProgram()
        .exitOverride()
        .configureOutput({ writeErr: () => {}, writeOut: () => {} }),
      args,
    )

  it("passes --fork-url and --fork-block-number, and the remote's chain id unless --chain-id is given", async () => {
    expect(await devnetOptionsOf(parse(['--fork-url', 'http://127.0.0.1:8545', '--fork-block-number', '12']))).toMatchObject({ fork: { url: 'http://127.0.0.1:8545', blockNumber: 12 } })
    expect((await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545']))).chainId).toBeUndefined()
    expect((await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545', '--chain-id', '7']))).chainId).toBe(7)
    expect((await devnetOptionsOf(parse([]))).chainId).toBe(12345)
  })

  it('passes --fork-cache <dir> and --no-fork-cache as fork.cache', async () => {
    expect((await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545', '--fork-cache', '/tmp/forks']))).fork).toEqual({ url: 'http://127.0.0.1:8545', cache: '/tmp/forks' })
    expect((await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545', '--fork-block-number', '3', '--no-fork-cache']))).fork).toEqual({ url: 'http://127.0.0.1:8545', blockNumber: 3, cache: false })
    expect((await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545']))).fork).toEqual({ url: 'http://127.0.0.1:8545' })
  })

  it('passes --fork-rest-url as fork.restUrl', async () => {
    const options = await devnetOptionsOf(parse(['-f', 'http://127.0.0.1:8545', '--fork-rest-url', 'http://127.0.0.1:20334']))
    expect(options.fork).toEqual({ url: 'http://127.0.0.1:8545', restUrl: 'http://127.0.0.1:20334' })
  })

  it('refuses a bad URL and a block number without a URL', () => {
    expect(() => parse(['--fork-url', 'ws://x'])).toThrow(CommanderError)
    expect(() => parse(['--fork-block-number', '3'])).toThrow(CommanderError)
  })
})

describe('fork block', () => {
  let remote: Devnet
  let rpcUrl: string
  beforeAll(async () => {
    remote = await createDevnet({ console: false })
    rpcUrl = (await remote.listen()).rpcUrl
    await remote.setBalance(PROBE, { gas: 100n }) // block 0's state changes at the latest block, 0
    await remote.mine(2)
    await remote.setBalance(PROBE, { gas: 200n }) // ... and again at block 2
  }, 120_000)
  afterAll(async () => {
    await remote?.close()
  })

  it('reads state as of a past block on a remote that serves it', async () => {
    const fork = await createDevnet({ fork: { url: rpcUrl, blockNumber: 1 }, console: false })
    try {
      expect(await fork.rpc('eth_blockNumber')).toBe('0x1')
      expect(await fork.rpc('eth_getBalance', [PROBE, 'latest'])).toBe('0x64')
      const block1 = (await remote.rpc('eth_getBlockByNumber', ['0x1', false]))!
      expect((await fork.rpc('eth_getBlockByNumber', ['0x1', false]))!.hash).toBe(block1.hash)
    } finally {
      await fork.close()
    }
  })

  it('bounds the kept history answers by fork.historyLimit: past it the oldest are dropped, and fetched again when asked', async () => {
    const fork = await createDevnet({ fork: { url: rpcUrl, blockNumber: 2, historyLimit: 2_000 }, console: false })
    try {
      const history = chainOf(fork).fork!.history!
      expect(history.cache.limit).toBe(2_000)
      const block1 = await remote.rpc('eth_getBlockByNumber', ['0x1', true])
      expect(await fork.rpc('eth_getBlockByNumber', ['0x1', true])).toEqual(block1)
      for (let i = 0; i < 20; i++) await fork.rpc('eth_getTransactionByHash', [`0x${i.toString(16).padStart(64, '0')}`])
      expect(history.cache.bytes).toBeLessThanOrEqual(2_000)
      expect(await fork.rpc('eth_getBlockByNumber', ['0x1', true])).toEqual(block1)
    } finally {
      await fork.close()
    }
  })

  it("refuses a block above the remote's latest", async () => {
    await expect(createDevnet({ fork: { url: rpcUrl, blockNumber: 99 }, console: false })).rejects.toThrow(
      "option fork.blockNumber: 99 is invalid (above the remote's latest block). Allowed: a block number from 0 to the remote's latest block, 2.",
    )
  })

  it('refuses a past block on a remote that answers its latest state only (the real node)', async () => {
    const node = await createDevnet({ clientVersion: 'node', console: false })
    try {
      await node.mine(3)
      const url = (await node.listen()).rpcUrl
      await expect(createDevnet({ fork: { url, blockNumber: 1 }, console: false })).rejects.toThrow(
        /^option fork\.blockNumber: 1 is invalid \(the remote \(Ontology-.*\) answers state for its latest block only, whatever block is asked, so a fork of it cannot read state as of block 1\)\. Allowed: the remote's latest block, 3 \(leave blockNumber out to fork at it\)\.$/,
      )
      // At its head it forks.
      const fork = await createDevnet({ fork: { url }, console: false })
      expect(await fork.rpc('eth_blockNumber')).toBe('0x3')
      await fork.close()
    } finally {
      await node.close()
    }
  })
})
