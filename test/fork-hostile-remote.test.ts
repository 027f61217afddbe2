/**
 * A hostile fork remote (issue 35, items 2, 3, 4, 5 and 8): a loopback server that
 * answers crafted JSON (test/fork-hostile-support.ts). Each break the probe found has a
 * test here: the fork fails the call with a ForkRemoteError that names it and says what
 * was wrong, keeps nothing of the bad answer, and goes on serving.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { HEAD, HostileRemote, streamSpaces } from './fork-hostile-support.ts'

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
