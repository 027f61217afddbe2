/**
 * Model-based test of the controls (fast-check): random sequences of transfers, mines,
 * bulk mines, time moves, snapshots and reverts, checked after every step against a
 * plain model of balances, nonces, block number and timestamps; after a revert the
 * JSON-RPC and REST views must equal what they were when the snapshot was taken.
 */
import fc from 'fast-check'
import { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { createDevnet, type Devnet } from '../src/index.ts'
import { chainOf } from '../src/devnet/provider.ts'

const ACCOUNTS = 3
const GAS_PRICE = 1_000_000_000n
const FEE = 21_000n * GAS_PRICE
const GENESIS = 1_700_000_000
const GOVERNANCE = '0x0000000000000000000000000000000000000007'

interface Model {
  balances: bigint[]
  governance: bigint
  nonces: number[]
  height: number
  /** Timestamp of the latest block, and the frozen clock's offset. */
  latestTime: number
  offset: number
  snapshots: { id: string; model: Model; view: unknown }[]
}

interface Real {
  devnet: Devnet
  wallets: Wallet[]
}

const clone = (m: Model): Model => ({ ...m, balances: [...m.balances], nonces: [...m.nonces], snapshots: [...m.snapshots] })

/** Next block timestamp under the frozen clock: max(origin + offset, parent + 1). */
function nextTime(m: Model): number {
  return Math.max(GENESIS + m.offset, m.latestTime + 1)
}

async function view(real: Real) {
  const { devnet } = real
  const latest = (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!
  const height = await devnet.rpc('eth_blockNumber')
  return {
    height,
    latest,
    balances: await Promise.all(devnet.accounts.map((a) => devnet.rpc('eth_getBalance', [a.address, 'latest']))),
    nonces: await Promise.all(devnet.accounts.map((a) => devnet.rpc('eth_getTransactionCount', [a.address, 'latest']))),
    // The native view of the same ledger.
    restHeight: (await devnet.rest.get('/api/v1/block/height')).Result,
    restBlock: (await devnet.rest.get(`/api/v1/block/details/height/${Number(height)}`)).Result,
    restBalances: await Promise.all(devnet.accounts.map(async (a) => (await devnet.rest.get(`/api/v1/balancev2/${a.base58}`)).Result)),
  }
}

async function check(m: Model, real: Real): Promise<void> {
  const v = await view(real)
  expect(v.height).toBe(`0x${m.height.toString(16)}`)
  expect(v.balances).toEqual(m.balances.map((b) => `0x${b.toString(16)}`))
  expect(v.nonces).toEqual(m.nonces.map((n) => `0x${n.toString(16)}`))
  expect(Number(v.latest.timestamp)).toBe(m.latestTime)
  expect(v.restHeight).toBe(m.height)
  expect(v.restBalances.map((b) => (b as { gas: string }).gas)).toEqual(m.balances.map(String))
  expect((v.restBlock as { Hash: string }).Hash).toBe(v.latest.hash.slice(2).match(/../g)!.reverse().join(''))
  expect(await real.devnet.rpc('eth_getBalance', [GOVERNANCE, 'latest'])).toBe(`0x${m.governance.toString(16)}`)
}

class Transfer implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly value: bigint,
  ) {}
  check = () => true
  async run(m: Model, real: Real) {
    const raw = await real.wallets[this.from]!.signTransaction({
      type: 0,
      chainId: 12345,
      nonce: m.nonces[this.from]!,
      to: real.devnet.accounts[this.to]!.address,
      value: this.value,
      gasLimit: 21_000n,
      gasPrice: GAS_PRICE,
    })
    await real.devnet.rpc('eth_sendRawTransaction', [raw])
    m.balances[this.from]! -= this.value + FEE
    m.balances[this.to]! += this.value
    m.governance += FEE
    m.nonces[this.from]!++
    m.height++
    m.latestTime = nextTime(m)
    await check(m, real)
  }
  toString = () => `transfer(${this.from}->${this.to}, ${this.value})`
}

class Mine implements fc.AsyncCommand<Model, Real> {
  constructor(readonly count: number) {}
  check = () => true
  async run(m: Model, real: Real) {
    await real.devnet.mine(this.count)
    if (this.count > 0) {
      const first = nextTime(m)
      m.latestTime = first + this.count - 1
      m.height += this.count
      if (m.latestTime > GENESIS + m.offset) m.offset = m.latestTime - GENESIS
    }
    await check(m, real)
  }
  toString = () => `mine(${this.count})`
}

