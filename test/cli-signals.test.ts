/**
 * SIGINT and SIGTERM stop the `dualnet` process in every state (issue 35, items 3 and
 * 7): while it waits on a fork remote that never answers, at start-up and with a
 * transaction of a client waiting on it, and a second signal ends it at once. (In the
 * middle of a trace: test/trace-signals.test.ts; while a large --db opens:
 * test/stress/cli-signals-db.test.ts.) The remote is a loopback server that takes
 * requests and never answers them; the figures printed are the time from the signal
 * to the exit, which the issue bounds at 2 s (the assertions allow for a busy machine).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCli } from '../src/cli/main.ts'
import type { StopSignals } from '../src/cli/stopSignals.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { rpcCall, start, waitFor, type RunningCli } from './cli-support.ts'

/** A loopback JSON-RPC server in front of `target` (or of nothing) that forwards until `hang` is set, then keeps every request unanswered. */
class HangingRemote {
  hang: boolean
  /** Requests held unanswered so far. */
  held = 0
  readonly #server: Server
  readonly #open: ServerResponse[] = []
  constructor(target: string | undefined) {
    this.hang = target === undefined
    this.#server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      if (this.hang || target === undefined) {
        this.held++
        this.#open.push(res)
        return
      }
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
  }
  async listen(): Promise<string> {
    this.#server.listen(0, '127.0.0.1')
    await once(this.#server, 'listening')
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }
  close(): Promise<void> {
    for (const res of this.#open) res.destroy()
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

/**
 * Sends `signal` and resolves to the exit status as a shell reports it (the exit code,
 * or 128 + the number of the signal that ended the process) and the milliseconds until
 * the exit; SIGKILL after 30 s (then 137).
 */
async function signalled(cli: RunningCli, signal: NodeJS.Signals): Promise<{ code: number; ms: number }> {
  const sent = performance.now()
  cli.child.kill(signal)
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), 30_000)
  const code = await cli.exited
  clearTimeout(timer)
  return { code: code ?? 128 + constants.signals[cli.child.signalCode!], ms: Math.round(performance.now() - sent) }
}

const FLAGS = ['--rpcport', '0', '--quiet', '--accounts', '1', '--no-fork-cache']

let remote: Devnet
let remoteUrl: string
beforeAll(async () => {
  remote = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false })
  remoteUrl = (await remote.listen()).rpcUrl
})
afterAll(async () => {
  await remote?.close()
})

describe('signals while the CLI waits on a fork remote that never answers', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s at start-up, while the remote holds the first request: exit code 0',
    async (signal) => {
      const hanging = new HangingRemote(undefined)
      const cli = start([...FLAGS, '--fork-url', await hanging.listen()])
      try {
        await waitFor(() => hanging.held > 0 || cli.child.exitCode !== null)
        const { code, ms } = await signalled(cli, signal)
        console.log(`${signal} while the fork's first request hangs: exit ${code} after ${ms} ms`)
        expect(code).toBe(0)
      } finally {
        await hanging.close()
      }
    },
    60_000,
  )

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while a transaction waits on the remote: exit code 0',
    async (signal) => {
      const { cli, proxy, sent } = await waitingOnRemote()
      try {
        const { code, ms } = await signalled(cli, signal)
        console.log(`${signal} while a transaction waits on the remote: exit ${code} after ${ms} ms`)
        expect(code).toBe(0)
        // A transaction waiting on the remote no longer holds the chain's queue (chain/queue.ts), so the close
        // does not wait on it; the bounded stop (the 1.5 s and its line) is for a close that would.
        expect(cli.output()).not.toMatch(/the devnet is closed|Error:/)
        expect(await sent).toBe('no answer')
      } finally {
        await proxy.close()
      }
    },
    60_000,
  )
})

