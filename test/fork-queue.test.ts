/**
 * Fetch first, execute after (issue 35 item 3, chain/queue.ts): a request waiting on the
 * fork remote for a value never holds the chain's queue. A loopback proxy in front of the
 * remote holds every request about one account until released; while a transaction
 * touching that account waits, unrelated transfers, evm_mine, eth_call and snapshots
 * are answered, and once the remote answers the waiting transaction lands, once. A
 * revert while the fetch is in flight leaves the transaction to land on the reverted
 * chain; a reset refuses it, the new chain untouched. No timing: the proxy's events
 * sequence the test.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

/** Loopback proxy to `target` that holds every request whose body names `hold` (40 hex, lower case) until {@link release}. */
class HoldingProxy {
  hold = ''
  #held: (() => void)[] = []
  #arrived: (() => void) | undefined
  readonly #server: Server
  constructor(target: string) {
    this.#server = createServer(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks)
      if (this.hold !== '' && body.toString().toLowerCase().includes(this.hold)) {
        this.#arrived?.()
        await new Promise<void>((resolve) => this.#held.push(resolve))
      }
      const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers: { 'content-type': 'application/json' }, body: req.method === 'GET' ? undefined : body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
  }
  /** Holds the requests about `address` (0x-prefixed) from now on; resolves when the first arrives. */
  holdFor(address: string): Promise<void> {
    this.hold = address.slice(2).toLowerCase()
    return new Promise((resolve) => {
      this.#arrived = resolve
    })
  }
  /** Lets the held requests through and holds nothing more. */
  release(): void {
    this.hold = ''
    this.#arrived = undefined
    for (const go of this.#held.splice(0)) go()
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }
  close(): Promise<void> {
    this.release()
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

let remote: Devnet
let proxy: HoldingProxy
let fork: Devnet
let a: string
let b: string
let c: string
/** A contract (deployed on the fork) that stores BALANCE(the address in its calldata) in its slot 0: its run reads an account the transaction does not name. */
let balanceOf: string

const rpc = <T = unknown>(method: string, params: unknown[] = []) => fork.rpc(method as never, params as never) as Promise<T>
const receipt = (hash: string) => rpc<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [hash])
/** A fresh address no one fetched yet. */
let counter = 0
const fresh = () => `0x${(0xfeed0000 + ++counter).toString(16).padStart(40, '0')}`
const transfer = (from: string, to: string) => rpc<string>('eth_sendTransaction', [{ from, to, value: '0x1', gas: '0x5208' }])

beforeAll(async () => {
  // Twelve funded accounts: the last two are not the fork's dev accounts (it has ten), so only a run reads them.
  remote = await createDevnet({ accounts: 12, console: false })
  proxy = new HoldingProxy((await remote.listen()).rpcUrl)
  // A generous time-out: the held request must not fail while the test looks at the others.
  fork = await createDevnet({ fork: { url: await proxy.listen(), remote: { retries: 0, timeout: 600_000 } }, console: false })
  ;[a, b, c] = fork.accounts.slice(0, 3).map((x) => x.address as string) as [string, string, string]
  // Runtime PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 SSTORE STOP, after a 12-byte constructor that returns it;
  // deployed on the fork (the remote's state is its fork block's, before anything the remote does later).
  const deploy = await rpc<string>('eth_sendTransaction', [{ from: a, data: '0x6008600c60003960086000f36000353160005500' }])
  balanceOf = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deploy])).contractAddress
  // Every account the unrelated transfers touch is fetched before anything is held.
  expect((await receipt(await transfer(a!, b!)))?.status).toBe('0x1')
  expect((await receipt(await transfer(c!, b!)))?.status).toBe('0x1')
  // The contract and its slot fetched too: a later run misses only the account it is given.
  expect((await receipt(await readBalance(fresh())))?.status).toBe('0x1')
}, 120_000)

/** A transaction from `c` to {@link balanceOf} that reads the balance of `address` in the EVM. */
const readBalance = (address: string) => rpc<string>('eth_sendTransaction', [{ from: c, to: balanceOf, data: `0x${address.slice(2).padStart(64, '0')}`, gas: '0x186a0' }])

afterAll(async () => {
  await fork?.close()
  await proxy?.close()
  await remote?.close()
})

