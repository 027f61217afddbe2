/**
 * Helpers of the CLI tests: the program started as a child process (through tsx), its
 * output read as it comes, JSON-RPC and REST asked over HTTP.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

export const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/** A TCP port free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A running CLI: the child, everything it printed so far (stdout and stderr), its exit code. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams
  output: () => string
  exited: Promise<number | null>
}

/** Starts `dualnet <args>`. */
export function start(args: string[], env: NodeJS.ProcessEnv = process.env): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: 'pipe', env })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => text, exited }
}

/** Resolves once `predicate` holds; rejects after `ms` (generous: the machine may be busy). */
export async function waitFor(predicate: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting for the CLI')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Starts the CLI and waits for its banner's last line; resolves to it and its URLs. */
export async function started(args: string[]): Promise<RunningCli & { rpcUrl: string; restUrl: string | undefined }> {
  const cli = start(args)
  await waitFor(() => /^REST {6}.*$/m.test(cli.output()) || cli.child.exitCode !== null)
  const out = cli.output()
  const rpcUrl = /^JSON-RPC {2}(http:\S+)$/m.exec(out)?.[1]
  if (rpcUrl === undefined) throw new Error(`the CLI did not start:\n${out}`)
  return { ...cli, rpcUrl, restUrl: /^REST {6}(http:\S+)$/m.exec(out)?.[1] }
}

/** Stops a CLI with SIGTERM and resolves to its exit code. */
export function stop(cli: RunningCli): Promise<number | null> {
  cli.child.kill('SIGTERM')
  return cli.exited
}

/** A JSON-RPC answer: the result, or the error object. */
export type RpcAnswer = { result?: unknown; error?: { code: number; message: string } }

/** Sends one JSON-RPC request (or a batch, given an array of [method, params]) and resolves to the answer. */
export async function rpcAnswer(url: string, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as RpcAnswer
}

/** The result of a JSON-RPC request that must succeed. */
export async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const answer = await rpcAnswer(url, method, params)
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}
