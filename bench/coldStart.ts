/**
 * `npm run bench`'s cold figures: what one fresh test file costs (the peer bench's W7),
 * in process (a fresh Node process imports dualnet and calls createDevnet()) and over
 * HTTP against the CLI as a user starts it (a fresh client process spawns `dualnet`,
 * polls it until it answers, then does the same work over JSON-RPC on loopback).
 *
 * One test file's work: the process's start (Node's own boot included) to the first
 * `eth_blockNumber` answer, the ERC20 fixture's deployment to its receipt, 100 transfers
 * each awaited to its receipt, then 500 `eth_call balanceOf`. Over HTTP, W1 is the
 * peer bench's: the server's spawn to its first reply.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { Interface, Wallet, getCreateAddress } from 'ethers'
import { Token } from '../fixtures/index.ts'

const execFileAsync = promisify(execFile)
const token = new Interface(Token.abi as never)

/** W7's share of the transfers and calls: what one test file does on a fresh devnet (the peer bench's W7). */
export const COLD_TRANSFERS = 100
export const COLD_CALLS = 500

/** The transactions and call data of one cold test file, signed in this process. */
export interface ColdFileWork {
  /** The Token deployment (nonce 0, chain 12345). */
  deploy: string
  /** COLD_TRANSFERS transfers of 1 token unit to distinct recipients (nonces 1…). */
  transfers: string[]
  /** balanceOf(recipient) call data, one per transfer. */
  calls: string[]
  /** The Token's address. */
  token: string
}

/** ms of each part of one cold test file; `imported` is from before `import(entry)` (or the CLI's spawn) to the first answer. */
export interface ColdFile {
  ready: number
  imported: number
  deploy: number
  transfers: number
  calls: number
}

/** Where a fresh process loads dualnet from: the built package or src/ through tsx. */
export interface ColdEntry {
  /** The library's entry module (dist/index.js or src/index.ts). */
  library: string
  /** The CLI's entry (dist/cli.js or src/cli.ts). */
  cli: string
  /** What the figures are of, for the report. */
  label: string
}

/**
 * What a fresh process loads for the cold figures: the module `BENCH_ENTRY` names (to
 * compare two builds; the CLI beside it, `cli.js` or `cli.ts`); else the built package
 * (dist/) when it is newer than every source file, as users load it; otherwise src/
 * through tsx (which adds its own transpiling to the figure, and says so).
 */
export function coldEntry(): ColdEntry {
  const chosen = process.env.BENCH_ENTRY
  if (chosen !== undefined) return { library: chosen, cli: join(chosen, '..', chosen.endsWith('.ts') ? 'cli.ts' : 'cli.js'), label: chosen }
  const root = fileURLToPath(new URL('..', import.meta.url))
  const dist = join(root, 'dist')
  const newest = (dir: string): number => Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)))
  if (existsSync(join(dist, 'index.js')) && statSync(join(dist, 'index.js')).mtimeMs >= newest(join(root, 'src'))) {
    return { library: join(dist, 'index.js'), cli: join(dist, 'cli.js'), label: 'dist' }
  }
  return { library: join(root, 'src', 'index.ts'), cli: join(root, 'src', 'cli.ts'), label: 'src through tsx: run `npm run build` for the dist figure' }
}

/** Signs {@link ColdFileWork} with `privateKey` (0x hex; dev account 0 of the default devnet). */
export async function coldFileWork(privateKey: string): Promise<ColdFileWork> {
  const wallet = new Wallet(privateKey)
  const deploy = await wallet.signTransaction({
    type: 0,
    chainId: 12345,
    nonce: 0,
    gasPrice: 1_000_000_000n,
    gasLimit: 3_000_000n,
    data: Token.bytecode + token.encodeDeploy(['Bench', 'BEN', 10n ** 30n]).slice(2),
  })
  const tokenAddress = getCreateAddress({ from: wallet.address, nonce: 0 })
  const transfers: string[] = []
  const calls: string[] = []
  for (let i = 0; i < COLD_TRANSFERS; i++) {
    const to = `0x${(i + 1).toString(16).padStart(40, '0')}`
    transfers.push(
      await wallet.signTransaction({ type: 0, chainId: 12345, nonce: i + 1, gasPrice: 1_000_000_000n, gasLimit: 100_000n, to: tokenAddress, data: token.encodeFunctionData('transfer', [to, 1n]) }),
    )
    calls.push(token.encodeFunctionData('balanceOf', [to]))
  }
  return { deploy, transfers, calls, token: tokenAddress }
}

