/**
 * Crash test (issue 11; `npm run test:crash`, not part of `npm test`): the CLI on a
 * classic-level database receives a stream of EVM and native transactions from
 * clients that record every hash answered to them, and is killed with SIGKILL at a
 * random moment, ten times. After each restart every recorded hash has its receipt
 * (EVM) or its event record (native), and the JSON-RPC and REST views agree on every
 * block: hash, parent, transactions. A second run does the same with automine off
 * (and interval mining on every other round): after each restart every recorded hash
 * is mined or still waiting in the pool, and a final block mines them all.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Wallet } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { nativeTransfer } from './persistence-support.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const ROUNDS = 10
const POOL_ROUNDS = 6
const root = mkdtempSync(join(tmpdir(), 'dualnet-crash-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface Node {
  child: ChildProcess
  rpcUrl: string
  restUrl: string
  exited: Promise<number | null>
}

/** Starts the CLI on the database in `dir`; resolves once both URLs are printed. */
function startNode(dir: string): Promise<Node> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--db', dir, '--rest', '--restport', '0', '--rpcport', '0', '--quiet', '--accounts', '2'])
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const rpc = /JSON-RPC\s+(http:\S+)/.exec(out)
      const rest = /REST\s+(http:\S+)/.exec(out)
      if (rpc === null || rest === null) return
      clearInterval(timer)
      resolve({ child, rpcUrl: rpc[1]!, restUrl: rest[1]!, exited })
    }, 20)
    void exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`the CLI exited (${code}) before serving: ${out}`))
    })
  })
}

async function post(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return response.json()
}

const rpc = async (node: Node, method: string, params: unknown[] = []) => {
  const answer = await post(node.rpcUrl, { jsonrpc: '2.0', id: 1, method, params })
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}
const rest = async (node: Node, path: string) => (await (await fetch(`${node.restUrl}${path}`)).json()) as { Error: number; Result: any }

/** JSON-RPC batches of at most 500 calls (the node's batch limit is 1,000). */
async function batch(node: Node, calls: [string, unknown[]][]): Promise<any[]> {
  const results: any[] = []
  for (let i = 0; i < calls.length; i += 500) {
    const answers = (await post(
      node.rpcUrl,
      calls.slice(i, i + 500).map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })),
    )) as { id: number; result: any }[]
    results.push(...answers.sort((a, b) => a.id - b.id).map((a) => a.result))
  }
  return results
}

const reversed = (hex: string) => hex.replace(/^0x/, '').match(/../g)!.reverse().join('')

/**
 * Every recorded hash answered by the node before is mined (or, with `pooled`, mined or
 * waiting in the pool), and both views agree on every block. Resolves to the height
 * and the number of transactions still waiting.
 */
