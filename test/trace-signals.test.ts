/**
 * SIGINT and SIGTERM stop the `dualnet` process at once even in the middle of a
 * 6,000,000-gas trace (issue 23, item 2): the CLI's handler calls `devnet.close()`,
 * which stops the running trace instead of waiting for it, and the event loop is free
 * to receive the signal because EVM runs yield to it.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

async function stopMidTrace(signal: NodeJS.Signals): Promise<{ code: number | null; ms: number; trace: string }> {
  // An ephemeral port, read from the banner.
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--rpcport', '0', '--accounts', '1', '--quiet'], { stdio: 'pipe' })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let banner = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      banner += chunk.toString()
      const found = /JSON-RPC\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)
      if (found !== null) resolve(found[1]!)
    })
    void exited.then(() => reject(new Error(`the CLI exited before serving: ${banner}`)))
  })
  const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json())
  const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
  // Warm (the tracers load on the first trace), then the long one, with a minute of time limit.
  await post({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params: [{ from, to: from }, 'latest'] })
  const trace = post({ jsonrpc: '2.0', id: 2, method: 'debug_traceCall', params: [{ from, data: '0x5b600056', gas: '0x5b8d80' }, 'latest', { timeout: '60s' }] }).then(
    () => 'answered',
    () => 'connection closed',
  )
  await new Promise((resolve) => setTimeout(resolve, 500))
  const sent = performance.now()
  child.kill(signal)
  const code = await exited
  const ms = performance.now() - sent
  return { code, ms, trace: await trace }
}

describe('signals in the middle of a trace', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s stops the process without waiting for the trace, exit code 0',
    async (signal) => {
      const { code, ms, trace } = await stopMidTrace(signal)
      expect(code).toBe(0)
      // The trace was stopped, not run to its end and answered. The time bound is loose
      // (a busy machine stretches it; an idle one stops in well under 2 s) and only
      // catches a stop that waits for the trace's own minute.
      expect(trace).toBe('connection closed')
      expect(ms).toBeLessThan(20_000)
    },
    90_000,
  )
})
