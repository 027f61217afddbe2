/**
 * A hostile fork remote (issue 35, items 2, 3, 4, 5 and 8): a loopback server that
 * answers crafted JSON (test/fork-hostile-support.ts). Each break the probe found has a
 * test here: the fork fails the call with a ForkRemoteError that names it and says what
 * was wrong, keeps nothing of the bad answer, and goes on serving.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { RemoteNode } from '../src/fork/remote.ts'
import { restNativeFetcher } from '../src/fork/nativeFetcher.ts'
import { HEAD, HostileRemote, healthyBlock, streamSpaces } from './fork-hostile-support.ts'

const HOLDER = '0x00000000000000000000000000000000c0ffee21'

let remote: HostileRemote
let url: string

beforeAll(async () => {
  remote = new HostileRemote()
  url = await remote.listen()
})

afterAll(async () => {
  await remote?.close()
})

beforeEach(() => {
  remote.answer = undefined
  remote.exchange = undefined
})

/** A fork of the hostile remote with `remote` tuning; closed by `use`'s end. */
async function withFork(tuning: Record<string, number>, use: (fork: Devnet) => Promise<void>): Promise<void> {
  const fork = await createDevnet({ fork: { url, cache: false, remote: { retries: 0, timeout: 30_000, ...tuning } }, console: false })
  try {
    await use(fork)
  } finally {
    await fork.close()
  }
}

/** `message` of a refusal naming `call` to the hostile remote, ending in `reason`. */
function failed(call: string, reason: string): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^fork: the remote call ${literal(call)} to http://127\\.0\\.0\\.1:\\d+ failed: ${reason}`)
}

describe('bounded answers (issue 35, item 2)', () => {
  it('aborts an answer that streams past fork.remote.responseLimit, and serves on', async () => {
    let written = 0
    const total = 64 * 1024 * 1024
    remote.exchange = (res, calls) => {
      if (!calls.some((c) => c.method === 'eth_getBalance' && c.params[0] === HOLDER)) return false
      res.writeHead(200, { 'content-type': 'application/json' })
      void streamSpaces(res, total).then((n) => (written = n))
      return true
    }
    await withFork({ responseLimit: 1024 * 1024 }, async (fork) => {
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(
          failed(`eth_getBalance(${HOLDER}, 0x${HEAD.toString(16)})`, 'the answer is larger than 1048576 bytes \\(fork\\.remote\\.responseLimit\\); the request was aborted$'),
        ),
      })
      remote.exchange = undefined
      // Nothing of it kept: the same read asks again and gets the remote's answer.
      expect(await fork.rpc('eth_getBalance', [HOLDER, 'latest'])).toBe('0x0')
    })
    await expect.poll(() => written, { timeout: 30_000 }).toBeGreaterThan(0)
    // The fork stopped reading: the remote could not write the whole body.
    expect(written).toBeLessThan(total)
  })

  it('refuses an answer whose Content-Length passes the default limit before reading its body', async () => {
    remote.exchange = (res, calls) => {
      if (!calls.some((c) => c.method === 'eth_getBalance' && c.params[0] === HOLDER)) return false
      // 600 MiB announced (above the engine's longest string), 1 KiB sent; the rest never comes.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) })
      res.write(' '.repeat(1024))
      return true
    }
    await withFork({ timeout: 10_000 }, async (fork) => {
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(failed(`eth_getBalance(${HOLDER}, 0x${HEAD.toString(16)})`, `the answer is larger than ${256 * 1024 * 1024} bytes`)),
      })
    })
  })
})

describe('retries bounded (issue 35, item 3)', () => {
  /** Answers every exchange that asks about HOLDER with `status` and `retryAfter`; counts them. */
  function refuseHolder(status: number, retryAfter: string): { count: number } {
    const seen = { count: 0 }
    remote.exchange = (res, calls) => {
      if (!calls.some((c) => c.params[0] === HOLDER)) return false
      seen.count++
      res.writeHead(status, { 'retry-after': retryAfter }).end('slow down')
      return true
    }
    return seen
  }

  it('caps a 429 Retry-After of an hour at fork.remote.retryWaitLimit, and says so', async () => {
    await withFork({ retries: 3, retryWaitLimit: 20 }, async (fork) => {
      const seen = refuseHolder(429, '3600')
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(
          failed(
            `eth_getBalance(${HOLDER}, 0x${HEAD.toString(16)})`,
            'HTTP 429 Too Many Requests, Retry-After 3600 s \\(waits are capped at 20 ms: fork\\.remote\\.retryWaitLimit\\) \\(4 attempts\\)$',
          ),
        ),
      })
      // Three retries, as configured; each waited 20 ms, not an hour.
      expect(seen.count).toBe(4)
    })
  }, 60_000)

  it('stops retrying when fork.remote.retryBudget is spent, however many retries are allowed', async () => {
    await withFork({ retries: 100, retryBudget: 300 }, async (fork) => {
      const seen = refuseHolder(503, '0.1')
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(
          failed(`eth_getBalance(${HOLDER}, 0x${HEAD.toString(16)})`, 'HTTP 503 Service Unavailable \\(\\d+ attempts?; the retry budget of 300 ms is spent: fork\\.remote\\.retryBudget\\)$'),
        ),
      })
      expect(seen.count).toBeLessThan(101)
      remote.exchange = undefined
      expect(await fork.rpc('eth_getBalance', [HOLDER, 'latest'])).toBe('0x0')
    })
  }, 60_000)
})

