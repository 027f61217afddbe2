/**
 * A WebSocket client that subscribes and stops reading is dropped, and never holds
 * the node (issue 35, item 1): past `--ws-buffer-limit` bytes left unread, its
 * subscriptions end and it gets the close frame 1008 with the reason, behind what it
 * had not read; a client that reads is served on as before. The default limit, with
 * the process's memory, is test/stress/websocket-stalled.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { WS_CLOSE_NOT_READING } from '../src/server/webSocket.ts'
import { stalledReader } from './stalled-reader.ts'

describe('a WebSocket client that stops reading', () => {
  it('--ws-buffer-limit 1048576: 200 newHeads subscriptions unread are dropped within a few blocks, with 1008 and the reason', async () => {
    const run = await stalledReader(['--ws-buffer-limit', '1048576'], 200, 200)
    console.log(`stalled reader, 200 subscriptions, limit 1 MiB: dropped after ${run.droppedAfter} blocks; RSS ${run.rss.before} -> ${run.rss.peak} MiB`)
    expect(run.droppedAfter).toBeDefined()
    expect(run.close).toEqual({ code: WS_CLOSE_NOT_READING, reason: 'client not reading: more than 1048576 bytes unsent (option wsBufferLimit)' })
    // The client that reads got every block's head, and the node still serves.
    expect(run.readerHeads).toBe(run.droppedAfter)
    expect(run.height).toBe(run.droppedAfter)
  }, 120_000)
})