/** The CLI forking the remote through a {@link HangingRemote}, with a transaction whose mining waits on it. */
async function waitingOnRemote(): Promise<{ cli: RunningCli; proxy: HangingRemote; sent: Promise<unknown> }> {
  const proxy = new HangingRemote(remoteUrl)
  const cli = start([...FLAGS, '--fork-url', await proxy.listen()])
  await waitFor(() => /JSON-RPC\s+http/.test(cli.output()) || cli.child.exitCode !== null)
  const url = /JSON-RPC\s+(http:\S+)/.exec(cli.output())?.[1]
  if (url === undefined) throw new Error(`the CLI did not start:\n${cli.output()}`)
  const [from] = (await rpcCall(url, 'eth_accounts')) as string[]
  proxy.hang = true
  // The recipient's account is not fetched yet: mining the transaction waits on the remote.
  const sent = rpcCall(url, 'eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000c0ffee35', value: '0x1' }]).catch(() => 'no answer')
  await waitFor(() => proxy.held > 0)
  return { cli, proxy, sent }
}

describe('a signal while --load-state waits on a named pipe without a writer', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    "%s: exit code 0 (the open does not hold one of libuv's threads, which process.exit would wait for)",
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'dualnet-signals-'))
      try {
        const fifo = join(dir, 'pipe')
        const made = spawn('mkfifo', [fifo])
        await once(made, 'exit')
        const cli = start([...FLAGS, '--load-state', fifo])
        // Started and waiting: nothing shows it from outside but time; a signal before the wait ends it the same way.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const { code, ms } = await signalled(cli, signal)
        console.log(`${signal} while --load-state waits on a pipe: exit ${code} after ${ms} ms`)
        expect(code).toBe(0)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    60_000,
  )
})

describe('a second signal', () => {
  // Stopped (SIGSTOP), the process takes both signals when it goes on, so the second comes
  // while the first one's stop writes a state of 20,000 accounts (over 4 MiB: several turns
  // of the event loop), on any machine. (A stop with nothing to do ends within one turn of
  // the event loop, before a second signal is read.)
  it('SIGINT and SIGTERM together, while the stop writes --dump-state: the second ends the process at once (status 128 + its number)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dualnet-signals-'))
    try {
      const accounts: Record<string, unknown> = {}
      for (let i = 1; i <= 20_000; i++) accounts[`0x${i.toString(16).padStart(40, '0')}`] = { balance: '0x1', nonce: 1, storage: { '0x01': '0x02', '0x03': '0x04' } }
      writeFileSync(join(dir, 'big.json'), JSON.stringify({ accounts }))
      const cli = start(['--rpcport', '0', '--quiet', '--accounts', '1', '--load-state', join(dir, 'big.json'), '--dump-state', join(dir, 'out.json')])
      await waitFor(() => /JSON-RPC\s+http/.test(cli.output()) || cli.child.exitCode !== null, 60_000)
      cli.child.kill('SIGSTOP')
      cli.child.kill('SIGTERM')
      cli.child.kill('SIGINT')
      const { code, ms } = await signalled(cli, 'SIGCONT')
      const first = /^(SIG\w+): stopping/m.exec(cli.output())?.[1]
      const second = first === 'SIGINT' ? 'SIGTERM' : 'SIGINT'
      console.log(`${first} then ${second}: exit ${code} after ${ms} ms`)
      expect(cli.output()).toContain(`${second} again: exiting at once, without a clean stop`)
      expect(code).toBe(128 + constants.signals[second])
      expect(cli.child.signalCode).toBe(second)
      // The dump was cut short: no file, rather than half of one.
      expect(existsSync(join(dir, 'out.json'))).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 90_000)
})

describe('a signal while the devnet starts', () => {
  // The window of issue 35's item 7, made certain: the signal's stop runs as soon as it is
  // registered, after createDevnet and before listen, which then fails with "the devnet is closed".
  it('between createDevnet and listen: no error line, exit code 0 from the stop', async () => {
    const exits: number[] = []
    const errors: string[] = []
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => void exits.push(code)) as never)
    const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      let stopped: Promise<void> | undefined
      const signals: StopSignals = {
        stopping: true,
        onStop: (stop) => {
          stopped = stop().then(() => void exits.push(0))
        },
      }
      await runCli(['--rpcport', '0', '--quiet', '--accounts', '1'], signals)
      await stopped
      expect({ exits, errors }).toEqual({ exits: [0], errors: [] })
    } finally {
      exit.mockRestore()
      error.mockRestore()
      log.mockRestore()
    }
  })
})