/** `createDevnet` forking the hostile remote (no retries); rejects as the fork's start does. */
function startFork(fork: Record<string, unknown> = {}): Promise<Devnet> {
  return createDevnet({ fork: { url, cache: false, remote: { retries: 0 }, ...fork }, console: false })
}

/** Makes the remote answer `method` with `result`, every other call as the healthy chain. */
function answerWith(method: string, result: unknown): void {
  remote.answer = (call) => (call.method === method ? { result } : undefined)
}

describe('values checked at fork start (issue 35, items 4 and 8)', () => {
  const cases: [what: string, method: string, result: unknown, call: string, reason: string][] = [
    [
      'a head beyond u32 (the fork block is a native block)',
      'eth_blockNumber',
      `0x1${'0'.repeat(20)}`,
      'eth_blockNumber()',
      'the answer "0x1000+" is above 4294967295, the largest height a native block header holds \\(u32, reference §5\\.1\\)$',
    ],
    ['a negative head', 'eth_blockNumber', '0x-5', 'eth_blockNumber()', 'the answer "0x-5" is not a quantity \\(0x and hex digits\\)$'],
    [
      'a chain id beyond 2^53 - 1',
      'eth_chainId',
      `0x${'f'.repeat(40)}`,
      'eth_chainId()',
      'the answer "0xf+" is above 9007199254740991 \\(2\\^53 - 1\\), the largest chain id the devnet holds exactly',
    ],
    ['a chain id of 0', 'eth_chainId', '0x0', 'eth_chainId()', 'the answer "0x0" is below 1$'],
    ['a chain id that is an object', 'eth_chainId', {}, 'eth_chainId()', 'the answer \\{\\} is not a quantity'],
    ['a net_version that is not decimal', 'net_version', 'x'.repeat(2_000), 'net_version()', 'the answer "x+… is not a decimal string$'],
    ['a client version that is not a string', 'web3_clientVersion', 7, 'web3_clientVersion()', 'the answer 7 is not a string$'],
    ['a genesis block that is not an object', 'eth_getBlockByNumber', 'block', 'eth_getBlockByNumber(0x0, false)', 'the answer "block" is not a block object$'],
  ]
  it.each(cases)('refuses %s, naming the call', async (_what, method, result, call, reason) => {
    answerWith(method, result)
    await expect(startFork()).rejects.toMatchObject({ name: 'ForkRemoteError', message: expect.stringMatching(failed(call, reason)) })
  })

  it('refuses a fork block whose number, timestamp or hash is out of range, naming the field', async () => {
    const block = (fields: Record<string, unknown>) => (call: { method: string; params: unknown[] }) =>
      call.method === 'eth_getBlockByNumber' && call.params[0] === '0x5' ? { result: { ...healthyBlock(HEAD), ...fields } } : undefined
    remote.answer = block({ number: '0x4' })
    await expect(startFork()).rejects.toThrow(failed('eth_getBlockByNumber(0x5, false)', 'the answer\'s number "0x4" is not the block asked for \\(0x5\\)$'))
    remote.answer = block({ timestamp: `0x1${'0'.repeat(8)}` })
    await expect(startFork()).rejects.toThrow(failed('eth_getBlockByNumber(0x5, false)', 'the answer\'s timestamp "0x100000000" is above 4294967295, the largest timestamp'))
    remote.answer = block({ hash: '0x12' })
    await expect(startFork()).rejects.toThrow(failed('eth_getBlockByNumber(0x5, false)', 'the answer\'s hash "0x12" is not a 32-byte hash'))
  })

  it('takes a head beyond u32 when blockNumber picks a fork block within it, and refuses one beyond u64', async () => {
    answerWith('eth_blockNumber', `0x1${'0'.repeat(10)}`)
    const fork = await startFork({ blockNumber: HEAD })
    try {
      expect(await fork.rpc('eth_blockNumber')).toBe(`0x${HEAD.toString(16)}`)
    } finally {
      await fork.close()
    }
    answerWith('eth_blockNumber', `0x1${'0'.repeat(16)}`)
    await expect(startFork({ blockNumber: HEAD })).rejects.toThrow(failed('eth_blockNumber()', 'the answer "0x10+" is above 18446744073709551615, the largest EVM block number \\(u64\\)$'))
  })

  it('refuses a REST network id beyond u32', async () => {
    remote.rest = (path) => (path === '/api/v1/networkid' ? 2 ** 40 : undefined)
    try {
      await expect(startFork({ restUrl: url })).rejects.toThrow(failed('GET /api/v1/networkid', "the answer's Result 1099511627776 is above 4294967295, the largest network id \\(u32\\)$"))
    } finally {
      remote.rest = undefined
    }
  })
})

