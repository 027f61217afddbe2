/**
 * A simulation's overrides (evm/overrides.ts) applied: the state override set to a
 * `ReplayWorld` (replay.ts) (the throw-away overlay a simulation with overrides runs on, on an
 * engine of its own: replay.ts `pendingEngine`), the block overrides to the run's
 * execution context. Nothing here writes to the devnet's state, its fork caches or its
 * engine, so nothing an override sets outlives the call, not even in a snapshot.
 */
import type { BlockOverrides, StateOverrides } from '../evm/overrides.ts'
import type { ExecutionContext } from '../evm/executor.ts'
import { CHAIN_BLOCK_ENVIRONMENT } from '../evm/execution.ts'
import type { ForkSource } from '../fork/source.ts'
import { ForkMiss } from '../fork/miss.ts'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import type { AccountRecord } from '../state/worldState.ts'

/** The overlay the set is written into (replay.ts `ReplayWorld`: its reads see the base height plus its writes). */
export interface OverlayWorld {
  getAccount(address: string): AccountRecord
  setAccount(address: string, record: AccountRecord): void
  setStorage(address: string, slot: string, value: Uint8Array): void
  clearStorage(address: string): void
  putCode(codeHash: string, code: Uint8Array): void
}

/**
 * Writes `overrides` into `world`, as go-ethereum's `override.StateOverride.Apply`
 * writes them before the call (as if a transaction just before it had): nonce, code,
 * balance, then `state` (the whole storage) or `stateDiff` (some slots). The
 * precompile moves are the engine's (EvmEngine.overridePrecompiles). Over a fork the
 * accounts whose record it rewrites are fetched first (together), and a value still missed is fetched and the
 * set applied again (it only writes the same values twice).
 */
export async function applyStateOverrides(world: OverlayWorld, overrides: StateOverrides, fork: ForkSource | undefined): Promise<void> {
  if (fork !== undefined) {
    const read = [...overrides].filter(([, o]) => o.nonce !== undefined || o.code !== undefined || o.balance !== undefined)
    if (read.length > 0) await fork.prefetch(read.map(([address]) => address))
  }
  for (;;) {
    try {
      writeOverrides(world, overrides)
      return
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err
      await err.load()
    }
  }
}

function writeOverrides(world: OverlayWorld, overrides: StateOverrides): void {
  for (const [address, o] of overrides) {
    if (o.nonce !== undefined || o.code !== undefined || o.balance !== undefined) {
      const record = world.getAccount(address)
      let codeHash = record.codeHash
      if (o.code !== undefined) {
        codeHash = o.code.length === 0 ? undefined : toHexRaw(keccak256(o.code))
        if (codeHash !== undefined) world.putCode(codeHash, o.code)
      }
      world.setAccount(address, { ...record, nonce: o.nonce ?? record.nonce, gas: o.balance ?? record.gas, codeHash })
    }
    if (o.state !== undefined) {
      world.clearStorage(address)
      for (const [slot, value] of o.state) world.setStorage(address, slot, storedValue(value))
    }
    if (o.stateDiff !== undefined) {
      for (const [slot, value] of o.stateDiff) world.setStorage(address, slot, storedValue(value))
    }
  }
}

/** A slot's value as the state holds it: without leading zeros (a zero is an empty slot), as the EVM's writes store it (evm/stateManager.ts). */
function storedValue(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.subarray(i)
}

/**
 * `ctx` under block overrides `block` (go-ethereum's `BlockOverrides.Apply` on the
 * block context): COINBASE, GASLIMIT, BASEFEE and PREVRANDAO through the environment
 * (so EIP-3651 warms the overridden coinbase and eth_estimateGas caps at the
 * overridden gas limit), NUMBER, TIMESTAMP, DIFFICULTY and BLOBBASEFEE through the
 * header overrides. The read height stays: the state is the block's.
 */
export function withBlockOverrides(ctx: ExecutionContext, block: BlockOverrides): ExecutionContext {
  const env = ctx.env ?? CHAIN_BLOCK_ENVIRONMENT
  return {
    ...ctx,
    env: {
      coinbase: block.feeRecipient ?? env.coinbase,
      gasLimit: block.gasLimit ?? env.gasLimit,
      baseFeePerGas: block.baseFeePerGas ?? env.baseFeePerGas,
      prevRandao: block.prevRandao ?? env.prevRandao,
    },
    header: { number: block.number, timestamp: block.time, difficulty: block.difficulty, blobBaseFee: block.blobBaseFee },
  }
}