async function verify(node: Node, evmHashes: string[], nativeHashes: string[], pooled = false): Promise<number> {
  const receipts = await batch(
    node,
    evmHashes.map((h) => ['eth_getTransactionReceipt', [h]]),
  )
  let waiting = 0
  if (pooled) {
    // Not mined: then waiting in the pool, as eth_getTransactionByHash renders a pending transaction.
    const missing = evmHashes.filter((_, i) => receipts[i] === null)
    const pending = await batch(
      node,
      missing.map((h) => ['eth_getTransactionByHash', [h]]),
    )
    expect(pending.filter((tx) => tx === null || tx.blockNumber !== null).length, 'EVM transactions neither mined nor pending').toBe(0)
    waiting += missing.length
  }
  expect(receipts.filter((r) => (r === null && !pooled) || (r !== null && r.status !== '0x1')).length, 'EVM receipts missing').toBe(0)
  for (const hash of nativeHashes) {
    const event = await rest(node, `/api/v1/smartcode/event/txhash/${hash}`)
    if (pooled && event.Result === '') {
      expect((await rest(node, `/api/v1/mempool/txstate/${hash}`)).Error, `native ${hash} neither mined nor pending`).toBe(0)
      waiting++
      continue
    }
    expect(event.Result?.State, `native ${hash}`).toBe(1)
  }
  const height = Number(await rpc(node, 'eth_blockNumber'))
  expect((await rest(node, '/api/v1/block/height')).Result).toBe(height)
  const blocks = await batch(
    node,
    Array.from({ length: height + 1 }, (_, h) => ['eth_getBlockByNumber', [`0x${h.toString(16)}`, false]]),
  )
  for (let h = 0; h <= height; h++) {
    const native = (await rest(node, `/api/v1/block/transactions/height/${h}`)).Result as { Hash: string; Transactions: string[] }
    const block = blocks[h] as { hash: string; parentHash: string; transactions: string[] }
    expect(native.Hash, `block ${h}`).toBe(reversed(block.hash))
    if (h > 0) expect(block.parentHash).toBe((blocks[h - 1] as { hash: string }).hash)
    // The EVM view lists the block's EIP-155 transactions, in the native view's order.
    expect(native.Transactions.filter((t) => block.transactions.includes(`0x${reversed(t)}`)).map((t) => `0x${reversed(t)}`)).toEqual(block.transactions)
  }
  return pooled ? waiting : height
}

/**
 * Sends transactions until `stop` is set: EVM transfers from two senders and native
 * transfers, three in flight; a hash is recorded only once the node answered it.
 */
async function stream(node: Node, devnet: Devnet, evmHashes: string[], nativeHashes: string[], stop: { now: boolean }): Promise<void> {
  const senders = await Promise.all(
    // 'pending': with automine off, the pool kept across the restart holds the next nonces.
    devnet.accounts.map(async (a) => ({ wallet: new Wallet(a.privateKey), nonce: Number(await rpc(node, 'eth_getTransactionCount', [a.address, 'pending'])) })),
  )
  const evm = async (sender: (typeof senders)[number]) => {
    while (!stop.now) {
      const raw = await sender.wallet.signTransaction({ type: 0, chainId: 12345, nonce: sender.nonce, to: `0x${'00'.repeat(19)}cc`, value: 1n, gasLimit: 21_000n, gasPrice: 1_000_000_000n })
      const answer = await post(node.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })
      if (answer.error !== undefined) throw new Error(answer.error.message)
      evmHashes.push(answer.result as string)
      sender.nonce++
    }
  }
  const native = async () => {
    while (!stop.now) {
      const answer = await post(`${node.restUrl}/api/v1/transaction`, { Action: 'sendrawtransaction', Version: '1.0.0', Data: nativeTransfer(devnet, 0, 1, 1) })
      if (answer.Error !== 0) throw new Error(JSON.stringify(answer))
      nativeHashes.push(answer.Result as string)
    }
  }
  // A request cut by the kill fails: that hash was never answered, so it is not recorded.
  await Promise.allSettled([...senders.map(evm), native()])
}

/** How long a round waits for its first answered transaction (a loaded CI machine is slow, not stuck). */
const FIRST_ANSWER_TIMEOUT = 60_000

/**
 * Polls `condition` every 5 ms; resolves true once it holds, false after `timeout` ms or
 * when `sending` settles first (the stream failed before anything was answered).
 */
