/**
 * The CLI's state files are checked before anything starts (issue 35, item 8):
 * `--load-state` reads at most `--state-limit` bytes of any kind of file (a pipe, a
 * device such as /dev/zero: read to the end before, until memory ran out), and the
 * directory of `--dump-state` / `--state` must take the file at start-up, not only at
 * exit, when the state would be lost. Each refusal is one line naming the flag, exit
 * code 1, and no server started.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { start, stop, waitFor } from './cli-support.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dualnet-state-flags-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FLAGS = ['--rpcport', '0', '--quiet', '--accounts', '1']

/** Runs the CLI with `args`, expecting it to refuse at start: resolves to its output. (One that serves instead is killed.) */
async function refused(args: string[]): Promise<string> {
  const cli = start([...FLAGS, ...args])
  await waitFor(() => cli.child.exitCode !== null || /JSON-RPC\s+http/.test(cli.output()))
  if (cli.child.exitCode === null) cli.child.kill('SIGKILL')
  expect(await cli.exited).toBe(1)
  expect(cli.output()).not.toContain('JSON-RPC ')
  return cli.output().trim()
}

describe('--load-state reads at most --state-limit bytes of any file', () => {
  it('/dev/zero: refused after the limit, naming the flags', async () => {
    expect(await refused(['--load-state', '/dev/zero', '--state-limit', '1048576'])).toBe(
      'dualnet: --load-state /dev/zero: the file holds more than 1048576 bytes, the most a state document may have (--state-limit)',
    )
  }, 60_000)

  it('a named pipe whose writer sends 3 MiB: refused at 1 MiB; a pipe holding a document within the limit loads', async () => {
    const fifo = join(dir, 'pipe')
    const made = spawn('mkfifo', [fifo])
    await new Promise((resolve) => made.once('exit', resolve))
    // The writer: 3 MiB of spaces, written as the CLI reads them.
    const writer = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(fifo)}, ' '.repeat(3 * 1024 * 1024))`])
    writer.on('error', () => {})
    expect(await refused(['--load-state', fifo, '--state-limit', '1048576'])).toBe(
      `dualnet: --load-state ${fifo}: the file holds more than 1048576 bytes, the most a state document may have (--state-limit)`,
    )
    writer.kill()
    const account = '0x00000000000000000000000000000000000000aa'
    const small = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(fifo)}, ${JSON.stringify(JSON.stringify({ accounts: { [account]: { balance: '0x7', nonce: 0 } } }))})`])
    const cli = start([...FLAGS, '--load-state', fifo, '--state-limit', '1048576'])
    await waitFor(() => /JSON-RPC\s+http/.test(cli.output()) || cli.child.exitCode !== null)
    const url = /JSON-RPC\s+(http:\S+)/.exec(cli.output())?.[1]
    expect(url, cli.output()).toBeDefined()
    const answer = await fetch(url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [account, 'latest'] }),
    })
    expect(((await answer.json()) as { result: string }).result).toBe('0x7')
    expect(await stop(cli)).toBe(0)
    small.kill()
  }, 60_000)

  it('a file that is no state document, a directory, a missing file: one line naming --load-state', async () => {
    writeFileSync(join(dir, 'deep.json'), '['.repeat(200))
    expect(await refused(['--load-state', join(dir, 'deep.json')])).toBe(
      `dualnet: --load-state ${join(dir, 'deep.json')}: the file holds no state document: state document nested deeper than 100 levels (--json-depth-limit)`,
    )
    expect(await refused(['--load-state', dir])).toMatch(new RegExp(`^dualnet: --load-state ${dir}: the file cannot be read: EISDIR`))
    expect(await refused(['--load-state', join(dir, 'missing.json')])).toMatch(new RegExp(`^dualnet: --load-state ${dir}/missing.json: the file cannot be read: ENOENT`))
  }, 60_000)
})

describe('--dump-state and --state: the file can be written, checked at start', () => {
  it.each([
    [['--dump-state', '/proc/x/y'], 'dualnet: --dump-state /proc/x/y: the state cannot be written there: its directory /proc/x does not exist'],
    [['--state', '/proc/x/y'], 'dualnet: --state /proc/x/y: the state cannot be written there: its directory /proc/x does not exist'],
  ])(
    '%j: refused before anything starts',
    async (args, line) => {
      expect(await refused(args)).toBe(line)
    },
    60_000,
  )

  it('a directory, and a path under a file: refused; a good path leaves no file behind until the exit writes it', async () => {
    expect(await refused(['--dump-state', dir])).toBe(`dualnet: --dump-state ${dir}: the state cannot be written there: it is a directory`)
    writeFileSync(join(dir, 'plain'), '')
    expect(await refused(['--dump-state', join(dir, 'plain', 'state.json')])).toBe(
      `dualnet: --dump-state ${join(dir, 'plain', 'state.json')}: the state cannot be written there: ${join(dir, 'plain')} is not a directory`,
    )
    const target = join(dir, 'out', 'state.json')
    rmSync(join(dir, 'out'), { recursive: true, force: true })
    mkdirSync(join(dir, 'out'))
    const cli = start([...FLAGS, '--dump-state', target])
    await waitFor(() => /JSON-RPC\s+http/.test(cli.output()) || cli.child.exitCode !== null)
    expect(readdirSync(join(dir, 'out'))).toEqual([])
    expect(await stop(cli)).toBe(0)
    expect(existsSync(target)).toBe(true)
    expect(readdirSync(join(dir, 'out'))).toEqual(['state.json'])
  }, 60_000)
})
