/**
 * The param specs of a simulation's overrides (eth_call, eth_estimateGas,
 * debug_traceCall): go-ethereum's state override set (`override.StateOverride`) and
 * block overrides (`override.BlockOverrides`, internal/ethapi/override/override.go),
 * parsed to the execution's terms (evm/overrides.ts). What the devnet cannot honour is
 * refused with -32602 naming it, never ignored: a field go-ethereum does not define,
 * and a block field the devnet's hardfork lacks.
 */
import type { BlockOverrides as WireBlockOverrides, RpcTraceCallOptions, StateOverride } from '../core/rpcObjects.ts'
import type { AccountOverride, BlockOverrides, SimulationOverrides, StateOverrides } from '../evm/overrides.ts'
import type { EvmExecutor } from '../evm/executor.ts'
import { checksumAddress } from '../util/checksumAddress.ts'
import { toHexRaw } from '../util/hex.ts'
import type { ParamSpec } from './declare.ts'
import { RpcError, RpcErrorCode, invalidArgument } from './errors.ts'
import { parseAddress, parseData, parseFixedData, parseQuantity, parseStorageSlot } from './params.ts'
import { param } from './paramSpecs.ts'

/** 2^64-1: go-ethereum's `hexutil.Uint64` fields (nonce, time, gasLimit). */
const MAX_UINT64 = (1n << 64n) - 1n

const ACCOUNT_FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff', 'movePrecompileToAddress'])

/**
 * A state override set (eth_call's third argument, eth_estimateGas's third): per
 * address, `balance` (wei), `nonce`, `code`, `state` or `stateDiff` (32-byte slots to
 * 32-byte values) and `movePrecompileToAddress`. Absent or null fields are left
 * alone. -32602 for a malformed value or a field go-ethereum does not define; -32000
 * `account 0x… has both 'state' and 'stateDiff'` (go-ethereum's text and code).
 */
export const stateOverrides = (name: string): ParamSpec<StateOverride, StateOverrides> => param(name, (value, index) => parseStateOverrides(value, index, name))

/**
 * Block overrides (eth_call's fourth argument, eth_estimateGas's fourth): `number`,
 * `difficulty`, `time`, `gasLimit`, `feeRecipient`, `prevRandao`, `baseFeePerGas`,
 * `blobBaseFee`. -32602 for a malformed value, a field go-ethereum does not define,
 * `beaconRoot` and `withdrawals` (go-ethereum's text: not for these methods), and a
 * field the devnet's hardfork lacks (see {@link parseBlockOverrides}).
 */
export const blockOverrides = (name: string): ParamSpec<WireBlockOverrides, BlockOverrides> => param(name, (value, index, ctx) => parseBlockOverrides(value, index, name, ctx.chain.executor))

/** debug_traceCall's options, split: the trace options as sent (rpc/traceConfig.ts reads them), and the overrides they carry. */
export interface TraceCallConfig {
  /** The options object as sent (`undefined` when absent): tracer, its config, flags, timeout. */
  readonly options: unknown
  /** `stateOverrides` and `blockOverrides`, parsed as eth_call's; `undefined` when neither is given. */
  readonly overrides: SimulationOverrides | undefined
}

/**
 * debug_traceCall's options (go-ethereum's `TraceCallConfig`): the trace options, whose
 * checks are traceConfig.ts's, and `stateOverrides` / `blockOverrides`, parsed here as
 * {@link stateOverrides} and {@link blockOverrides} parse eth_call's.
 */
export const traceCallConfig = (name: string): ParamSpec<RpcTraceCallOptions, TraceCallConfig> =>
  param(name, (value, index, ctx) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { options: value, overrides: undefined }
    const { stateOverrides: state, blockOverrides: block } = value as Record<string, unknown>
    return {
      options: value,
      overrides: simulationOverrides(
        state === undefined || state === null ? undefined : parseStateOverrides(state, index, `${name}.stateOverrides`),
        block === undefined || block === null ? undefined : parseBlockOverrides(block, index, `${name}.blockOverrides`, ctx.chain.executor),
      ),
    }
  })

