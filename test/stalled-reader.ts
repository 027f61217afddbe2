/**
 * A WebSocket client that stops reading (issue 35, item 1), against the CLI in a child
 * process: it subscribes to newHeads many times, pauses its TCP socket (nothing more
 * is read from the kernel), and blocks are mined over HTTP. Shared by
 * test/websocket-backpressure.test.ts (a small wsBufferLimit) and
 * test/stress/websocket-stalled.test.ts (the default, with the process's RSS).
 */
import { readFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { expect } from 'vitest'
import WebSocket from 'ws'
import { rpcCall, start, waitFor, type RunningCli } from './cli-support.ts'

/** What one run saw. */
export interface StalledRun {
  /** Blocks mined before the devnet dropped the stalled client (`undefined`: it never did, within `maxBlocks`). */
  droppedAfter: number | undefined
  /** The close frame the stalled client read once it read again: code and reason (`undefined`: none within 40 s). */
  close: { code: number; reason: string } | undefined
  /** The CLI's resident set in MiB: after the subscriptions, before mining, and the most seen while mining. */
  rss: { before: number; peak: number }
  /** newHeads notifications the reading client got while mining. */
  readerHeads: number
  /** eth_blockNumber after the run, over HTTP: the node still serves. */
  height: number
}

/** The CLI's resident set size in MiB, from /proc (Linux). */
function rssOf(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024)
}

function connect(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'))
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** Sends `count` eth_subscribe newHeads on `ws` and waits for every answer; resolves to the answers' errors. */
async function subscribe(ws: WebSocket, count: number): Promise<string[]> {
  const errors: string[] = []
  let answered = 0
  const onMessage = (data: WebSocket.RawData) => {
    const message = JSON.parse(data.toString()) as { id?: number; error?: { message: string } }
    if (message.id === undefined) return
    answered++
    if (message.error !== undefined) errors.push(message.error.message)
  }
  ws.on('message', onMessage)
  for (let i = 0; i < count; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] }))
  await waitFor(() => answered === count, 60_000)
  ws.off('message', onMessage)
  return errors
}

/**
 * Starts the CLI with `flags` and `--subscription-limit <subscriptions + 1>`, so that a
 * second, reading client holds the last subscription: while the stalled client lives
 * every other subscription is refused, so a new one being accepted tells, without
 * reading the stalled socket, that the devnet dropped it. Mines one block at a time,
 * at most `maxBlocks`, until then; then the stalled client reads again.
 */
export async function stalledReader(flags: string[], subscriptions: number, maxBlocks: number): Promise<StalledRun> {
  const cli: RunningCli = start(['--rpcport', '0', '--quiet', '--accounts', '1', '--subscription-limit', String(subscriptions + 1), ...flags])
  try {
    await waitFor(() => /JSON-RPC\s+http/.test(cli.output()) || cli.child.exitCode !== null)
    const url = /JSON-RPC\s+(http:\S+)/.exec(cli.output())?.[1]
    if (url === undefined) throw new Error(`the CLI did not start:\n${cli.output()}`)
    const reader = await connect(url)
    expect(await subscribe(reader, 1)).toEqual([])
    let readerHeads = 0
    reader.on('message', () => readerHeads++)
    const stalled = await connect(url)
    expect(await subscribe(stalled, subscriptions)).toEqual([])
    const socket = (stalled as unknown as { _socket: Socket })._socket
    socket.pause()
    let close: StalledRun['close']
    stalled.on('close', (code, reason) => (close = { code, reason: reason.toString() }))
    const probe = await connect(url)
    const before = rssOf(cli.child.pid!)
    let peak = before
    let droppedAfter: number | undefined
    for (let block = 1; block <= maxBlocks && droppedAfter === undefined; block++) {
      await rpcCall(url, 'evm_mine')
      peak = Math.max(peak, rssOf(cli.child.pid!))
      const refused = await subscribe(probe, 1)
      if (refused.length === 0) droppedAfter = block
      else expect(refused[0]).toMatch(/too many subscriptions/)
    }
    socket.resume()
    await waitFor(() => close !== undefined, 40_000).catch(() => {})
    const height = Number(await rpcCall(url, 'eth_blockNumber'))
    for (const ws of [reader, probe]) ws.close()
    return { droppedAfter, close, rss: { before, peak }, readerHeads, height }
  } finally {
    cli.child.kill('SIGKILL')
    await cli.exited
  }
}