class IncreaseTime implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true
  async run(m: Model, real: Real) {
    await real.devnet.rpc('evm_increaseTime', [this.seconds])
    m.offset += this.seconds
    await check(m, real)
  }
  toString = () => `increaseTime(${this.seconds})`
}

class Snapshot implements fc.AsyncCommand<Model, Real> {
  check = () => true
  async run(m: Model, real: Real) {
    const id = await real.devnet.rpc('evm_snapshot')
    m.snapshots.push({ id, model: clone(m), view: await view(real) })
    await check(m, real)
  }
  toString = () => 'snapshot'
}

class Revert implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.snapshots.length > 0
  async run(m: Model, real: Real) {
    const index = this.pick % m.snapshots.length
    const target = m.snapshots[index]!
    expect(await real.devnet.rpc('evm_revert', [target.id])).toBe(true)
    expect(await view(real)).toEqual(target.view)
    Object.assign(m, clone(target.model))
    // Hardhat semantics: this id and every later one are gone.
    m.snapshots = m.snapshots.slice(0, index)
    await check(m, real)
  }
  toString = () => `revert(#${this.pick})`
}

/**
 * Runs random command sequences against the model. With `persistent`, each devnet
 * lives on a classic-level database in a fresh directory; after each sequence it is
 * closed and reopened there, and the reopened devnet must show what the closed one
 * showed (issue 11: snapshots and reverts leave the database as the in-memory view).
 */
async function runModel(numRuns: number, persistent: boolean): Promise<void> {
  const commands = [
    fc.tuple(fc.nat(ACCOUNTS - 1), fc.nat(ACCOUNTS - 1), fc.bigInt(0n, 10n ** 18n)).map(([f, t, v]) => new Transfer(f, t, v)),
    fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 50, max: 5000 })).map((n) => new Mine(n)),
    fc.integer({ min: 0, max: 100_000 }).map((s) => new IncreaseTime(s)),
    fc.constant(new Snapshot()),
    fc.nat().map((p) => new Revert(p)),
  ]
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
      const dir = persistent ? mkdtempSync(join(tmpdir(), 'dualnet-model-')) : undefined
      const options = { accounts: ACCOUNTS, clock: 'frozen' as const, genesisTimestamp: GENESIS, console: false }
      const open = () => createDevnet(dir === undefined ? options : { ...options, db: new ClassicLevel<string, string>(dir) })
      const devnet = await open()
      const balance = BigInt(await devnet.rpc('eth_getBalance', [devnet.accounts[0]!.address, 'latest']))
      const model: Model = {
        balances: Array.from({ length: ACCOUNTS }, () => balance),
        governance: 0n,
        nonces: Array.from({ length: ACCOUNTS }, () => 0),
        height: 0,
        latestTime: GENESIS,
        offset: 0,
        snapshots: [],
      }
      const real = { devnet, wallets: devnet.accounts.map((a) => new Wallet(a.privateKey)) }
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds)
        if (dir !== undefined) {
          const before = await persistedView(devnet)
          await devnet.close()
          const reopened = await open()
          try {
            expect(reopened.resumed).toBe(true)
            expect(await persistedView(reopened)).toEqual(before)
          } finally {
            await reopened.close()
          }
        }
      } finally {
        await devnet.close()
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
      }
    }),
    { numRuns },
  )
}

/** The model's view, the clock, the blocks up to 40 on both interfaces with the balances and nonces as of each (the latest hash covers the later blocks: each block hashes its parent). */
async function persistedView(devnet: Devnet) {
  const height = Number(await devnet.rpc('eth_blockNumber'))
  const blocks = []
  for (let h = 0; h <= Math.min(height, 40); h++) {
    const tag = `0x${h.toString(16)}`
    blocks.push([
      await devnet.rpc('eth_getBlockByNumber', [tag, true]),
      (await devnet.rest.get(`/api/v1/block/details/height/${h}`)).Result,
      // State as of each height: a version a revert undid must not survive in the database.
      await Promise.all(devnet.accounts.map((a) => devnet.rpc('eth_getBalance', [a.address, tag]))),
      await Promise.all(devnet.accounts.map((a) => devnet.rpc('eth_getTransactionCount', [a.address, tag]))),
    ])
  }
  return { view: await view({ devnet, wallets: [] }), clock: chainOf(devnet).clock.capture(), blocks }
}

describe('controls against a model', () => {
  it('agrees with the model after every step', async () => {
    await runModel(40, false)
  })

  it('on classic-level, the database reopened after each sequence shows what the devnet showed', async () => {
    await runModel(20, true)
  })
})
