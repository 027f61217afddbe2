/**
 * The test-harness controls (Hardhat Network / Anvil style): snapshots, time, mining
 * modes, state setters and impersonation. One implementation behind both the
 * function-call API (`devnet.snapshot()`, …) and the JSON-RPC aliases (`evm_*`,
 * `hardhat_*`, `anvil_*`).
 */
import { InvalidControlError } from './errors.ts'
import type { Chain } from '../chain/chain.ts'
import { toHexRaw } from '../util/hex.ts'
import { GWEI } from '../core/constants.ts'
import { parseAnyAddress } from './address.ts'
import { SnapshotRegistry } from './snapshots.ts'

/** controls/erc20.ts and the struct logger it traces with, loaded on the first ERC-20 control, off the start path. */
const erc20 = () => import('./erc20.ts')

/** Most blocks one mine call may add by default: about 700 MB and 7 s once built. */
const DEFAULT_MINE_LIMIT = 1_000_000

/** Longest delay a Node.js timer takes (2^31 - 1 ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Latest timestamp a block can carry: the native header's Timestamp is a u32 (reference §1.4.1). */
const MAX_HEADER_TIME = 0xffff_ffff

/**
 * Refuses a control that would stamp a block after {@link MAX_HEADER_TIME}: the header
 * would be hashed with the time truncated to 32 bits while the JSON views show it whole.
 */
function checkHeaderTime(timestamp: number): void {
  if (timestamp > MAX_HEADER_TIME) {
    throw new InvalidControlError(`timestamp ${timestamp} is beyond the block header's u32 Timestamp (at most ${MAX_HEADER_TIME}, in 2106)`)
  }
}

export { InvalidControlError }

/** Balances to set: `main` in 1e-9 units (v2), `gas` in wei; either may be left out. */
export interface BalanceChange {
  main?: bigint
  gas?: bigint
}

/** Controls of one devnet. */
export class DevnetControls {
  readonly #chain: Chain
  readonly snapshots: SnapshotRegistry
  readonly #impersonated = new Set<string>()
  /** anvil_autoImpersonateAccount: every sender is impersonated while on. */
  #autoImpersonate = false
  #timer: NodeJS.Timeout | undefined
  #intervalMs = 0
  readonly #mineLimit: number

