/**
 * The gas a transaction owes before it runs, by the hardfork's rules: the intrinsic gas
 * (every hardfork) and EIP-7623's calldata floor (Prague). Kept apart from the engine so
 * that the pool can refuse a transaction below them without loading the EVM.
 */
import type { Common } from '@ethereumjs/common'

/** The hardfork's rules these read (engine.ts reads them from @ethereumjs/common). */
export interface TransactionGasRules {
  /** Gas per non-zero calldata byte: 16 from Istanbul (EIP-2028), 68 before. */
  dataNonZeroGas: bigint
  /** Gas per 32-byte word of init code (EIP-3860, Shanghai); 0 before. */
  initCodeWordGas: bigint
  /** Gas per calldata token of EIP-7623's floor (Prague: 10); 0 before. */
  floorGasPerToken: bigint
}

/** The rules of `common`'s hardfork, as @ethereumjs/vm's runTx reads them. */
export function transactionGasRules(common: Common): TransactionGasRules {
  return {
    dataNonZeroGas: common.gteHardfork('istanbul') ? 16n : 68n,
    initCodeWordGas: common.isActivatedEIP(3860) ? 2n : 0n,
    floorGasPerToken: common.isActivatedEIP(7623) ? TOTAL_COST_FLOOR_PER_TOKEN : 0n,
  }
}

/** The chain's own rules (Istanbul, reference §6.3). */
export const ISTANBUL_GAS_RULES: TransactionGasRules = { dataNonZeroGas: 16n, initCodeWordGas: 0n, floorGasPerToken: 0n }

/** EIP-7623's TOTAL_COST_FLOOR_PER_TOKEN. */
export const TOTAL_COST_FLOOR_PER_TOKEN = 10n

/**
 * Intrinsic gas of a transaction: 21,000, +32,000 for a creation, 4 per zero and
 * (from Istanbul) 16 per non-zero data byte, + the init-code word cost of EIP-3860.
 */
export function intrinsicGas(to: Uint8Array | undefined, data: Uint8Array, rules: Pick<TransactionGasRules, 'dataNonZeroGas' | 'initCodeWordGas'> = ISTANBUL_GAS_RULES): bigint {
  let zeros = 0
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  const calldata = BigInt(zeros) * 4n + BigInt(data.length - zeros) * rules.dataNonZeroGas
  if (to !== undefined) return 21_000n + calldata
  return 53_000n + calldata + rules.initCodeWordGas * BigInt(Math.ceil(data.length / 32))
}

/**
 * EIP-7623's floor on the gas a transaction uses (Prague): 21,000 + 10 per calldata
 * token, a zero byte one token and a non-zero byte four, for a creation as for a call.
 * A transaction whose gas limit is below it cannot run, and one that used less (after
 * its refund) pays it. 0 where the rule is not in force (`perToken` 0).
 */
export function floorGas(data: Uint8Array, perToken: bigint): bigint {
  if (perToken === 0n) return 0n
  let tokens = 0
  for (let i = 0; i < data.length; i++) tokens += data[i] === 0 ? 1 : 4
  return 21_000n + perToken * BigInt(tokens)
}

/**
 * The least gas limit a transaction can run with: its intrinsic gas, or EIP-7623's
 * floor where that is higher (go-ethereum refuses a transaction below either in its
 * pool: `ErrIntrinsicGas`, `ErrFloorDataGas`).
 */
export function requiredGas(to: Uint8Array | undefined, data: Uint8Array, rules: TransactionGasRules): bigint {
  const intrinsic = intrinsicGas(to, data, rules)
  const floor = floorGas(data, rules.floorGasPerToken)
  return floor > intrinsic ? floor : intrinsic
}

/**
 * The gas a transaction needs to run ({@link requiredGas}) when `gasLimit` is below it,
 * else `undefined`. A limit at or above the most that data of its length could need
 * (every byte at the higher of the non-zero calldata price and four floor tokens) is
 * answered without a pass over the data: the pool asks this of every transaction, and
 * nearly every one has such a limit (a pass cost about 1% of the first hundred
 * transfers' instructions, measured with callgrind).
 */
export function requiredGasAbove(gasLimit: bigint, to: Uint8Array | undefined, data: Uint8Array, rules: TransactionGasRules): bigint | undefined {
  // In doubles: a limit past 2^53 loses precision but still compares above any bound.
  const limit = Number(gasLimit)
  const length = data.length
  const perByte = Math.max(Number(rules.dataNonZeroGas), 4 * Number(rules.floorGasPerToken))
  const most = (to === undefined ? 53_000 + Math.ceil(length / 32) * Number(rules.initCodeWordGas) : 21_000) + length * perByte
  if (limit >= most) return undefined
  const required = requiredGas(to, data, rules)
  return gasLimit < required ? required : undefined
}
