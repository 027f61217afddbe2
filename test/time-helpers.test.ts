/**
 * `devnet.time` (issue 22 item 7): increase / increaseTo counted from the latest block,
 * as hardhat-network-helpers' time.increase / time.increaseTo (they set the next
 * block's timestamp and mine one block), beside increaseTime's clock offset
 * (evm_increaseTime). A frozen clock from a fixed genesis time makes every timestamp exact.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, InvalidControlError, type Devnet } from '../src/index.ts'

const GENESIS = 1_700_000_000
const DAY = 86_400
let devnet: Devnet

afterEach(() => devnet?.close())

async function frozen(automine = true): Promise<Devnet> {
  devnet = await createDevnet({ accounts: 2, nativeAccounts: 0, console: false, clock: 'frozen', genesisTimestamp: GENESIS, automine })
  return devnet
}

/** Sends `n` transfers; with automine each is its own block. */
async function transfers(d: Devnet, n: number): Promise<void> {
  const [from, to] = d.accounts
  for (let i = 0; i < n; i++) await d.rpc('eth_sendTransaction', [{ from: from!.address, to: to!.address, value: '0x1', gasPrice: '0x3b9aca00' }])
}

describe('devnet.time', () => {
  it("the issue's case: after a burst of automined blocks, increaseTime moves the head less than a day; time.increase exactly a day", async () => {
    const d = await frozen()
    await transfers(d, 5)
    // Each automined block is its parent + 1 s: the head ran 5 s ahead of the (frozen) clock.
    expect(await d.time.latest()).toBe(GENESIS + 5)
    expect(await d.time.latestBlock()).toBe(5)

    // evm_increaseTime's semantics: the clock moves a day, the next block is stamped by the clock.
    await d.increaseTime(DAY)
    await d.mine()
    expect(await d.time.latest()).toBe(GENESIS + DAY) // 86,395 s after the previous head

    // hardhat-network-helpers' semantics: exactly a day after the latest block, in a mined block.
    expect(await d.time.increase(DAY)).toBe(GENESIS + 2 * DAY)
    expect(await d.time.latestBlock()).toBe(7)
    // Later blocks follow on from it.
    await d.mine()
    expect(await d.time.latest()).toBe(GENESIS + 2 * DAY + 1)
  })

  it('increase takes bigints too, and mines what waits in the pool into its block', async () => {
    const d = await frozen(false)
    await transfers(d, 2)
    expect(await d.time.latestBlock()).toBe(0)
    expect(await d.time.increase(60n)).toBe(GENESIS + 60)
    const block = (await d.rpc('eth_getBlockByNumber', ['latest', false]))!
    expect(block).toMatchObject({ number: '0x1', timestamp: `0x${(GENESIS + 60).toString(16)}` })
    expect(block.transactions).toHaveLength(2)
  })

  it('increaseTo: a timestamp in seconds (number or bigint) or a Date (milliseconds dropped)', async () => {
    const d = await frozen()
    await d.time.increaseTo(1_800_000_000)
    expect(await d.time.latest()).toBe(1_800_000_000)
    await d.time.increaseTo(1_800_000_100n)
    expect(await d.time.latest()).toBe(1_800_000_100)
    await d.time.increaseTo(new Date(1_900_000_000_999))
    expect(await d.time.latest()).toBe(1_900_000_000)
    expect(await d.time.latestBlock()).toBe(3)
  })

  it("refused as on Hardhat Network: a negative increase, and a timestamp not after the latest block's; nothing is mined", async () => {
    const d = await frozen()
    await d.time.increase(10)
    const latest = GENESIS + 10
    await expect(d.time.increase(-1)).rejects.toThrow(new InvalidControlError('time can only move forward by a whole number of seconds, got -1'))
    await expect(d.time.increase(1.5)).rejects.toThrow(InvalidControlError)
    await expect(d.time.increase(0)).rejects.toThrow(new InvalidControlError(`Timestamp ${latest} is lower than or equal to previous block's timestamp ${latest}`))
    await expect(d.time.increaseTo(latest - 1)).rejects.toThrow(new InvalidControlError(`Timestamp ${latest - 1} is lower than or equal to previous block's timestamp ${latest}`))
    expect(await d.time.latestBlock()).toBe(1)
    expect(await d.time.latest()).toBe(latest)
  })

  it('follows a reset to the new chain, and rejects once the devnet is closed', async () => {
    const d = await frozen()
    await d.time.increase(100)
    await d.reset()
    expect(await d.time.latestBlock()).toBe(0)
    // The fresh genesis has the option's timestamp again.
    expect(await d.time.increase(5)).toBe(GENESIS + 5)
    await d.close()
    await expect(d.time.latest()).rejects.toThrow('the devnet is closed')
  })
})
