/**
 * How the EVM block environment is stored: the environment each built block was mined
 * in (on its `b:` entry, {@link StoredBlock}) and the block settings of the blocks to
 * come (on `m:tip`, {@link StoredTip}), so that a resumed chain's COINBASE, GASLIMIT,
 * BASEFEE and PREVRANDAO read what they read before the restart. Bytes are hex, numbers
 * decimal strings (JSON has no bigint).
 */
import type { BlockSettingsState } from '../chain/blockSettings.ts'
import type { BlockEnvironment } from '../evm/execution.ts'
import { fromHex, toHexRaw } from '../util/hex.ts'

/** A {@link BlockEnvironment} as stored. */
export interface StoredEnvironment {
  /** 20 bytes, hex. */
  coinbase: string
  /** Decimal. */
  gasLimit: string
  /** Wei, decimal. */
  baseFeePerGas: string
  /** 32 bytes, hex. */
  prevRandao: string
}

/** A {@link BlockSettingsState} as stored; the one-shot settings only while set. */
export interface StoredBlockSettings {
  /** 20 bytes, hex. */
  coinbase: string
  /** Decimal. */
  gasLimit: string
  /** Wei, decimal. */
  nextBaseFee?: string
  /** 32 bytes, hex. */
  nextPrevRandao?: string
}

export function encodeEnvironment(env: BlockEnvironment): StoredEnvironment {
  return { coinbase: toHexRaw(env.coinbase), gasLimit: String(env.gasLimit), baseFeePerGas: String(env.baseFeePerGas), prevRandao: toHexRaw(env.prevRandao) }
}

/** Throws on a malformed environment (the caller names the entry). */
export function decodeEnvironment(stored: StoredEnvironment): BlockEnvironment {
  return Object.freeze({
    coinbase: bytesOf(stored.coinbase, 20, 'coinbase'),
    gasLimit: decimal(stored.gasLimit, 'gasLimit'),
    baseFeePerGas: decimal(stored.baseFeePerGas, 'baseFeePerGas'),
    prevRandao: bytesOf(stored.prevRandao, 32, 'prevRandao'),
  })
}

export function encodeBlockSettings(state: BlockSettingsState): StoredBlockSettings {
  const stored: StoredBlockSettings = { coinbase: toHexRaw(state.coinbase), gasLimit: String(state.gasLimit) }
  if (state.nextBaseFee !== undefined) stored.nextBaseFee = String(state.nextBaseFee)
  if (state.nextPrevRandao !== undefined) stored.nextPrevRandao = toHexRaw(state.nextPrevRandao)
  return stored
}

/** Throws on malformed settings (the caller names the entry). */
export function decodeBlockSettings(stored: StoredBlockSettings): BlockSettingsState {
  return {
    coinbase: bytesOf(stored.coinbase, 20, 'coinbase'),
    gasLimit: decimal(stored.gasLimit, 'gasLimit'),
    nextBaseFee: stored.nextBaseFee === undefined ? undefined : decimal(stored.nextBaseFee, 'nextBaseFee'),
    nextPrevRandao: stored.nextPrevRandao === undefined ? undefined : bytesOf(stored.nextPrevRandao, 32, 'nextPrevRandao'),
  }
}

function bytesOf(text: unknown, length: number, field: string): Uint8Array {
  if (typeof text !== 'string' || !new RegExp(`^[0-9a-f]{${length * 2}}$`).test(text)) throw new Error(`malformed ${field} ${JSON.stringify(text)} (${length} bytes of hex expected)`)
  return fromHex(text)
}

function decimal(text: unknown, field: string): bigint {
  if (typeof text !== 'string' || !/^(0|[1-9]\d*)$/.test(text)) throw new Error(`malformed ${field} ${JSON.stringify(text)} (a decimal integer expected)`)
  return BigInt(text)
}
