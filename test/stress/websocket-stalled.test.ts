/**
 * The issue 35 probe, item 1, at the default wsBufferLimit (16 MiB): one socket, 2,000
 * eth_subscribe newHeads, then it stops reading while blocks are mined. Before the
 * limit the CLI grew by about 330 MiB per 100 blocks (66 -> 3,461 MiB, then out of
 * heap, in the probe's run). Now the client is dropped once 16 MiB wait unread, and the
 * process's resident set stays within the limit plus the allocator's slack. Prints the
 * figures.
 */
import { describe, expect, it } from 'vitest'
import { LIMIT_DEFAULTS } from '../../src/core/limits.ts'
import { WS_CLOSE_NOT_READING } from '../../src/server/webSocket.ts'
import { stalledReader } from '../stalled-reader.ts'

describe('a stalled WebSocket reader at the default limit', () => {
  it('2,000 newHeads subscriptions unread: dropped with 1008, RSS grows by less than 4 times the limit', async () => {
    const run = await stalledReader([], 2_000, 300)
    console.log(`stalled reader, 2,000 subscriptions, default limit: dropped after ${run.droppedAfter} blocks; RSS ${run.rss.before} -> ${run.rss.peak} MiB`)
    expect(run.droppedAfter).toBeDefined()
    expect(run.close?.code).toBe(WS_CLOSE_NOT_READING)
    expect(run.readerHeads).toBe(run.droppedAfter)
    const limitMiB = LIMIT_DEFAULTS.wsBufferLimit / 1024 / 1024
    expect(run.rss.peak - run.rss.before).toBeLessThan(4 * limitMiB)
  }, 300_000)
})