  /** `mineLimit`: most blocks one mine call may add (default 1,000,000; README "Limits and guarantees"). */
  constructor(chain: Chain, options: { mineLimit?: number } = {}) {
    this.#chain = chain
    this.#mineLimit = options.mineLimit ?? DEFAULT_MINE_LIMIT
    this.snapshots = new SnapshotRegistry(chain, {
      get: () => this.#intervalMs,
      set: (ms) => (ms === this.#intervalMs ? Promise.resolve() : this.setIntervalMining(ms)),
    })
  }

  /** Moves time forward by `seconds` (a non-negative integer). Resolves to the total offset in seconds. */
  async increaseTime(seconds: number): Promise<number> {
    if (!Number.isSafeInteger(seconds) || seconds < 0) {
      throw new InvalidControlError(`time can only move forward by a whole number of seconds, got ${seconds}`)
    }
    checkHeaderTime(this.#chain.clock.now() + seconds)
    const offset = this.#chain.clock.increaseTime(seconds)
    await this.#chain.saveClock()
    return offset
  }

  /** The latest block's timestamp, read without building a reserved empty block (`chain.latest` would build the whole run). */
  get #headTimestamp(): number {
    return this.#chain.timestampAt(this.#chain.height)
  }

  /** Fixes the next block's timestamp; it must be later than the latest block's (Hardhat's rule). */
  async setNextBlockTimestamp(timestamp: number): Promise<void> {
    const latest = this.#headTimestamp
    if (!Number.isSafeInteger(timestamp) || timestamp <= latest) {
      throw new InvalidControlError(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${latest}`)
    }
    checkHeaderTime(timestamp)
    this.#chain.clock.setNextBlockTimestamp(timestamp)
    await this.#chain.saveClock()
  }

  /** Sets the chain's current time; blocks still never precede their parent. */
  async setTime(timestamp: number): Promise<void> {
    if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new InvalidControlError(`invalid timestamp ${timestamp}`)
    checkHeaderTime(timestamp)
    this.#chain.clock.setTime(timestamp)
    await this.#chain.saveClock()
  }

  /** The clock's offset from the wall clock in seconds (what Anvil's evm_setTime answers). */
  get timeOffset(): number {
    return this.#chain.clock.capture().offset
  }

  /** Fixed spacing of consecutive block timestamps in seconds (Anvil's), or `undefined` to follow the clock. */
  async setBlockTimestampInterval(seconds: number | undefined): Promise<void> {
    if (seconds !== undefined && (!Number.isSafeInteger(seconds) || seconds < 1)) {
      throw new InvalidControlError(`block timestamp interval must be a positive whole number of seconds, got ${seconds}`)
    }
    if (seconds !== undefined) checkHeaderTime(this.#headTimestamp + seconds)
    this.#chain.clock.setInterval(seconds)
    await this.#chain.saveClock()
  }

  /** Mines `count` blocks; with `interval` the timestamps after the first are spaced by it (seconds). */
  async mine(count = 1, interval?: number): Promise<void> {
    if (interval !== undefined && (!Number.isSafeInteger(interval) || interval < 0)) {
      throw new InvalidControlError(`invalid block interval ${interval}`)
    }
    // Interval 0 is Anvil's "no interval" (viem's testClient.mine sends `interval || 0`): the
    // chain's timestamps strictly increase, so the blocks follow the clock as without one.
    if (interval === 0) interval = undefined
    if (!Number.isSafeInteger(count) || count < 0) throw new InvalidControlError(`invalid block count ${count}`)
    // A reserved run is O(1), but the next block or any read of the head builds every block
    // of it (each hash chains to its parent), and built blocks stay in memory.
    if (count > this.#mineLimit) {
      throw new InvalidControlError(
        `cannot mine ${count} blocks in one call: the limit is ${this.#mineLimit} (option mineLimit); every block is built and kept in memory (about 700 bytes each) once the head is read`,
      )
    }
    if (count > 0) {
      const clock = this.#chain.clock
      const first = Math.max(clock.now(), this.#headTimestamp + 1)
      checkHeaderTime(first + (count - 1) * (interval ?? clock.spacing ?? 1))
    }
    await this.#chain.mine(count, interval)
  }

  /** Turns automine on or off. */
  async setAutomine(on: boolean): Promise<void> {
    await this.#chain.setAutomine(on)
  }

  /** Mines a block every `ms` milliseconds (0 stops it), whether or not transactions wait. */
  async setIntervalMining(ms: number): Promise<void> {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new InvalidControlError(`invalid mining interval ${ms}`)
    // Node turns a timer delay above 2^31 - 1 ms into 1 ms (TimeoutOverflowWarning): a block every millisecond.
    if (ms > MAX_TIMER_MS) throw new InvalidControlError(`mining interval ${ms} ms is longer than the longest timer, ${MAX_TIMER_MS} ms (about 24.8 days)`)
    this.stopIntervalMining()
    this.#intervalMs = ms
    if (ms === 0) return
    this.#timer = setInterval(() => {
      this.#chain.mine(1).catch(() => this.stopIntervalMining())
    }, ms)
    // Interval mining must not keep a test process alive on its own.
    this.#timer.unref()
  }

  /** The interval-mining period in milliseconds (0: off). */
  get intervalMining(): number {
    return this.#intervalMs
  }

  /** Stops interval mining (close() calls it). */
  stopIntervalMining(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    this.#intervalMs = 0
  }

  /**
   * COINBASE of later blocks (and eth_coinbase), as hardhat_setCoinbase: until changed
   * again, a snapshot is reverted or the devnet is reset. The fees still go to
   * governance (reference §6.4): the coinbase earns nothing.
   */
  async setCoinbase(address: string): Promise<void> {
    const coinbase = parseAnyAddress(address)
    await this.#chain.changeBlockSettings((settings) => settings.setCoinbase(coinbase))
  }

  /**
   * What the GASLIMIT opcode reads in later blocks (default 2^64 - 1, the real node's,
   * reference §6.3), as evm_setBlockGasLimit: from 1 to 2^64 - 1 (EDR's u64; 0 fails
   * with Hardhat's text). A transaction with a higher gas limit is then refused and
   * estimates stop at it; the chain's per-transaction cap of 6,000,000 stays in force
   * whatever the setting. The block objects keep gasLimit 6,000,000 (README).
   */
  async setBlockGasLimit(gasLimit: bigint): Promise<void> {
    if (gasLimit <= 0n) throw new InvalidControlError('Block gas limit must be greater than 0')
    if (gasLimit >= 2n ** 64n) throw new InvalidControlError(`block gas limit ${gasLimit} does not fit in 64 bits`)
    await this.#chain.changeBlockSettings((settings) => settings.setGasLimit(gasLimit))
  }

  /**
   * Base fee (wei) of the next block only, as hardhat_setNextBlockBaseFeePerGas: what
   * BASEFEE reads in it, and the least gas price the pool takes for it (Hardhat's
   * rule). The blocks after it have the chain's none again (BASEFEE 0): the chain has
   * no fee market to carry it on. Only where EIP-1559 is active (option `hardfork`
   * london or later); otherwise Hardhat's error.
   */
  async setNextBlockBaseFeePerGas(baseFee: bigint): Promise<void> {
    if (!this.#chain.executor.hasBaseFee) {
      throw new InvalidControlError('hardhat_setNextBlockBaseFeePerGas is disabled because EIP-1559 is not active')
    }
    if (baseFee < 0n || baseFee >= 2n ** 256n) throw new InvalidControlError(`invalid base fee ${baseFee}`)
    await this.#chain.changeBlockSettings((settings) => settings.setNextBaseFee(baseFee))
  }

  /**
   * PREVRANDAO (32 bytes) of the next block only, as hardhat_setPrevRandao; later
   * blocks read the chain's 0 again (it has no beacon chain). Only on a post-merge
   * hardfork (option `hardfork` paris or later); otherwise Hardhat's error naming it.
   */
  async setPrevRandao(prevRandao: Uint8Array): Promise<void> {
    if (!this.#chain.executor.hasPrevRandao) {
      throw new InvalidControlError(`hardhat_setPrevRandao is only available in post-merge hardforks, the current hardfork is ${this.#chain.executor.hardfork}`)
    }
    if (prevRandao.length !== 32) throw new InvalidControlError(`PREVRANDAO must be 32 bytes, got ${prevRandao.length}`)
    await this.#chain.changeBlockSettings((settings) => settings.setNextPrevRandao(prevRandao))
  }

  /**
   * The pool's least gas price, `wei`, as anvil_setMinGasPrice / hardhat_setMinGasPrice:
   * for transactions sent from now on. The node's floor counts in whole gwei (reference
   * §0, option minGasPrice), so a price that is not a whole number of gwei is refused.
   * Anvil and Hardhat refuse it where EIP-1559 is active; the chain's legacy pool keeps
   * a floor on every hardfork, so it is taken on all of them. A reset goes back to the option.
   */
  setMinGasPrice(wei: bigint): void {
    if (wei < 0n || wei % GWEI !== 0n || wei / GWEI >= 2n ** 64n) {
      throw new InvalidControlError(`minimum gas price ${wei} wei is not a whole number of gwei below 2^64 gwei (the node's floor counts in gwei)`)
    }
    this.#chain.setMinGasPrice(wei / GWEI)
  }

  /** Turns the devnet's console.log lines on or off (anvil_setLoggingEnabled); a reset turns them on again. */
  setLoggingEnabled(on: boolean): void {
    this.#chain.loggingEnabled = on
  }

  /** Sets the balances of either token of an address in either rendering. */
  async setBalance(address: string, change: BalanceChange): Promise<void> {
    if ((change.main ?? 0n) < 0n || (change.gas ?? 0n) < 0n) throw new InvalidControlError('balances cannot be negative')
    await this.#chain.setAccount(parseAnyAddress(address), change)
  }

  /**
   * Makes `token`'s balanceOf(`owner`) answer `amount` (base units) by writing the
   * storage slot the getter reads, as anvil_dealERC20 (controls/erc20.ts); on the
   * chain's gas or main token, sets the account's balance of it.
   */
  async dealErc20(token: string, owner: string, amount: bigint): Promise<void> {
    const { dealErc20 } = await erc20()
    await dealErc20(this.#storageWriter, parseAnyAddress(token), parseAnyAddress(owner), amount)
  }

  /** Makes `token`'s allowance(`owner`, `spender`) answer `amount`, as anvil_setERC20Allowance (controls/erc20.ts). */
  async setErc20Allowance(token: string, owner: string, spender: string, amount: bigint): Promise<void> {
    const { setErc20Allowance } = await erc20()
    await setErc20Allowance(this.#storageWriter, parseAnyAddress(token), parseAnyAddress(owner), parseAnyAddress(spender), amount)
  }

  /** What controls/erc20.ts writes through: storage and balances, persisted as the other setters persist them. */
  get #storageWriter() {
    const chain = this.#chain
    return {
      chain,
      setStorage: (address: Uint8Array, slot: Uint8Array, value: Uint8Array) => chain.setStorage(address, slot, value),
      setBalances: (address: Uint8Array, change: BalanceChange) => chain.setAccount(address, change),
    }
  }

  /** Sets the EVM nonce of an address. */
  async setNonce(address: string, nonce: bigint): Promise<void> {
    if (nonce < 0n || nonce >= 2n ** 64n) throw new InvalidControlError(`invalid nonce ${nonce}`)
    await this.#chain.setAccount(parseAnyAddress(address), { nonce })
  }

  /** Sets the EVM code of an address (empty removes it). */
  async setCode(address: string, code: Uint8Array): Promise<void> {
    await this.#chain.setAccount(parseAnyAddress(address), { code })
  }

  /** Sets one storage slot (32 bytes) of an address to a 32-byte value. */
  async setStorageAt(address: string, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32 || value.length !== 32) throw new InvalidControlError('storage slot and value must be 32 bytes each')
    await this.#chain.setStorage(parseAnyAddress(address), slot, value)
  }

  /** Lets eth_sendTransaction send as `address` without its key. */
  impersonate(address: string): void {
    this.#impersonated.add(toHexRaw(parseAnyAddress(address)))
  }

  /** Ends an impersonation. */
  stopImpersonating(address: string): void {
    this.#impersonated.delete(toHexRaw(parseAnyAddress(address)))
  }

  /** Whether `address` (20 bytes) is impersonated (every address is while auto-impersonation is on). */
  isImpersonated(address: Uint8Array): boolean {
    return this.#autoImpersonate || this.#impersonated.has(toHexRaw(address))
  }

  /** anvil_autoImpersonateAccount: while on, eth_sendTransaction sends as any address without its key (Anvil's crates/anvil/src/eth/api.rs). */
  setAutoImpersonate(on: boolean): void {
    this.#autoImpersonate = on
  }

  /** Adds `wei` to the gas-token balance of an address (anvil_addBalance): the balance eth_getBalance shows. */
  async addBalance(address: string, wei: bigint): Promise<void> {
    if (wei < 0n) throw new InvalidControlError('balances cannot be negative')
    const raw = parseAnyAddress(address)
    const gas = this.#chain.account(raw).gas + wei
    await this.#chain.setAccount(raw, { gas })
  }
}
