/**
 * State documents under limits (issue 23, item 4): anvil_loadState inflates a gzipped
 * document under `stateLimit` (bytes of JSON after inflating, default 64 MiB), and
 * applies `jsonDepthLimit` to the inflated document; past either it answers -32602
 * naming the limit and changes nothing. A gzip bomb (a small body that inflates far
 * past the limit) is refused without being inflated past it.
 */
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, RpcError, type Devnet, type DevnetOptions } from '../src/index.ts'

let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

async function start(options: DevnetOptions = {}): Promise<Devnet> {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000, console: false, ...options })
  return devnet
}

async function error(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(RpcError)
  return (err as RpcError).toJSON()
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`
const TOO_LARGE = (limit: number) => `invalid argument 0: state document larger than ${limit} bytes of JSON (option stateLimit)`
const TOO_DEEP = (limit: number) => `invalid argument 0: state document nested deeper than ${limit} levels (option jsonDepthLimit)`
const ACCOUNT = '0x00000000000000000000000000000000000000aa'

/** An Anvil state giving ACCOUNT `balance` wei, padded with spaces to exactly `length` bytes of JSON. */
function anvilState(balance: bigint, length: number): Buffer {
  const json = JSON.stringify({ accounts: { [ACCOUNT]: { balance: `0x${balance.toString(16)}`, nonce: 0 } } })
  return Buffer.from(json + ' '.repeat(length - json.length))
}

describe('anvil_loadState: stateLimit', () => {
  it('a gzip bomb inflating past the default 64 MiB is -32602 naming the limit; nothing changes and the next load works', async () => {
    const d = await start()
    const bomb = gzipSync(Buffer.concat([anvilState(1n, 100), Buffer.alloc(65 * 1024 * 1024, 0x20)]))
    expect(bomb.length).toBeLessThan(100_000)
    expect(await error(d.rpc('anvil_loadState', [hex(bomb)]))).toEqual({ code: -32602, message: TOO_LARGE(64 * 1024 * 1024) })
    expect(await d.rpc('eth_getBalance', [ACCOUNT, 'latest'])).toBe('0x0')
    expect(await d.rpc('anvil_loadState', [hex(gzipSync(anvilState(7n, 100)))])).toBe(true)
    expect(await d.rpc('eth_getBalance', [ACCOUNT, 'latest'])).toBe('0x7')
  })

  it('at the limit a document loads, gzipped or plain; one byte more is refused either way', async () => {
    const d = await start({ stateLimit: 1000 })
    expect(await d.rpc('anvil_loadState', [hex(gzipSync(anvilState(1n, 1000)))])).toBe(true)
    expect(await d.rpc('anvil_loadState', [hex(anvilState(2n, 1000))])).toBe(true)
    expect(await d.rpc('eth_getBalance', [ACCOUNT, 'latest'])).toBe('0x2')
    expect(await error(d.rpc('anvil_loadState', [hex(gzipSync(anvilState(3n, 1001)))]))).toEqual({ code: -32602, message: TOO_LARGE(1000) })
    expect(await error(d.rpc('anvil_loadState', [hex(anvilState(3n, 1001))]))).toEqual({ code: -32602, message: TOO_LARGE(1000) })
    expect(await d.rpc('eth_getBalance', [ACCOUNT, 'latest'])).toBe('0x2')
  })
})

describe('anvil_loadState: jsonDepthLimit on the inflated document', () => {
  it('a gzipped document nested deeper than the limit is -32602 naming jsonDepthLimit; brackets inside strings do not count', async () => {
    const d = await start({ jsonDepthLimit: 10 })
    const deep = Buffer.from(`{"accounts":{},"x":${'['.repeat(20)}${']'.repeat(20)}}`)
    expect(await error(d.rpc('anvil_loadState', [hex(gzipSync(deep))]))).toEqual({ code: -32602, message: TOO_DEEP(10) })
    expect(await error(d.rpc('anvil_loadState', [hex(deep)]))).toEqual({ code: -32602, message: TOO_DEEP(10) })
    const bracketsInStrings = Buffer.from(JSON.stringify({ accounts: { [ACCOUNT]: { balance: '0x5', nonce: 0 } }, note: `${'['.repeat(50)}\\"{{{` }))
    expect(await d.rpc('anvil_loadState', [hex(gzipSync(bracketsInStrings))])).toBe(true)
    expect(await d.rpc('eth_getBalance', [ACCOUNT, 'latest'])).toBe('0x5')
  })

  it('the default depth (100) holds for inflated documents too', async () => {
    const d = await start()
    const deep = Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`)
    expect(await error(d.rpc('anvil_loadState', [hex(gzipSync(deep))]))).toEqual({ code: -32602, message: TOO_DEEP(100) })
  })
})

describe('anvil_loadState: broken bytes', () => {
  it('truncated gzip and bytes that are not JSON get messages of their own', async () => {
    const d = await start()
    const truncated = gzipSync(anvilState(1n, 100)).subarray(0, 30)
    expect(await error(d.rpc('anvil_loadState', [hex(truncated)]))).toEqual({ code: -32602, message: 'invalid argument 0: not a state document: broken gzip (unexpected end of file)' })
    expect(await error(d.rpc('anvil_loadState', [hex(Buffer.from('undefined'))]))).toEqual({
      code: -32602,
      message: 'invalid argument 0: not a state document: the bytes are not JSON (gzipped or plain)',
    })
  })
})