/** Code that returns storage slot 0: PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const SLOT0_READER = '0x60005460005260206000f3'
const READER = '0x00000000000000000000000000000000c0ffee22'
const SLOT0 = `0x${'0'.repeat(64)}`

describe('values checked at run time (issue 35, items 5 and 8)', () => {
  it('refuses a storage value longer than 32 bytes and keeps nothing of it: once the remote is fixed, reads and transactions use the slot', async () => {
    const long = `0x${'ab'.repeat(33)}`
    remote.answer = (call) => (call.method === 'eth_getCode' && call.params[0] === READER ? { result: SLOT0_READER } : call.method === 'eth_getStorageAt' ? { result: long } : undefined)
    await withFork({}, async (fork) => {
      const refusal = failed(`eth_getStorageAt(${READER}, ${SLOT0}, 0x${HEAD.toString(16)})`, `the answer "0x(ab)+" is 33 bytes, more than a storage slot holds \\(32\\)$`)
      await expect(fork.rpc('eth_getStorageAt', [READER, '0x0', 'latest'])).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(refusal) })
      await expect(fork.rpc('eth_call', [{ to: READER, data: '0x' }, 'latest'])).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(refusal) })
      // The remote fixed: the slot is fetched again, not poisoned (it used to answer `offset is out of bounds` for good).
      const word = `0x${'00'.repeat(31)}07`
      remote.answer = (call) => (call.method === 'eth_getCode' && call.params[0] === READER ? { result: SLOT0_READER } : call.method === 'eth_getStorageAt' ? { result: word } : undefined)
      expect(await fork.rpc('eth_getStorageAt', [READER, '0x0', 'latest'])).toBe(word)
      expect(await fork.rpc('eth_call', [{ to: READER, data: '0x' }, 'latest'])).toBe(word)
      const hash = await fork.rpc('eth_sendTransaction', [{ from: fork.accounts[0]!.address, to: READER, gas: '0x186a0' }])
      expect((await fork.rpc('eth_getTransactionReceipt', [hash]))?.status).toBe('0x1')
    })
  })

  const accountCases: [what: string, method: string, result: unknown, reason: string][] = [
    ['a balance above 2^256 - 1', 'eth_getBalance', `0x1${'0'.repeat(64)}`, 'the answer "0x10+" is above 2\\^256 - 1, the largest EVM word$'],
    ['a nonce above 2^64 - 1 (EIP-2681)', 'eth_getTransactionCount', `0x1${'0'.repeat(16)}`, 'the answer "0x10+" is above 2\\^64 - 1, the largest nonce \\(EIP-2681\\)$'],
    ['a negative nonce', 'eth_getTransactionCount', '0x-1', 'the answer "0x-1" is not a quantity \\(0x and hex digits\\)$'],
    ['code beyond EIP-170', 'eth_getCode', `0x${'00'.repeat(24_577)}`, 'the answer "0x0+… is 24577 bytes, more than an account\'s code \\(EIP-170\\) holds \\(24576\\)$'],
  ]
  it.each(accountCases)('refuses %s, naming the call, and keeps nothing of the account', async (_what, method, result, reason) => {
    remote.answer = (call) => (call.method === method && call.params[0] === HOLDER ? { result } : undefined)
    await withFork({}, async (fork) => {
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(failed(`${method}(${HOLDER}, 0x${HEAD.toString(16)})`, reason)),
      })
      remote.answer = undefined
      expect(await fork.rpc('eth_getTransactionCount', [HOLDER, 'latest'])).toBe('0x0')
    })
  })

  it('quotes a malformed JSON-RPC error object rather than templating it', async () => {
    remote.answer = (call) => (call.method === 'eth_getBalance' && call.params[0] === HOLDER ? ({ error: { code: 'x', message: { a: 1 } } } as never) : undefined)
    await withFork({}, async (fork) => {
      await expect(fork.rpc('eth_getBalance', [HOLDER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(failed(`eth_getBalance(${HOLDER}, 0x${HEAD.toString(16)})`, 'the remote answered the malformed error \\{"code":"x","message":\\{"a":1\\}\\}$')),
      })
    })
  })

  it('refuses a REST main balance beyond the total supply (a million digits), naming the route', async () => {
    const holder = HOLDER.slice(2)
    const native = restNativeFetcher(new RemoteNode(url, { retries: 0 }, url))
    remote.rest = (path) => (path.startsWith('/api/v1/balancev2/') ? { ont: '9'.repeat(1_000_000), ong: '0' } : undefined)
    try {
      await expect(native.main(holder)).rejects.toThrow(
        /^fork: the remote call GET \/api\/v1\/balancev2\/\w+ to http:\/\/127\.0\.0\.1:\d+ failed: the answer's Result\.ont "9+… is above 1000000000000000000, the main token's total supply in v2 units \(reference §4\.1\)$/,
      )
      remote.rest = (path) => (path.startsWith('/api/v1/balancev2/') ? { ont: '-1', ong: '0' } : undefined)
      await expect(native.main(holder)).rejects.toThrow(/failed: the answer's Result\.ont "-1" is not a decimal amount \(a string of digits\)$/)
      remote.rest = (path) => (path.startsWith('/api/v1/allowancev2/') ? `1${'0'.repeat(20)}` : undefined)
      await expect(native.allowance('main', holder, holder)).rejects.toThrow(/failed: the answer's Result "10+" is above 2\^64 - 1, the largest v1 amount \(u64, reference §2\.5\)$/)
      remote.rest = (path) => (path.startsWith('/api/v1/balancev2/') ? { ont: '12', ong: '0' } : undefined)
      expect(await native.main(holder)).toBe(12n)
    } finally {
      remote.rest = undefined
    }
  })
})

describe('hardhat_reset to a hostile remote (issue 35, item 4)', () => {
  it("refuses a remote whose head is beyond the chain's range and leaves the devnet exactly as it was", async () => {
    const devnet = await createDevnet({ console: false })
    try {
      await devnet.setBalance(HOLDER, { gas: 5n })
      await devnet.mine(2)
      const before = {
        head: await devnet.rpc('eth_getBlockByNumber', ['latest', false]),
        chainId: await devnet.rpc('eth_chainId'),
        balance: await devnet.rpc('eth_getBalance', [HOLDER, 'latest']),
      }
      for (const head of [`0x1${'0'.repeat(20)}`, '0x-5']) {
        answerWith('eth_blockNumber', head)
        await expect(devnet.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url } }])).rejects.toMatchObject({
          code: -32000,
          message: expect.stringMatching(failed('eth_blockNumber()', `the answer "${head.slice(0, 4)}`)),
        })
        expect(await devnet.rpc('eth_getBlockByNumber', ['latest', false])).toEqual(before.head)
        expect(await devnet.rpc('eth_chainId')).toBe(before.chainId)
        expect(await devnet.rpc('eth_getBalance', [HOLDER, 'latest'])).toBe(before.balance)
      }
      answerWith('eth_chainId', `0x${'f'.repeat(40)}`)
      await expect(devnet.rpc('anvil_reset', [{ forking: { jsonRpcUrl: url } }])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(failed('eth_chainId()', 'the answer "0xf+" is above')),
      })
      expect(await devnet.rpc('eth_chainId')).toBe(before.chainId)
      // A remote whose start answers pass but whose accounts do not: refused while the dev accounts are funded over it.
      answerWith('eth_getTransactionCount', '0x-1')
      await expect(devnet.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url } }])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(/^fork: the remote call eth_getTransactionCount\(0x[0-9a-f]{40}, 0x5\) to http:\/\/127\.0\.0\.1:\d+ failed: the answer "0x-1" is not a quantity/),
      })
      expect(await devnet.rpc('eth_getBlockByNumber', ['latest', false])).toEqual(before.head)
      expect(await devnet.rpc('eth_getBalance', [HOLDER, 'latest'])).toBe(before.balance)
      remote.answer = undefined
      await expect(devnet.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url, blockNumber: 2 ** 32 } }])).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('forking.blockNumber: 4294967296 is invalid (above 4294967295, the largest height a native block header holds (u32, reference §5.1))'),
      })
      expect(await devnet.rpc('eth_getBlockByNumber', ['latest', false])).toEqual(before.head)
      // Still a working devnet: it mines on from where it was.
      await devnet.mine()
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x3')
      // A healthy remote is taken.
      remote.answer = undefined
      expect(await devnet.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url } }])).toBe(true)
      expect(await devnet.rpc('eth_blockNumber')).toBe(`0x${HEAD.toString(16)}`)
    } finally {
      await devnet.close()
    }
  })
})
