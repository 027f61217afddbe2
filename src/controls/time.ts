/**
 * `devnet.time`: hardhat-network-helpers' `time` helpers (helpers/time/*.ts), counted
 * from the latest block. Beside `devnet.increaseTime` (evm_increaseTime), which moves
 * the clock's offset: after a burst of automined blocks, whose timestamps run ahead of
 * the wall clock, the next block is not `seconds` after the latest one. These are.
 */
import type { Chain } from '../chain/chain.ts'
import { type DevnetControls, InvalidControlError } from './controls.ts'
import { describeValue } from '../errors/describe.ts'

/** Time controls counted from the latest block, as hardhat-network-helpers' `time`. */
export interface DevnetTime {
  /**
   * Mines one block (with what is executable in the pool) whose timestamp is the
   * latest block's plus `seconds`, and resolves to that timestamp (helpers'
   * `time.increase`). Later blocks follow on from it. `seconds` is a whole number
   * (number or bigint); a negative one throws InvalidControlError, and 0 the error of
   * a timestamp not after the latest block's (`Timestamp T is lower than or equal to
   * previous block's timestamp T`), as on Hardhat Network.
   */
  increase(seconds: number | bigint): Promise<number>
  /**
   * Mines one block whose timestamp is `timestamp` (Unix seconds, or a Date, whose
   * milliseconds are dropped) (helpers' `time.increaseTo`). A timestamp not after the
   * latest block's throws InvalidControlError `Timestamp T is lower than or equal to
   * previous block's timestamp L` and mines nothing.
   */
  increaseTo(timestamp: number | bigint | Date): Promise<void>
  /** The latest block's timestamp, Unix seconds (helpers' `time.latest`). */
  latest(): Promise<number>
  /** The latest block's number (helpers' `time.latestBlock`). */
  latestBlock(): Promise<number>
}

/** The `time` helpers over the devnet's current controls and chain (both replaced by a reset: read each call). */
export function devnetTime(controls: () => Promise<DevnetControls>, chain: () => Chain): DevnetTime {
  const latest = async () => {
    await controls()
    const c = chain()
    return c.timestampAt(c.height)
  }
  const mineAt = async (timestamp: number) => {
    const c = await controls()
    await c.setNextBlockTimestamp(timestamp)
    await c.mine(1)
  }
  return {
    async increase(seconds) {
      const s = typeof seconds === 'bigint' && seconds <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seconds) : seconds
      if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) {
        throw new InvalidControlError(`time can only move forward by a whole number of seconds, got ${describeValue(seconds)}`)
      }
      await mineAt((await latest()) + s)
      return latest()
    },
    async increaseTo(timestamp) {
      const t = timestamp instanceof Date ? Math.floor(timestamp.valueOf() / 1000) : typeof timestamp === 'bigint' && timestamp <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(timestamp) : timestamp
      if (typeof t !== 'number') throw new InvalidControlError(`invalid timestamp ${String(timestamp)}`)
      await mineAt(t)
    },
    latest,
    latestBlock: async () => {
      await controls()
      return chain().height
    },
  }
}