/** The overrides of one simulation, `undefined` (no cost downstream) when there are none. */
export function simulationOverrides(state: StateOverrides | undefined, block: BlockOverrides | undefined): SimulationOverrides | undefined {
  return state === undefined && block === undefined ? undefined : { state, block }
}

export function parseStateOverrides(value: unknown, index: number, where: string): StateOverrides {
  const set = object(value, index, where, 'override.StateOverride')
  const out = new Map<string, AccountOverride>()
  for (const [key, account] of Object.entries(set)) {
    const address = toHexRaw(at(`${where} key ${JSON.stringify(key)}`, () => parseAddress(key, index)))
    out.set(address, parseAccountOverride(account, index, `${where}[${checksumAddress(address)}]`, address))
  }
  return out
}

function parseAccountOverride(value: unknown, index: number, where: string, address: string): AccountOverride {
  const fields = object(value, index, where, 'override.OverrideAccount')
  for (const key of Object.keys(fields)) {
    if (!ACCOUNT_FIELDS.has(key)) {
      throw invalidArgument(index, `unknown field ${JSON.stringify(key)} in ${where}: an account override takes ${[...ACCOUNT_FIELDS].join(', ')}`)
    }
  }
  const { balance, nonce, code, state, stateDiff, movePrecompileToAddress: moveTo } = fields
  const given = (v: unknown): boolean => v !== undefined && v !== null
  if (given(state) && given(stateDiff)) {
    // go-ethereum's text and code (override.StateOverride.Apply answers a plain error).
    throw new RpcError(RpcErrorCode.ServerError, `account ${checksumAddress(address)} has both 'state' and 'stateDiff'`)
  }
  return {
    balance: given(balance) ? at(`${where}.balance`, () => parseQuantity(balance, index)) : undefined,
    nonce: given(nonce) ? uint64(nonce, index, `${where}.nonce`) : undefined,
    code: given(code) ? at(`${where}.code`, () => parseData(code, index)) : undefined,
    state: given(state) ? parseStorage(state, index, `${where}.state`) : undefined,
    stateDiff: given(stateDiff) ? parseStorage(stateDiff, index, `${where}.stateDiff`) : undefined,
    movePrecompileToAddress: given(moveTo) ? toHexRaw(at(`${where}.movePrecompileToAddress`, () => parseAddress(moveTo, index))) : undefined,
  }
}

/** `state` / `stateDiff`: 32-byte slots to 32-byte values (go-ethereum's `map[common.Hash]common.Hash`), keyed as the world state keys slots. */
function parseStorage(value: unknown, index: number, where: string): ReadonlyMap<string, Uint8Array> {
  const slots = object(value, index, where, 'map[common.Hash]common.Hash')
  const out = new Map<string, Uint8Array>()
  for (const [key, word] of Object.entries(slots)) {
    const slot = toHexRaw(at(`${where} key ${JSON.stringify(key)}`, () => parseFixedData(key, index, 32, 'common.Hash')))
    out.set(
      slot,
      at(`${where}[${key}]`, () => parseFixedData(word, index, 32, 'common.Hash')),
    )
  }
  return out
}

/** The fields of go-ethereum's `BlockOverrides` that these methods take (`beaconRoot` and `withdrawals` are refused, as go-ethereum does). */
const BLOCK_FIELDS = ['number', 'difficulty', 'time', 'gasLimit', 'feeRecipient', 'prevRandao', 'baseFeePerGas', 'blobBaseFee'] as const

/**
 * Parses block overrides, refusing what the devnet's EVM cannot honour (-32602 naming
 * the field): `difficulty` from the merge on (0x44 reads PREVRANDAO there: go-ethereum
 * ignores it, the devnet says so), `prevRandao` before the merge (0x44 is DIFFICULTY),
 * `baseFeePerGas` without EIP-1559 (the chain's Istanbul has no BASEFEE and its blocks
 * no base fee, reference §6.3), `blobBaseFee` without EIP-4844 (no blobs); `beaconRoot`
 * and `withdrawals` always, with go-ethereum's text.
 */
