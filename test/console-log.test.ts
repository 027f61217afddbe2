/**
 * Solidity console.log (issue 9, item 2): every overload of the ConsoleLogger
 * fixture prints the line Hardhat prints, for a mined transaction and an eth_call,
 * and for an eth_estimateGas that fails (as Hardhat, not one that succeeds); lines of reverted frames are printed as Hardhat does;
 * the feature changes no gas and no state; `console: false` silences, the default
 * writes to stdout.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Interface } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { ConsoleLogger } from '../fixtures/index.ts'
import { formatConsoleCall } from '../src/evm/console/format.ts'
import { consoleSelectorTable } from '../src/evm/console/signatures.ts'
import { isConsoleAddress } from '../src/evm/console/capture.ts'

const abi = new Interface(ConsoleLogger.abi as never)
const ONE = '0x5fbdb2315678afecb367f032d93f642f64180aa3'

/** The lines of one `logAll()` that leaves `counter` at `count`, sent by `sender` to `self`. */
function logAllLines(count: number, sender: string, self: string): string[] {
  return [
    '',
    '12345678901234567890123456789',
    '-42',
    'plain string',
    'true',
    ONE,
    '7',
    '-7',
    '0xc0ffee',
    '0xab',
    '0xdeadbeef',
    '0x0000000000000000000000000000000000000000000000000000000000000001',
    `count ${count}`,
    'big 115792089237316195423570985008687907853269984665640564039457584007913129639935',
    'name world!',
    'flag false',
    `owner ${sender}`,
    '5 true',
    // Hardhat turns %d into %s and util.format leaves the unmatched third %s as is.
    '2 + four = %s',
    `${self} 0x0000000000000000000000000000000000000000 true`,
    `1 two true ${ONE}`,
    "100% sure, 'quoted'",
  ]
}

async function setUp(options: Parameters<typeof createDevnet>[0]) {
  // A fixed genesis time too: two devnets created in different seconds (a busy machine) would differ in every block hash.
  const devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: 1_700_000_000, ...options })
  const from = devnet.accounts[0]!.address.toLowerCase()
  const deploy = (await devnet.request({ method: 'eth_sendTransaction', params: [{ from, data: ConsoleLogger.bytecode }] })) as string
  const receipt = (await devnet.request({ method: 'eth_getTransactionReceipt', params: [deploy] })) as { contractAddress: string }
  return { devnet, from, to: receipt.contractAddress }
}

