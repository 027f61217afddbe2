/**
 * The `dualnet` program (spec: `--rest`, `--restport`; reference §0 ports): started
 * as a child process, queried on both interfaces, stopped with SIGTERM.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function start(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: 'pipe' })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => text, exited }
}

async function waitFor(predicate: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting for the CLI')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('dualnet CLI', () => {
  it('serves both interfaces on the given ports, logs requests, and stops on SIGTERM within a second', async () => {
    const [restPort, rpcPort] = [await freePort(), await freePort()]
    const cli = start(['--rest', '--restport', String(restPort), '--rpcport', String(rpcPort), '--accounts', '2'])
    await waitFor(() => cli.output().includes('REST '))
    const out = cli.output()
    expect(out).toContain(`JSON-RPC  http://127.0.0.1:${rpcPort}`)
    expect(out).toContain(`REST      http://127.0.0.1:${restPort}`)
    expect(out).toContain('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266  Adz3Kx9bTKvCH936JGy96QShjWdyYCdggn')
    expect(out).toContain('private key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

    const rpc = await fetch(`http://127.0.0.1:${rpcPort}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(await rpc.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
    const rest = await fetch(`http://127.0.0.1:${restPort}/api/v1/block/height`)
    expect(await rest.json()).toEqual({ Action: 'getblockheight', Desc: 'SUCCESS', Error: 0, Result: 0, Version: '1.0.0' })
    await waitFor(() => cli.output().includes('rest GET /api/v1/block/height 200'))
    expect(cli.output()).toContain('rpc POST / 200')

    const stopped = Date.now()
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
    expect(Date.now() - stopped).toBeLessThan(1000)
  })

  it('leaves REST off without --rest', async () => {
    const cli = start(['--rpcport', '0', '--accounts', '1'])
    await waitFor(() => cli.output().includes('REST '))
    expect(cli.output()).toContain('REST      off (enable with --rest)')
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(0)
  })

  it('refuses a bad flag and a port in use with one line and exit code 1', async () => {
    const blocker = createServer()
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)))
    // The three start in parallel: each spawn pays the TypeScript loader's start-up.
    const [bad, unknown, busy] = [start(['--rpcport', 'abc']), start(['--frobnicate']), start(['--rpcport', String(port)])]
    expect(await bad.exited).toBe(1)
    expect(bad.output().trim()).toBe("dualnet: option '--rpcport <port>' argument 'abc' is invalid. the JSON-RPC port must be a whole number")
    expect(await unknown.exited).toBe(1)
    expect(unknown.output().trim()).toBe("dualnet: unknown option '--frobnicate'")
    expect(await busy.exited).toBe(1)
    expect(busy.output().trim().split('\n')).toHaveLength(1)
    expect(busy.output()).toMatch(new RegExp(`^dualnet: .*in use.*${port}`))
    blocker.close()
  })
})
