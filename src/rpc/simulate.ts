/**
 * eth_simulateV1's wire shapes (execution-apis src/eth/execute.yaml and
 * src/schemas/execute.yaml; go-ethereum internal/ethapi/simulate.go): the parse of
 * `opts` into the chain's terms (chain/simulateBlocks.ts) and the rendering of the
 * simulated blocks. What the chain cannot honour is refused with -32602 naming it:
 * EIP-1559, EIP-2930, EIP-4844 and EIP-7702 transaction fields (the chain takes legacy
 * transactions only, reference §6.5).
 */
import type { Address, Hash, Hex, RpcLog, RpcSimulatedBlock, RpcSimulatedCall, RpcTransaction } from '../core/rpcObjects.ts'

import { LEGACY_ONLY_HINT } from '../core/errors.ts'
import type { SimulatedBlock, SimulatedBlockInput, SimulatedCallInput } from '../chain/simulateBlocks.ts'
import { decodeRevertReason } from '../evm/revertReason.ts'
import { describeValue } from '../errors/describe.ts'
import { toHex, toQuantity } from '../util/hex.ts'
import type { RpcContext } from './context.ts'
import { parseManyCall } from './callMany.ts'
import { RpcError, invalidArgument } from './errors.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'
import { parseBoolean } from './params.ts'
import { EMPTY_TRIE_ROOT, EMPTY_UNCLES_HASH } from '../core/constants.ts'

/** Most calls one simulation takes in all its blocks (a client-adjustable limit: -38026 past it). */
export const MAX_SIMULATED_CALLS = 1000

/** The parsed options. */
export interface SimulateOptions {
  readonly blocks: SimulatedBlockInput[]
  readonly validation: boolean
  readonly traceTransfers: boolean
  readonly returnFullTransactions: boolean
}

const OPTION_FIELDS = new Set(['blockStateCalls', 'validation', 'traceTransfers', 'returnFullTransactions'])
const BLOCK_FIELDS = new Set(['blockOverrides', 'stateOverrides', 'calls'])

function object(value: unknown, index: number, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, `${where}: expected an object, got ${describeValue(value)}`)
  return value as Record<string, unknown>
}

const given = (v: unknown): boolean => v !== undefined && v !== null

/**
 * Parses eth_simulateV1's `opts` (argument `index`): -32602 naming the field for a
 * malformed value, an unknown field, a transaction field of a type the chain does not
 * take, or no blocks; -38026 past {@link MAX_SIMULATED_CALLS} calls.
 */
export function parseSimulateOptions(value: unknown, index: number, ctx: RpcContext): SimulateOptions {
  const o = object(value, index, 'opts')
  for (const key of Object.keys(o)) if (!OPTION_FIELDS.has(key)) throw invalidArgument(index, `unknown field ${describeValue(key)} in opts: it takes ${[...OPTION_FIELDS].join(', ')}`)
  if (!Array.isArray(o.blockStateCalls)) throw invalidArgument(index, 'opts.blockStateCalls: expected an array of blocks')
  // go-ethereum: "empty input" (-32602).
  if (o.blockStateCalls.length === 0) throw invalidArgument(index, 'empty input: opts.blockStateCalls holds no block')
  let total = 0
  const blocks = o.blockStateCalls.map((entry: unknown, b): SimulatedBlockInput => {
    const where = `opts.blockStateCalls[${b}]`
    const fields = object(entry, index, where)
    for (const key of Object.keys(fields)) if (!BLOCK_FIELDS.has(key)) throw invalidArgument(index, `unknown field ${describeValue(key)} in ${where}: it takes blockOverrides, stateOverrides, calls`)
    const calls = given(fields.calls) ? fields.calls : []
    if (!Array.isArray(calls)) throw invalidArgument(index, `${where}.calls: expected an array of calls`)
    total += calls.length
    if (total > MAX_SIMULATED_CALLS) throw new RpcError(-38026, `too many calls: more than ${MAX_SIMULATED_CALLS} in one simulation`)
    return {
      block: given(fields.blockOverrides) ? parseBlockOverrides(fields.blockOverrides, index, `${where}.blockOverrides`, ctx.chain.executor) : undefined,
      state: given(fields.stateOverrides) ? parseStateOverrides(fields.stateOverrides, index, `${where}.stateOverrides`) : undefined,
      calls: calls.map((call: unknown, c) => parseCall(call, index, `${where}.calls[${c}]`)),
    }
  })
  const flag = (key: string): boolean => (given(o[key]) ? parseFlag(o[key], index, `opts.${key}`) : false)
  return { blocks, validation: flag('validation'), traceTransfers: flag('traceTransfers'), returnFullTransactions: flag('returnFullTransactions') }
}