async function send(devnet: Devnet, from: string, to: string, fn: string) {
  const hash = (await devnet.request({ method: 'eth_sendTransaction', params: [{ from, to, data: abi.encodeFunctionData(fn), gas: '0x100000' }] })) as string
  return (await devnet.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { gasUsed: string; status: string; logs: unknown[] }
}

describe('console.log', () => {
  let devnets: Devnet[] = []
  afterEach(async () => {
    await Promise.all(devnets.map((d) => d.close()))
    devnets = []
  })

  it('prints every overload of the fixture for a mined transaction and an eth_call', async () => {
    const lines: string[] = []
    const { devnet, from, to } = await setUp({ console: (line) => lines.push(line) })
    devnets.push(devnet)
    expect(lines).toEqual([])
    const receipt = await send(devnet, from, to, 'logAll')
    expect(receipt.status).toBe('0x1')
    expect(lines).toEqual(logAllLines(1, from, to))

    lines.length = 0
    const data = abi.encodeFunctionData('logAll')
    const result = await devnet.request({ method: 'eth_call', params: [{ from, to, data }, 'latest'] })
    expect(result).toBe(`0x${'2'.padStart(64, '0')}`)
    expect(lines).toEqual(logAllLines(2, from, to))

    // As Hardhat (EDR's handle_estimate_gas): a successful estimate prints nothing, the transaction that follows does.
    lines.length = 0
    await devnet.request({ method: 'eth_estimateGas', params: [{ from, to, data }] })
    expect(lines).toEqual([])
  })

  it('prints the lines of reverted frames, in order, as Hardhat does', async () => {
    const lines: string[] = []
    const { devnet, from, to } = await setUp({ console: (line) => lines.push(line) })
    devnets.push(devnet)
    await expect(devnet.request({ method: 'eth_call', params: [{ from, to, data: abi.encodeFunctionData('logThenRevert') }, 'latest'] })).rejects.toThrow('execution reverted: reverted after logging')
    expect(lines).toEqual(['before revert'])
    // A failing estimate prints its lines (once, not per bisection step).
    lines.length = 0
    await expect(devnet.request({ method: 'eth_estimateGas', params: [{ from, to, data: abi.encodeFunctionData('logThenRevert') }] })).rejects.toThrow('execution reverted: reverted after logging')
    expect(lines).toEqual(['before revert'])
    lines.length = 0
    const receipt = await send(devnet, from, to, 'logAroundRevert')
    expect(receipt.status).toBe('0x1')
    expect(lines).toEqual(['outer start', 'before revert', 'caught'])
  })

  it('changes neither gas nor state: the same receipts, estimates and storage with the console on and off', async () => {
    const lines: string[] = []
    const on = await setUp({ console: (line) => lines.push(line) })
    const off = await setUp({ console: false })
    devnets.push(on.devnet, off.devnet)
    expect(on.to).toBe(off.to)
    for (const fn of ['logAll', 'logAroundRevert', 'quiet']) {
      const data = abi.encodeFunctionData(fn)
      const estimates = await Promise.all([on, off].map(({ devnet, from, to }) => devnet.request({ method: 'eth_estimateGas', params: [{ from, to, data }] })))
      expect(estimates[0]).toBe(estimates[1])
      const [a, b] = [await send(on.devnet, on.from, on.to, fn), await send(off.devnet, off.from, off.to, fn)]
      expect(a).toEqual(b)
    }
    const slot = await Promise.all([on, off].map(({ devnet, to }) => devnet.request({ method: 'eth_getStorageAt', params: [to, '0x0', 'latest'] })))
    expect(slot[0]).toBe(slot[1])
    expect(slot[0]).toBe(`0x${'3'.padStart(64, '0')}`)
    // The console calls cost what a STATICCALL to an empty account costs: logAll
    // spends more than quiet, by their calls, and nothing else differs.
    const all = BigInt((await send(off.devnet, off.from, off.to, 'logAll')).gasUsed)
    const quiet = BigInt((await send(off.devnet, off.from, off.to, 'quiet')).gasUsed)
    expect(all).toBeGreaterThan(quiet)
    expect(lines.length).toBeGreaterThan(0)
  })

  it('writes to stdout by default and nothing with console: false', async () => {
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const loud = await setUp({})
      devnets.push(loud.devnet)
      await loud.devnet.request({ method: 'eth_call', params: [{ from: loud.from, to: loud.to, data: abi.encodeFunctionData('logThenRevert') }, 'latest'] }).catch(() => {})
      expect(spy.mock.calls).toEqual([['before revert']])
      spy.mockClear()
      const silent = await setUp({ console: false })
      devnets.push(silent.devnet)
      await send(silent.devnet, silent.from, silent.to, 'logAll')
      expect(spy).not.toHaveBeenCalled()
    } finally {
      spy.mockRestore()
    }
  })

  it('knows every selector of hardhat/console.sol and its legacy uint/int aliases', () => {
    const table = consoleSelectorTable()
    // 375 canonical signatures (Hardhat 3's table) + the legacy spellings of those with uint256/int256.
    expect([...new Set(table.values())].length).toBe(375)
    expect(table.get(0xf82c50f1)).toEqual(['uint256']) // log(uint256)
    expect(table.get(0xf5b1bba9)).toEqual(['uint256']) // log(uint), early console.sol
    expect(table.get(0x665bf134)).toEqual(['address', 'address', 'address', 'address'])
    expect(formatConsoleCall(Uint8Array.from([0x12, 0x34, 0x56, 0x78]))).toBeUndefined()
    expect(formatConsoleCall(Uint8Array.from([0xf8, 0x2c, 0x50, 0xf1, 1]))).toBeUndefined()
    expect(isConsoleAddress(Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f67', 'hex')))).toBe(true)
    expect(isConsoleAddress(Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f66', 'hex')))).toBe(false)
  })

  it('the CLI prints the lines on stdout', async () => {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer().once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const cli = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../src/cli.ts', import.meta.url)), '--rpcport', String(port), '--quiet'], { stdio: 'pipe' })
    let out = ''
    cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    cli.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    try {
      const until = Date.now() + 15_000
      while (!out.includes('JSON-RPC')) {
        if (Date.now() > until) throw new Error(`the CLI did not start: ${out}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      // A call straight to the console address is a console call too.
      const data = new Interface(['function log(string)']).encodeFunctionData('log', ['hello from the CLI'])
      const answer = await fetch(`http://127.0.0.1:${port}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x000000000000000000636F6e736F6c652e6c6f67', data }, 'latest'] }),
      })
      expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x' })
      const shown = Date.now() + 5_000
      while (!out.includes('hello from the CLI\n') && Date.now() < shown) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(out).toContain('hello from the CLI\n')
    } finally {
      cli.kill('SIGTERM')
    }
  })
})
