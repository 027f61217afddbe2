/**
 * The shared parse of Erigon's eth_callMany and trace_callMany arguments
 * (turbo/jsonrpc eth_callMany.go, trace_adhoc.go `CallMany`; alloy `Bundle`,
 * `StateContext`, as Anvil serves them), into chain/simulateBlocks.ts's terms: each
 * bundle a block of calls run in the environment of an eth_call at the state
 * context's block, its block override translated to go-ethereum's names.
 */
import type { SimulatedBlockInput, SimulatedCallInput } from '../chain/simulateBlocks.ts'
import type { SimulationBlock } from '../chain/chainTypes.ts'
import { LEGACY_ONLY_HINT } from '../core/errors.ts'
import { describeValue } from '../errors/describe.ts'
import type { RpcContext } from './context.ts'
import { parseCallFields } from './callRequest.ts'
import { RpcError, invalidArgument } from './errors.ts'
import { parseBlockOverrides } from './overrides.ts'
import { simulationBlock } from './paramSpecs.ts'
import type { BlockOverrides } from '../evm/overrides.ts'

/** Erigon's and alloy's block override names, as go-ethereum's `BlockOverrides` names them. */
const BLOCK_OVERRIDE_NAMES: Record<string, string> = {
  blockNumber: 'number',
  number: 'number',
  timestamp: 'time',
  time: 'time',
  coinbase: 'feeRecipient',
  feeRecipient: 'feeRecipient',
  difficulty: 'difficulty',
  gasLimit: 'gasLimit',
  baseFee: 'baseFeePerGas',
  baseFeePerGas: 'baseFeePerGas',
  random: 'prevRandao',
  prevRandao: 'prevRandao',
}

const LIMIT = 1000

/** Transaction fields of other types than legacy, refused by name (an empty list is taken: clients send one). */
const NON_LEGACY_FIELDS = ['accessList', 'authorizationList', 'blobVersionedHashes', 'maxFeePerBlobGas', 'blobs', 'sidecars']

function object(value: unknown, index: number, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, `${where}: expected an object, got ${describeValue(value)}`)
  return value as Record<string, unknown>
}

/** One call object at `where` (eth_callMany, trace_callMany, eth_simulateV1): legacy fields only (-32602 naming the field otherwise), as eth_call takes it. */
export function parseManyCall(value: unknown, index: number, where: string): SimulatedCallInput {
  const o = object(value, index, where)
  for (const key of NON_LEGACY_FIELDS) {
    const v = o[key]
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)) throw invalidArgument(index, `${where}.${key} is not supported: ${LEGACY_ONLY_HINT}`)
  }
  try {
    const f = parseCallFields(value, index)
    return { from: f.from, to: f.to, gas: f.gas, gasPrice: f.gasPrice, value: f.value, data: f.data, nonce: f.nonce }
  } catch (err) {
    if (err instanceof RpcError) throw new RpcError(err.code, `${err.message} (${where})`)
    throw err
  }
}

/**
 * eth_callMany's bundles (argument `index`): -32602 naming the field for a malformed
 * value, an unknown field, an override field the devnet cannot honour (`blockHash`
 * among them: the devnet cannot serve another hash to BLOCKHASH), more than 1,000
 * calls in all.
 */
export function parseBundles(value: unknown, index: number, ctx: RpcContext): SimulatedBlockInput[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidArgument(index, 'bundles: expected a non-empty array of bundles')
  let total = 0
  return value.map((entry: unknown, b): SimulatedBlockInput => {
    const where = `bundles[${b}]`
    const o = object(entry, index, where)
    for (const key of Object.keys(o))
      if (key !== 'transactions' && key !== 'blockOverride') throw invalidArgument(index, `unknown field ${describeValue(key)} in ${where}: it takes transactions, blockOverride`)
    if (!Array.isArray(o.transactions)) throw invalidArgument(index, `${where}.transactions: expected an array of calls`)
    total += o.transactions.length
    if (total > LIMIT) throw invalidArgument(index, `too many calls: more than ${LIMIT} in all bundles`)
    let block: BlockOverrides | undefined
    if (o.blockOverride !== undefined && o.blockOverride !== null) {
      const translated: Record<string, unknown> = {}
      for (const [key, v] of Object.entries(object(o.blockOverride, index, `${where}.blockOverride`))) {
        const name = BLOCK_OVERRIDE_NAMES[key]
        if (name === undefined) throw invalidArgument(index, `unknown field ${describeValue(key)} in ${where}.blockOverride: it takes ${Object.keys(BLOCK_OVERRIDE_NAMES).join(', ')}`)
        translated[name] = v
      }
      block = parseBlockOverrides(translated, index, `${where}.blockOverride`, ctx.chain.executor)
    }
    return { block, calls: o.transactions.map((call: unknown, c) => parseManyCall(call, index, `${where}.transactions[${c}]`)) }
  })
}

/** The parsed state context: the block (default latest) and the transaction index, when given and not -1 of pending. */
export interface StateContext {
  readonly at: SimulationBlock
  readonly transactionIndex: number | undefined
}

/** eth_callMany's state context (argument `index`; absent: the latest block's state). */
export function parseStateContext(value: unknown, index: number, ctx: RpcContext): StateContext {
  if (value === undefined || value === null) return { at: ctx.chain.height, transactionIndex: undefined }
  const o = object(value, index, 'stateContext')
  for (const key of Object.keys(o))
    if (key !== 'blockNumber' && key !== 'transactionIndex') throw invalidArgument(index, `unknown field ${describeValue(key)} in stateContext: it takes blockNumber, transactionIndex`)
  const at = o.blockNumber === undefined || o.blockNumber === null ? ctx.chain.height : simulationBlock('stateContext.blockNumber').parse(o.blockNumber, index, ctx)
  const given = o.transactionIndex
  if (given === undefined || given === null) return { at, transactionIndex: undefined }
  if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < -1)
    throw invalidArgument(index, `stateContext.transactionIndex: expected an integer of -1 or more, got ${describeValue(given)}`)
  if (at === 'pending' && given !== -1) throw invalidArgument(index, 'stateContext.transactionIndex: the pending block has no transactions to count')
  return { at, transactionIndex: at === 'pending' ? undefined : given }
}
