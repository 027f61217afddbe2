/**
 * The `dualnet` program (spec: `--rest`, `--restport`; reference §0 ports): started
 * as a child process, queried on both interfaces, stopped with SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { CLI, freePort, rpcCall, start, waitFor } from './cli-support.ts'

describe('dualnet CLI', () => {
  it('serves both interfaces on the given ports, logs requests, and stops on SIGTERM within a second', async () => {
    const [restPort, rpcPort] = [await freePort(), await freePort()]
    const cli = start(['--rest', '--restport', String(restPort), '--rpcport', String(rpcPort), '--accounts', '2'])
    await waitFor(() => cli.output().includes('REST '))
    const out = cli.output()
    expect(out).toContain(`JSON-RPC  http://127.0.0.1:${rpcPort}`)
    expect(out).toContain(`REST      http://127.0.0.1:${restPort}`)
    expect(out).toContain('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  Adz3Kx9bTKvCH936JGy96QShjWdyYCdggn')
    expect(out).toContain('private key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

    const rpc = await fetch(`http://127.0.0.1:${rpcPort}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(await rpc.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
    const rest = await fetch(`http://127.0.0.1:${restPort}/api/v1/block/height`)
    expect(await rest.json()).toEqual({ Action: 'getblockheight', Desc: 'SUCCESS', Error: 0, Result: 0, Version: '1.0.0' })
    // The request lines: the JSON-RPC method; the REST route's Action and Error code (shapes: test/request-log.test.ts).
    await waitFor(() => /rest GET \/api\/v1\/block\/height [\d.]+ms getblockheight Error 0\n/.test(cli.output()))
    expect(cli.output()).toMatch(/ rpc eth_chainId [\d.]+ms\n/)

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
    expect(bad.output().trim()).toBe("dualnet: option '--rpcport <port>' argument 'abc' is invalid. Allowed: a whole number from 0 to 65,535.")
    expect(await unknown.exited).toBe(1)
    expect(unknown.output().trim()).toBe("dualnet: unknown option '--frobnicate'")
    expect(await busy.exited).toBe(1)
    expect(busy.output().trim().split('\n')).toHaveLength(1)
    expect(busy.output()).toMatch(new RegExp(`^dualnet: the JSON-RPC port is in use: .*${port}\\. Pass --rpcport 0 for any free port`))
    blocker.close()
  })
})

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

const rpcUrlOf = (output: string) => /^JSON-RPC {2}(http:\S+)$/m.exec(output)![1]!

describe('dualnet CLI output', () => {
  it('prints the native dev accounts in the forms the SDK takes, and a line per mined block before the request that mined it', async () => {
    const cli = start(['--rpcport', '0', '--accounts', '1'])
    await waitFor(() => cli.output().includes('REST '))
    const out = cli.output()
    expect(out).not.toContain('\x1b[') // not a terminal: no colour
    const native = [...out.matchAll(/^\((\d+)\) (A\w{33}) {2}(0x[0-9a-f]{40})\n {4}private key ([0-9a-f]{64}) {2}WIF (\w+)$/gm)]
    expect(native.map((m) => m[1])).toEqual(['0', '1', '2', '3', '4'])
    expect(native[0]![2]).toBe('AK9eJaa1zqNPP6ow1Q4iNM42Gcd473kyGP')
    for (const [, , base58, address, hex, wif] of native) {
      // The SDK derives the same address from the printed key, and reads the same key from the WIF.
      const key = new sdk.Crypto.PrivateKey(hex!)
      const derived = sdk.Crypto.Address.fromPubKey(key.getPublicKey())
      expect(derived.toBase58()).toBe(base58)
      expect(`0x${derived.serialize()}`).toBe(address) // the same 20 bytes, in 0x form
      expect(sdk.Crypto.PrivateKey.deserializeWIF(wif!).key).toBe(hex)
      expect(key.serializeWIF()).toBe(wif)
    }

    const url = rpcUrlOf(out)
    await rpcCall(url, 'eth_sendTransaction', [{ from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1', gasPrice: '0x3b9aca00' }])
    const snapshot = await rpcCall(url, 'evm_snapshot')
    await rpcCall(url, 'hardhat_mine', ['0x64'])
    await rpcCall(url, 'hardhat_mine', ['0x2'])
    await rpcCall(url, 'evm_revert', [snapshot])
    await rpcCall(url, 'hardhat_reset')
    await rpcCall(url, 'evm_mine')
    // The timestamped lines, without their timestamps and durations.
    const logged = () =>
      cli
        .output()
        .split('\n')
        .filter((l) => /^\d{4}-\d\d-\d\dT/.test(l))
        .map((l) => l.replace(/^\S+ /, '').replace(/ [\d.]+ms$/, ''))
    await waitFor(() => logged().length >= 14)
    const lines = logged()
    expect(lines).toHaveLength(14)
    expect(lines[0]).toMatch(/^block 1 {2}0x[0-9a-f]{64} {2}1 EVM \+ 0 native txs {2}gas used 21,000 {2}time \d+$/)
    expect(lines.slice(1, 3)).toEqual(['rpc eth_sendTransaction', 'rpc evm_snapshot'])
    expect(lines[3]).toMatch(/^blocks 2–101 mined \(100 blocks, the last at \d+\)$/)
    expect(lines[4]).toBe('rpc hardhat_mine')
    expect(lines[5]).toMatch(/^block 102 {2}empty {2}time \d+$/)
    expect(lines[6]).toMatch(/^block 103 {2}empty {2}time \d+$/)
    expect(lines.slice(7, 12)).toEqual(['rpc hardhat_mine', 'chain reverted to block 1', 'rpc evm_revert', 'chain reset to a new genesis', 'rpc hardhat_reset'])
    // After hardhat_reset the CLI follows the new chain (devnet.chain is replaced).
    expect(lines[12]).toMatch(/^block 1 {2}empty {2}time \d+$/)
    expect(lines[13]).toBe('rpc evm_mine')
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
  })

  it('prints no request or block lines with --quiet, and examples with --help', async () => {
    const [quiet, help] = [start(['--rpcport', '0', '--accounts', '1', '--quiet']), start(['--help'])]
    expect(await help.exited).toBe(0)
    expect(help.output()).toContain('-q, --quiet')
    expect(help.output()).toContain('Examples:\n  $ dualnet --rest ')
    expect(help.output()).toContain('$ dualnet --rest --restport 0 --rpcport 0 --quiet')
    expect(help.output()).toContain('NO_COLOR')

    await waitFor(() => quiet.output().includes('REST '))
    const url = rpcUrlOf(quiet.output())
    const before = quiet.output()
    await rpcCall(url, 'evm_mine')
    expect(await rpcCall(url, 'eth_blockNumber')).toBe('0x1')
    // Past the block reporter's timer period (250 ms), had it been running.
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(quiet.output()).toBe(before)
    quiet.child.kill('SIGTERM')
    expect(await quiet.exited).toBe(0)
  })

  const hasScript = spawnSyncOk('script', ['--version'])
  it.skipIf(!hasScript)('colours on a terminal, and not with NO_COLOR set', async () => {
    // `script` gives the CLI a pseudo-terminal, and ends it when terminated itself.
    const onTerminal = (env: NodeJS.ProcessEnv) => {
      const command = [process.execPath, '--import', 'tsx', CLI, '--rpcport', '0', '--accounts', '1'].join(' ')
      const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      let text = ''
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      return {
        output: () => text,
        stop: () => {
          child.kill('SIGTERM')
          return exited
        },
      }
    }
    // Node's styleText also asks the environment (getColorDepth): a CI variable or no TERM
    // means no colour even on a terminal, so the test sets both as a developer's shell has them.
    const { NO_COLOR: _, FORCE_COLOR: __, CI: ___, NODE_DISABLE_COLORS: ____, ...rest } = process.env
    const env = { ...rest, TERM: 'xterm-256color' }
    const colour = onTerminal(env)
    const plain = onTerminal({ ...env, NO_COLOR: '1' })
    try {
      await waitFor(() => colour.output().includes('off (enable with --rest)') && plain.output().includes('off (enable with --rest)'))
    } finally {
      await Promise.all([colour.stop(), plain.stop()])
    }
    expect(colour.output()).toContain('\x1b[1mdualnet v')
    expect(colour.output()).toContain('\x1b[36m0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\x1b[39m')
    expect(plain.output()).toContain('dualnet v')
    expect(plain.output()).not.toContain('\x1b[')
  })
})

function spawnSyncOk(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0
}
