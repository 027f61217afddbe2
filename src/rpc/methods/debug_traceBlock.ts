import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { data, json, optional } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import type { RpcTraceOptions } from '../../core/rpcObjects.ts'
import type { BlockTrace } from '../schema.ts'
import type { ChainBlock } from '../../chain/block.ts'
import type { ReplayBlock } from '../../chain/replay.ts'
import type { RpcContext } from '../context.ts'
import { bytesEqual, bytesToBigInt, toHexRaw } from '../../util/hex.ts'
import { keccak256 } from '../../util/hash.ts'
import { describeValue } from '../../errors/describe.ts'

/** Field indices of a pre-London header in go-ethereum's RLP (core/types/block.go `Header`), as debug_getRawHeader lays it out. */
const PARENT_HASH = 0
const NUMBER = 8
const TIMESTAMP = 11
const HEADER_FIELDS = 15

type Decoded = Uint8Array | Decoded[]

/** `raw` as go-ethereum's block RLP `[header, transactions, uncles]`; refused (-32602, geth's `could not decode block: …`) otherwise. */
function decodeBlock(raw: Uint8Array): { header: Uint8Array[]; transactions: Decoded[] } {
  const bad = (why: string): never => {
    throw invalidArgument(0, `could not decode block: ${why}`)
  }
  let decoded: Decoded
  try {
    decoded = RLP.decode(raw) as Decoded
  } catch (err) {
    return bad(err instanceof Error ? err.message : describeValue(err))
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return bad('expected a list of header, transactions and uncles')
  const [header, transactions] = decoded as [Decoded, Decoded, Decoded]
  if (!Array.isArray(header) || header.length < HEADER_FIELDS || header.some((field) => Array.isArray(field))) return bad(`expected a header of ${HEADER_FIELDS} or more fields`)
  if ((header[PARENT_HASH] as Uint8Array).length !== 32) return bad('the header’s parent hash is not 32 bytes')
  if (!Array.isArray(transactions)) return bad('expected a list of transactions')
  return { header: header as Uint8Array[], transactions }
}

/**
 * The block the RLP describes, for the replay: the devnet's own block when it is one
 * (at the parent's next height, on that parent, with the same EVM transactions:
 * debug_getRawBlock leaves native transactions out, so the chain's block, which holds
 * them, is traced), else a block of the decoded transactions alone, hashed as geth
 * hashes one (keccak256 of its header's RLP).
 */
function replayBlockOf(ctx: RpcContext, parent: ChainBlock, header: Uint8Array[], transactions: readonly ReplayBlock['transactions'][number][]): ReplayBlock {
  const height = parent.header.height + 1
  const own = ctx.chain.blockAt(height)
  if (own !== undefined && bytesEqual(own.header.prevHash, parent.hash)) {
    const evm = own.transactions.flatMap((tx) => (tx.kind === 'evm' ? [toHexRaw(tx.hash)] : []))
    if (evm.length === transactions.length && evm.every((hash, i) => hash === toHexRaw(transactions[i]!.hash))) return own
  }
  return { hash: keccak256(RLP.encode(header)), header: { height, timestamp: Number(bytesToBigInt(header[TIMESTAMP]!)) }, transactions }
}

/**
 * debug_traceBlock(rlp, options?): go-ethereum's DebugAPI.TraceBlock
 * (eth/tracers/api.go): decodes the block's RLP (`[header, transactions, uncles]`, as
 * debug_getRawBlock answers it; transactions legacy, the chain's EIP-155 id) and
 * traces its transactions on its parent's state (the parent by the header's
 * `parentHash`, a block of the devnet), in block order, each with a fresh tracer of the
 * options, answering debug_traceBlockByNumber's `[{ txHash, result }]`. Changes nothing.
 * An RLP that does not decode, or a transaction that is not a signed legacy one, is
 * -32602 `could not decode block: …`; genesis (`genesis is not traceable`) and an
 * unknown parent (`parent 0x… not found`) are -32000, as geth answers them. The trace
 * limits are debug_traceTransaction's. Local on a fork: the parent must be a block the
 * fork holds (its fork block or later); one below it is not found.
 */
export const debug_traceBlock = defineMethod({
  name: 'debug_traceBlock',
  params: [data('rlp'), optional(json<RpcTraceOptions>('options'))],
  fork: { kind: 'local' },
  handler: async (ctx, [raw, options], { scope }) => {
    const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceBlock }, { TraceUnavailableError }, { decodeLegacyTransaction }, { wrapEvmTransaction }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/tracer.ts'),
      import('../../evm/legacyTransaction.ts'),
      import('../../chain/transaction.ts'),
    ])
    const { header, transactions } = decodeBlock(raw)
    const txs = transactions.map((item, i) => {
      if (!Array.isArray(item)) throw invalidArgument(0, `could not decode block: transaction ${i} is not a legacy transaction (the chain takes legacy transactions only)`)
      try {
        return wrapEvmTransaction(decodeLegacyTransaction(RLP.encode(item), BigInt(ctx.chainId)))
      } catch (err) {
        throw invalidArgument(0, `could not decode block: transaction ${i}: ${err instanceof Error ? err.message : describeValue(err)}`)
      }
    })
    if (bytesToBigInt(header[NUMBER]!) === 0n) throw new TraceUnavailableError('genesis is not traceable')
    const parentHash = toHexRaw(header[PARENT_HASH]!)
    const parent = ctx.chain.blockByHash(parentHash)
    if (parent === undefined || BigInt(parent.header.height) + 1n !== bytesToBigInt(header[NUMBER]!)) throw new TraceUnavailableError(`parent 0x${parentHash} not found`)
    const block = replayBlockOf(ctx, parent, header, txs)
    // Options checked once, before any replay: a bad one refuses the call, not each transaction.
    tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
    const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
    return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceBlock(ctx.chain, block, () => tracerFromOptions(options, 1, ctx.limits.traceSizeLimit), budget) as Promise<BlockTrace>)
  },
})