/**
 * The test file's work after the first answer, as script text for the fresh process:
 * `rpc(method, params)` must be in scope; sets `deployed`, `transferred` and `called`
 * (performance.now() at the end of each part). Throws when a transaction fails or a call
 * answers a wrong balance.
 */
function workScript(work: ColdFileWork): string {
  return `
    const work = ${JSON.stringify(work)}
    const send = async (raw) => {
      const receipt = await rpc('eth_getTransactionReceipt', [await rpc('eth_sendRawTransaction', [raw])])
      if (receipt?.status !== '0x1') throw new Error('transaction failed: ' + JSON.stringify(receipt))
      return receipt
    }
    if ((await send(work.deploy)).contractAddress !== work.token.toLowerCase()) throw new Error('deployed elsewhere')
    const deployed = performance.now()
    for (const raw of work.transfers) await send(raw)
    const transferred = performance.now()
    for (let i = 0; i < ${COLD_CALLS}; i++) {
      const balance = await rpc('eth_call', [{ to: work.token, data: work.calls[i % work.calls.length] }, 'latest'])
      if (BigInt(balance) !== 1n) throw new Error('balanceOf answered ' + balance)
    }
    const called = performance.now()`
}

/** Runs `script` as an ES module in a fresh Node process and returns the last line it prints, parsed. */
async function freshProcess(script: string, tsx: boolean): Promise<ColdFile> {
  const { stdout } = await execFileAsync(process.execPath, [...(tsx ? ['--import', 'tsx'] : []), '--input-type=module', '-e', script])
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ColdFile
}

/**
 * One fresh Node process running a cold test file on createDevnet() with defaults:
 * the process's start (Node's own boot included, as the peer bench's W7) to the first
 * eth_blockNumber answer, then {@link workScript}.
 */
export function coldFile(entry: ColdEntry, work: ColdFileWork): Promise<ColdFile> {
  const script = `
    const t0 = performance.now()
    const { createDevnet } = await import(${JSON.stringify(pathToFileURL(entry.library).href)})
    const d = await createDevnet()
    await d.rpc('eth_blockNumber')
    const ready = performance.now()
    const rpc = (method, params) => d.rpc(method, params)
    ${workScript(work)}
    await d.close()
    console.log(JSON.stringify({ ready, imported: ready - t0, deploy: deployed - ready, transfers: transferred - deployed, calls: called - transferred }))`
  return freshProcess(script, entry.library.endsWith('.ts'))
}

/**
 * One fresh client process that spawns the CLI as a user starts it (`dualnet --rpcport
 * <free port> --accounts 1 --quiet`, on this Node), polls `eth_blockNumber` every 5 ms
 * until it answers (`imported`: spawn to first reply, the peer bench's HTTP W1), then
 * runs {@link workScript} over node:http with a keep-alive agent, one request in
 * flight, as the peer bench's client does. The server is stopped with SIGTERM after.
 */
export function cliColdFile(entry: ColdEntry, work: ColdFileWork): Promise<ColdFile> {
  const tsx = entry.cli.endsWith('.ts')
  const script = `
    import http from 'node:http'
    import net from 'node:net'
    import { spawn } from 'node:child_process'
    const port = await new Promise((ok) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)) }) })
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    let id = 0
    const rpc = (method, params = []) => new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })
      const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => { const j = JSON.parse(Buffer.concat(chunks).toString()); j.error ? reject(new Error(method + ': ' + j.error.message)) : resolve(j.result) })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(body)
    })
    const t0 = performance.now()
    const server = spawn(process.execPath, [${tsx ? "'--import', 'tsx', " : ''}${JSON.stringify(entry.cli)}, '--rpcport', String(port), '--accounts', '1', '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] })
    const exited = new Promise((ok) => server.once('exit', ok))
    for (;;) {
      try { await rpc('eth_blockNumber'); break } catch (e) {
        if (server.exitCode !== null) throw new Error('dualnet exited with code ' + server.exitCode)
        if (!/ECONNREFUSED|ECONNRESET|socket hang up/.test(String(e?.message) + e?.code)) throw e
        await new Promise((ok) => setTimeout(ok, 5))
      }
    }
    const ready = performance.now()
    ${workScript(work)}
    agent.destroy()
    server.kill('SIGTERM')
    await exited
    console.log(JSON.stringify({ ready, imported: ready - t0, deploy: deployed - ready, transfers: transferred - deployed, calls: called - transferred }))`
  return freshProcess(script, false)
}