export function parseBlockOverrides(value: unknown, index: number, where: string, evm: Pick<EvmExecutor, 'hardfork' | 'hasBaseFee' | 'hasPrevRandao' | 'hasBlobBaseFee'>): BlockOverrides {
  const fields = object(value, index, where, 'override.BlockOverrides')
  for (const key of Object.keys(fields)) {
    if (fields[key] === undefined || fields[key] === null) continue
    if (key === 'beaconRoot' || key === 'withdrawals') throw invalidArgument(index, `block override ${JSON.stringify(key)} is not supported for this RPC method`)
    if (!(BLOCK_FIELDS as readonly string[]).includes(key)) {
      throw invalidArgument(index, `unknown field ${JSON.stringify(key)} in ${where}: block overrides take ${BLOCK_FIELDS.join(', ')}`)
    }
    const lacking = missingFeature(key as (typeof BLOCK_FIELDS)[number], evm)
    if (lacking !== undefined) throw invalidArgument(index, `block override ${JSON.stringify(key)} is not supported: ${lacking} on hardfork ${evm.hardfork}`)
  }
  const f = (key: (typeof BLOCK_FIELDS)[number]): unknown => (fields[key] === null ? undefined : fields[key])
  const quantity = (key: (typeof BLOCK_FIELDS)[number]): bigint | undefined => {
    const v = f(key)
    return v === undefined ? undefined : at(`${where}.${key}`, () => parseQuantity(v, index))
  }
  const time = f('time')
  const gasLimit = f('gasLimit')
  const feeRecipient = f('feeRecipient')
  const prevRandao = f('prevRandao')
  return {
    number: quantity('number'),
    difficulty: quantity('difficulty'),
    time: time === undefined ? undefined : uint64(time, index, `${where}.time`),
    gasLimit: gasLimit === undefined ? undefined : uint64(gasLimit, index, `${where}.gasLimit`),
    feeRecipient: feeRecipient === undefined ? undefined : at(`${where}.feeRecipient`, () => parseAddress(feeRecipient, index)),
    // 1 to 64 hex digits, left-padded: viem sends it as a QUANTITY (ox BlockOverrides.toRpc), go-ethereum's clients as 32 bytes.
    prevRandao: prevRandao === undefined ? undefined : at(`${where}.prevRandao`, () => parseStorageSlot(prevRandao, index)),
    baseFeePerGas: quantity('baseFeePerGas'),
    blobBaseFee: quantity('blobBaseFee'),
  }
}

/** Why the EVM cannot honour block field `key`, or `undefined` when it can. */
function missingFeature(key: (typeof BLOCK_FIELDS)[number], evm: Pick<EvmExecutor, 'hasBaseFee' | 'hasPrevRandao' | 'hasBlobBaseFee'>): string | undefined {
  switch (key) {
    case 'difficulty':
      return evm.hasPrevRandao ? 'opcode 0x44 reads PREVRANDAO, not DIFFICULTY (set prevRandao)' : undefined
    case 'prevRandao':
      return evm.hasPrevRandao ? undefined : 'there is no PREVRANDAO before the merge (opcode 0x44 is DIFFICULTY: set difficulty)'
    case 'baseFeePerGas':
      return evm.hasBaseFee ? undefined : 'the chain has no base fee and no BASEFEE opcode'
    case 'blobBaseFee':
      return evm.hasBlobBaseFee ? undefined : 'the chain has no blobs and no BLOBBASEFEE opcode'
    default:
      return undefined
  }
}

/** A JSON object at argument `index`, else -32602 in go-ethereum's JSON wording for `type`. */
function object(value: unknown, index: number, where: string, type: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, `json: cannot unmarshal non-object into Go value of type ${type} (${where})`)
  return value as Record<string, unknown>
}

/** A QUANTITY of at most 64 bits (go-ethereum's `hexutil.Uint64`). */
function uint64(value: unknown, index: number, where: string): bigint {
  const n = at(where, () => parseQuantity(value, index))
  if (n > MAX_UINT64) throw invalidArgument(index, `hex number > 64 bits (${where})`)
  return n
}

/** Runs `parse`, naming `where` (the field inside the argument) in a -32602 it throws. */
function at<T>(where: string, parse: () => T): T {
  try {
    return parse()
  } catch (err) {
    if (err instanceof RpcError && err.code === RpcErrorCode.InvalidParams) throw new RpcError(err.code, `${err.message} (${where})`, { cause: err.cause })
    throw err
  }
}