describe('a request waiting on the fork remote', () => {
  it('holds neither the mining queue nor unrelated requests, and lands once the remote answers', async () => {
    const slow = fresh()
    const arrived = proxy.holdFor(slow)
    const waiting = transfer(c, slow)
    await arrived
    const height = Number(await rpc<string>('eth_blockNumber'))
    // Unrelated work, all answered while the fetch of `slow` hangs.
    const unrelated = await transfer(a, b)
    expect(await receipt(unrelated)).toMatchObject({ status: '0x1', blockNumber: `0x${(height + 1).toString(16)}` })
    expect(await rpc('evm_mine')).toBe('0x0')
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(height + 2)
    expect(await rpc('eth_call', [{ from: a, to: b, value: '0x1' }, 'latest'])).toBe('0x')
    expect(await rpc('eth_getBalance', [b, 'latest'])).toMatch(/^0x/)
    // The waiting transaction was not mined meanwhile (not in either block).
    const block = await rpc<{ transactions: string[] }>('eth_getBlockByNumber', [`0x${(height + 2).toString(16)}`, false])
    expect(block.transactions).toEqual([])
    proxy.release()
    const hash = await waiting
    expect(await receipt(hash)).toMatchObject({ status: '0x1', blockNumber: `0x${(height + 3).toString(16)}` })
    expect(await rpc('eth_getBalance', [slow, 'latest'])).toBe('0x1')
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(height + 3)
  }, 120_000)

  it('a miss inside contract code (BALANCE of an account the transaction does not name) holds nothing either', async () => {
    // A remote account the fork never read (not one of its ten dev accounts): funded at the fork block, so the run stores a balance it had to fetch.
    const slow = remote.accounts[11]!.addressLower
    const arrived = proxy.holdFor(slow)
    const waiting = readBalance(slow)
    await arrived
    const height = Number(await rpc<string>('eth_blockNumber'))
    expect(await receipt(await transfer(a, b))).toMatchObject({ status: '0x1', blockNumber: `0x${(height + 1).toString(16)}` })
    expect(await rpc('evm_mine')).toBe('0x0')
    proxy.release()
    expect(await receipt(await waiting)).toMatchObject({ status: '0x1', blockNumber: `0x${(height + 3).toString(16)}` })
    // The run read the remote's balance, fetched after the wait.
    expect(BigInt(await rpc<string>('eth_getStorageAt', [balanceOf, '0x0', 'latest']))).toBe(BigInt(await remote.rpc('eth_getBalance', [slow, '0x0'])))
  }, 120_000)

  it('eth_call and eth_estimateGas that wait on the remote hold no transaction', async () => {
    const slow = fresh()
    const arrived = proxy.holdFor(slow)
    const call = rpc('eth_call', [{ from: a, to: slow, value: '0x1' }, 'latest'])
    const estimate = rpc('eth_estimateGas', [{ from: a, to: slow, value: '0x1' }])
    await arrived
    const unrelated = await transfer(a, b)
    expect((await receipt(unrelated))?.status).toBe('0x1')
    proxy.release()
    expect(await call).toBe('0x')
    expect(await estimate).toBe('0x5208')
  }, 120_000)

  it('keeps one sender in nonce order while its first transaction waits', async () => {
    const slow = fresh()
    const arrived = proxy.holdFor(slow)
    const nonce = Number(await rpc<string>('eth_getTransactionCount', [c, 'latest']))
    const first = transfer(c, slow)
    await arrived
    // The same sender's next transaction queues behind the waiting one (nonce order), and is not held.
    const second = transfer(c, b)
    const unrelated = await transfer(a, b)
    expect((await receipt(unrelated))?.status).toBe('0x1')
    proxy.release()
    const [h1, h2] = await Promise.all([first, second])
    const t1 = await rpc<{ nonce: string; blockNumber: string }>('eth_getTransactionByHash', [h1])
    const t2 = await rpc<{ nonce: string; blockNumber: string }>('eth_getTransactionByHash', [h2])
    expect([Number(t1.nonce), Number(t2.nonce)].sort()).toEqual([nonce, nonce + 1])
    expect((await receipt(h1))?.status).toBe('0x1')
    expect((await receipt(h2))?.status).toBe('0x1')
    expect(Number(await rpc<string>('eth_getTransactionCount', [c, 'latest']))).toBe(nonce + 2)
  }, 120_000)

  it('lands on the reverted chain when evm_revert came while it waited', async () => {
    const slow = fresh()
    const snapshot = await rpc<string>('evm_snapshot')
    const height = Number(await rpc<string>('eth_blockNumber'))
    const arrived = proxy.holdFor(slow)
    const waiting = transfer(c, slow)
    await arrived
    await transfer(a, b)
    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(height)
    proxy.release()
    const hash = await waiting
    // Run afresh on the chain as it is after the revert: one block on the snapshot's head.
    expect(await receipt(hash)).toMatchObject({ status: '0x1', blockNumber: `0x${(height + 1).toString(16)}` })
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(height + 1)
  }, 120_000)

  it('is refused when hardhat_reset came while it waited, the new chain untouched', async () => {
    const slow = fresh()
    const arrived = proxy.holdFor(slow)
    const waiting = transfer(c, slow)
    const outcome = waiting.then(
      () => 'answered',
      (err: unknown) => (err as Error).message,
    )
    await arrived
    expect(await rpc('hardhat_reset', [])).toBe(true)
    const height = Number(await rpc<string>('eth_blockNumber'))
    proxy.release()
    expect(await outcome).toMatch(/reset or closed while this request waited for the fork remote/)
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(height)
    expect(await rpc('eth_getBalance', [slow, 'latest'])).toBe('0x0')
  }, 120_000)
})
