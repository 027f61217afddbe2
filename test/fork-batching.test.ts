/**
 * A fork's remote calls (docs/fork.md "Speed"): the calls made in one turn of the event
 * loop, such as the storage slots that concurrent reads miss, go to the remote in one
 * JSON-RPC batch; a remote that refuses batches gets them one at a time, with the
 * same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { FaultProxy } from './fork-support.ts'

const HOLDER = '0x00000000000000000000000000000000c0ffee41'
const SLOTS = Array.from({ length: 20 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`)
const slotValue = (i: number) => `0x${(1000 + i).toString(16).padStart(64, '0')}`

let remote: Devnet
let proxy: FaultProxy
let url: string

beforeAll(async () => {
  remote = await createDevnet({ console: false })
  for (const [i, slot] of SLOTS.entries()) await remote.rpc('hardhat_setStorageAt', [HOLDER, slot, slotValue(i)])
  proxy = new FaultProxy((await remote.listen()).rpcUrl)
  url = await proxy.listen()
}, 120_000)

afterAll(async () => {
  await proxy?.close()
  await remote?.close()
})

/** Reads every slot concurrently on a fresh fork; the values and the HTTP requests they took. */
async function readSlots(): Promise<{ values: unknown[]; requests: number }> {
  const fork = await createDevnet({ fork: { url, cache: false }, accounts: 0, nativeAccounts: 0, console: false })
  try {
    const before = proxy.requests
    const values = await Promise.all(SLOTS.map((slot) => fork.rpc('eth_getStorageAt', [HOLDER, slot, 'latest'])))
    return { values, requests: proxy.requests - before }
  } finally {
    await fork.close()
  }
}

describe('remote calls of one turn', () => {
  it('go in one batch: 20 slots missed together cost one request', async () => {
    const { values, requests } = await readSlots()
    expect(values).toEqual(SLOTS.map((_, i) => slotValue(i)))
    expect(requests).toBe(1)
  })

  it('go one at a time to a remote that refuses batches, with the same answers', async () => {
    proxy.mode = 'no-batches'
    try {
      const { values, requests } = await readSlots()
      expect(values).toEqual(SLOTS.map((_, i) => slotValue(i)))
      // The fork's start learnt that batches are refused (its first batch); each slot is then one request.
      expect(requests).toBe(SLOTS.length)
    } finally {
      proxy.mode = 'forward'
    }
  })
})