async function waitFor(condition: () => boolean, sending: Promise<void>, timeout: number): Promise<boolean> {
  let settled = false
  void sending.finally(() => (settled = true))
  const deadline = Date.now() + timeout
  while (!condition()) {
    if (settled || Date.now() > deadline) return condition()
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return true
}

/** Answered hashes so far, over the rounds of one test. */
interface Answered {
  evm: string[]
  native: string[]
}

/**
 * `rounds` times: starts the CLI on `dir`, lets `check` verify what was answered so far
 * (it resolves to a figure for the log) and `prepare` the node, streams transactions
 * and, once the round's first transaction is answered, kills the node with SIGKILL
 * after a random 300 ms or more. Resolves to one line
 * per round for the log.
 */
async function killRounds(
  dir: string,
  rounds: number,
  answered: Answered,
  check: (node: Node) => Promise<number>,
  prepare: (node: Node, round: number) => Promise<void> = async () => {},
): Promise<string[]> {
  // Keys only: the CLI's accounts are the default mnemonic's, its native accounts the devnet's.
  const keys = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false })
  await keys.close()
  const lines: string[] = []
  for (let round = 0; round < rounds; round++) {
    const node = await startNode(dir)
    const figure = await check(node)
    await prepare(node, round)
    const stop = { now: false }
    const before = answered.evm.length + answered.native.length
    const sending = stream(node, keys, answered.evm, answered.native, stop)
    // The kill timer starts at this round's first answer, not at the start: on a busy
    // machine the first transaction (EVM load, the database) can take longer than the
    // delay, and a round that killed the node before any answer would test nothing.
    const firstAnswer = await waitFor(() => answered.evm.length + answered.native.length > before, sending, FIRST_ANSWER_TIMEOUT)
    expect(firstAnswer, `round ${round}: no transaction answered within ${FIRST_ANSWER_TIMEOUT} ms of serving`).toBe(true)
    const delay = 300 + Math.floor(Math.random() * 800)
    lines.push(`${delay} ms (${figure})`)
    await new Promise((resolve) => setTimeout(resolve, delay))
    node.child.kill('SIGKILL')
    stop.now = true
    await node.exited
    await sending
  }
  return lines
}

describe('crash safety', () => {
  it(`after ${ROUNDS} SIGKILLs at random moments, every answered transaction is there and both views agree on every block`, async () => {
    const dir = mkdtempSync(join(root, 'automine-'))
    const answered: Answered = { evm: [], native: [] }
    const rounds = await killRounds(dir, ROUNDS, answered, (node) => verify(node, answered.evm, answered.native))
    const node = await startNode(dir)
    const height = await verify(node, answered.evm, answered.native)
    node.child.kill('SIGKILL')
    await node.exited
    console.log(
      `crash test: ${ROUNDS} kills after ${rounds.join(', ')} (height before); ${answered.evm.length} EVM and ${answered.native.length} native answered transactions all found; ${height} blocks agree`,
    )
    expect(height).toBeGreaterThanOrEqual(answered.evm.length + answered.native.length)
  })

  it(`with automine off (interval mining every other round), after ${POOL_ROUNDS} SIGKILLs every answered transaction is mined or waiting in the pool, and the next block mines the rest`, async () => {
    const dir = mkdtempSync(join(root, 'pool-'))
    const answered: Answered = { evm: [], native: [] }
    const rounds = await killRounds(
      dir,
      POOL_ROUNDS,
      answered,
      (node) => verify(node, answered.evm, answered.native, true),
      async (node, round) => {
        // Mining settings come from each start's options: set again after every restart.
        await rpc(node, 'evm_setAutomine', [false])
        if (round % 2 === 0) await rpc(node, 'evm_setIntervalMining', [150])
      },
    )
    const node = await startNode(dir)
    const waiting = await verify(node, answered.evm, answered.native, true)
    expect(waiting, 'the last round, without interval mining, left transactions waiting').toBeGreaterThan(0)
    await rpc(node, 'evm_setAutomine', [false])
    await rpc(node, 'evm_mine')
    const height = await verify(node, answered.evm, answered.native)
    expect((await rest(node, '/api/v1/mempool/txcount')).Result).toEqual([0, 0])
    node.child.kill('SIGKILL')
    await node.exited
    console.log(
      `crash test (pool): ${POOL_ROUNDS} kills after ${rounds.join(', ')} (transactions waiting before); ${answered.evm.length} EVM and ${answered.native.length} native answered transactions found; ${waiting} were waiting, mined by one block; ${height} blocks agree`,
    )
  })
})