function parseFlag(value: unknown, index: number, where: string): boolean {
  try {
    return parseBoolean(value, index)
  } catch {
    throw invalidArgument(index, `${where}: expected a boolean, got ${describeValue(value)}`)
  }
}

function parseCall(value: unknown, index: number, where: string): SimulatedCallInput {
  const o = object(value, index, where)
  if (given(o.type) && o.type !== '0x0' && o.type !== '0x00') throw invalidArgument(index, `${where}.type ${describeValue(o.type)} is not supported: ${LEGACY_ONLY_HINT}`)
  return parseManyCall(value, index, where)
}

const ZERO_HASH: Hash = `0x${'00'.repeat(32)}`
const EMPTY_BLOOM: Hex = `0x${'00'.repeat(256)}`

/**
 * Renders a simulated block as go-ethereum's simulate answers it: the block object
 * (served as the chain's blocks are: zero state root and bloom; `baseFeePerGas` where
 * the hardfork has it; `miner` the block's coinbase), with the transactions' hashes
 * or, with `fullTransactions`, their objects (from as given, the placeholder
 * signature), and `calls`: per call its return data, logs (the gas-token Transfer logs
 * among them), gas used, status and error.
 */
export function formatSimulatedBlock(block: SimulatedBlock, fullTransactions: boolean, hasBaseFee: boolean): RpcSimulatedBlock {
  const blockHash = toHex(block.hash)
  const blockNumber = toQuantity(block.number)
  let logIndex = 0
  const calls = block.calls.map(({ tx, outcome }, i): RpcSimulatedCall => {
    const transactionHash = toHex(tx.hash)
    const logs = outcome.logs.map(
      ([address, topics, data]): RpcLog => ({
        address: toHex(address) as Address,
        topics: topics.map((t) => toHex(t) as Hash),
        data: toHex(data),
        blockNumber,
        transactionHash,
        transactionIndex: toQuantity(i),
        blockHash,
        logIndex: toQuantity(logIndex++),
        removed: false,
      }),
    )
    const result: RpcSimulatedCall = { returnData: toHex(outcome.returnValue), logs, gasUsed: toQuantity(outcome.gasUsed), status: outcome.status === 1 ? '0x1' : '0x0' }
    if (outcome.status === 0) {
      if (outcome.error?.kind === 'revert') {
        const reason = decodeRevertReason(outcome.returnValue)
        result.error = { code: -32000, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: toHex(outcome.returnValue) }
      } else {
        result.error = { code: -32015, message: outcome.error?.message ?? 'execution failed' }
      }
    }
    return result
  })
  const transactions = fullTransactions
    ? block.calls.map(
        ({ tx }, i): RpcTransaction => ({
          type: '0x0',
          hash: toHex(tx.hash),
          nonce: toQuantity(tx.nonce),
          blockHash,
          blockNumber,
          transactionIndex: toQuantity(i),
          from: toHex(tx.from) as Address,
          to: tx.to === undefined ? null : (toHex(tx.to) as Address),
          value: toQuantity(tx.value),
          gasPrice: toQuantity(tx.gasPrice),
          gas: toQuantity(tx.gasLimit),
          input: toHex(tx.data),
          v: toQuantity(tx.v),
          r: toQuantity(tx.r),
          s: toQuantity(tx.s),
        }),
      )
    : block.calls.map(({ tx }) => toHex(tx.hash) as Hash)
  return {
    number: blockNumber,
    hash: blockHash,
    parentHash: toHex(block.parentHash),
    nonce: '0x0000000000000000',
    mixHash: toHex(block.env.prevRandao),
    sha3Uncles: EMPTY_UNCLES_HASH,
    logsBloom: EMPTY_BLOOM,
    transactionsRoot: EMPTY_TRIE_ROOT,
    stateRoot: ZERO_HASH,
    receiptsRoot: EMPTY_TRIE_ROOT,
    miner: toHex(block.env.coinbase) as Address,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: '0x0',
    gasLimit: toQuantity(block.gasLimit),
    gasUsed: toQuantity(block.gasUsed),
    timestamp: toQuantity(block.timestamp),
    ...(hasBaseFee ? { baseFeePerGas: toQuantity(block.env.baseFeePerGas) } : {}),
    transactions,
    uncles: [],
    calls,
  }
}
