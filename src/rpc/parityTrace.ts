/**
 * Parity's (OpenEthereum's) flat traces, as Erigon (turbo/jsonrpc trace_*.go) and Anvil
 * (foundry crates/anvil, revm-inspectors' parity builder) serve them from trace_*:
 * one `LocalizedTransactionTrace` per call frame, depth first, each with its
 * `traceAddress` (child indices from the transaction's frame) and `subtraces`.
 *
 * Built from go-ethereum's callTracer tree (evm/tracing/callTracer.ts), which already
 * follows every frame of a replay: the tree is re-rendered, not re-traced, by the
 * flattening go-ethereum's flatCallTracer shares (evm/tracing/parityFrames.ts). A
 * SELFDESTRUCT is a `suicide` trace. The chain's synthetic gas-token fee logs are not
 * calls, so they make no trace.
 */
import type { CallFrameJson, IncludedTransactionPosition, ParityTrace, ParityTraceResults } from '../core/rpcObjects.ts'
import { invalidArgument } from './errors.ts'
import { describeValue } from '../errors/describe.ts'
import { fromHex, toHex, toHexRaw } from '../util/hex.ts'
import { flattenCallFrames } from '../evm/tracing/parityFrames.ts'
import { intrinsicGas as gasBeforeExecution } from '../evm/transactionGas.ts'
import type { IncludedTransaction } from '../chain/chainTypes.ts'
import { TraceUnavailableError } from '../evm/tracing/tracer.ts'
import type { ChainBlock } from '../chain/block.ts'
import type { RpcCallScope, RpcContext } from './context.ts'
import type { ParityReplay } from './parityStateDiff.ts'

/**
 * Intrinsic gas of a legacy transaction on Istanbul (EIP-2028: 4 per zero byte of data,
 * 16 per other byte; 21,000, plus 32,000 for a create), `input` 0x-hex: Parity's
 * top-level `action.gas` and `result.gasUsed` leave it out (OpenEthereum
 * trace/executive_tracer; Erigon does the same), where the callTracer's root frame
 * counts it. evm/transactionGas.ts `intrinsicGas`, by the callTracer's fields.
 */
export function intrinsicGas(input: string, create: boolean): bigint {
  return gasBeforeExecution(create ? undefined : new Uint8Array(20), fromHex(input))
}

/**
 * The transaction's flat traces from its callTracer tree `root`, at `at` (block hash,
 * number, transaction hash and position; all null for a call not mined, as trace_call
 * answers within `TraceResults.trace`), as trace_* answers them
 * (evm/tracing/parityFrames.ts `flattenCallFrames`: OpenEthereum's error names, calls to
 * precompiles kept, `creationMethod` named). Quantities 0x-hex; `action.gas` and
 * `result.gasUsed` of the top frame without the intrinsic gas ({@link intrinsicGas}).
 */
export function parityTraces(root: CallFrameJson, at: IncludedTransactionPosition | undefined): ParityTrace[] {
  return flattenCallFrames(root, {
    at: at ?? { blockHash: null, blockNumber: null, transactionHash: null, transactionPosition: null },
    style: 'parity',
    parityErrors: true,
    precompiles: true,
  })
}

/**
 * Replays the mined EVM transaction `found` with the callTracer (chain/replay.ts, on the
 * state before it in its block) and answers its Parity traces. The devnet's trace
 * limits apply: size (`traceSizeLimit`), time (`traceTimeout`) and a batch's trace
 * budget (traceConfig.ts `withTraceBudget`). Loaded on the first trace, off the
 * start-up path.
 */
export async function traceMined(ctx: RpcContext, scope: RpcCallScope | undefined, found: IncludedTransaction): Promise<ParityTrace[]> {
  const [{ withTraceBudget }, { traceTransaction }, { CallTracer }] = await Promise.all([import('./traceConfig.ts'), import('../chain/replay.ts'), import('../evm/tracing/callTracer.ts')])
  const tracer = new CallTracer({ sizeLimit: ctx.limits.traceSizeLimit })
  const root = (await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceTransaction(ctx.chain, toHexRaw(found.tx.hash), tracer, budget))) as CallFrameJson
  return parityTraces(root, {
    blockHash: toHex(found.block.hash),
    blockNumber: found.block.header.height,
    transactionHash: toHex(found.tx.hash),
    transactionPosition: found.index,
  })
}

/**
 * The Parity traces of every EVM transaction of `block`, in block order (trace_block,
 * trace_filter). Native transactions have no EVM frames and give none; the chain pays
 * no block reward, so no `reward` trace closes the list as Erigon's would. The block is
 * replayed once (chain/replay.ts `traceBlock`, as debug_traceBlock replays it), each
 * transaction with a callTracer of its own, under one trace budget: tracing each
 * transaction on its own would replay the ones before it again, quadratic in the
 * block's size. Throws {@link TraceUnavailableError} for a transaction a native one
 * precedes in its block, as trace_transaction does.
 */
export async function traceBlock(ctx: RpcContext, scope: RpcCallScope | undefined, block: ChainBlock): Promise<ParityTrace[]> {
  if (!block.transactions.some((tx) => tx.kind === 'evm')) return []
  const [{ withTraceBudget }, replay, { CallTracer }] = await Promise.all([import('./traceConfig.ts'), import('../chain/replay.ts'), import('../evm/tracing/callTracer.ts')])
  const entries = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) =>
    replay.traceBlock(ctx.chain, block, () => new CallTracer({ sizeLimit: ctx.limits.traceSizeLimit }), budget),
  )
  const positions = new Map(block.transactions.map((tx, index) => [toHex(tx.hash), index]))
  const out: ParityTrace[] = []
  for (const entry of entries) {
    if ('error' in entry) throw new TraceUnavailableError(`${entry.txHash}: ${entry.error}`)
    const at = { blockHash: toHex(block.hash), blockNumber: block.header.height, transactionHash: entry.txHash, transactionPosition: positions.get(entry.txHash)! }
    out.push(...parityTraces(entry.result as CallFrameJson, at))
  }
  return out
}

/** Which parts of Parity's `TraceResults` a trace_replay* / trace_call asked for. */
export interface TraceTypes {
  trace: boolean
  stateDiff: boolean
}

/**
 * Parses trace_replay*'s `traceTypes` (argument `index`): an array of `"trace"`,
 * `"stateDiff"`, `"vmTrace"` (Erigon turbo/jsonrpc trace_adhoc.go). `vmTrace` is not
 * served and is refused (-32602 naming it) rather than answered null; any other name is
 * refused as Erigon refuses it (`unrecognized trace type`).
 */
export function parseTraceTypes(value: unknown, index: number): TraceTypes {
  if (!Array.isArray(value)) throw invalidArgument(index, 'traceTypes: an array of "trace", "stateDiff"')
  const types = { trace: false, stateDiff: false }
  for (const name of value as unknown[]) {
    if (name === 'trace' || name === 'stateDiff') types[name] = true
    else if (name === 'vmTrace') throw invalidArgument(index, 'traceTypes: vmTrace is not supported (ask for "trace" and "stateDiff")')
    else throw invalidArgument(index, `unrecognized trace type: ${typeof name === 'string' ? name : describeValue(name)}`)
  }
  return types
}

/** A replay's `TraceResults` as `types` asks for them: `output` of the top call, `trace` (flat traces without block positions, as Erigon's replay answers them), `stateDiff`; `vmTrace` null. */
function traceResults({ root, stateDiff }: ParityReplay, types: TraceTypes): ParityTraceResults {
  return {
    // A create's output is the deployed code, as Erigon answers it; a failed call's is its revert data.
    output: root.output ?? '0x',
    stateDiff: types.stateDiff ? stateDiff : null,
    trace: types.trace ? parityTraces(root, undefined) : null,
    vmTrace: null,
  }
}

/**
 * Parity's `TraceResults` of the mined EVM transaction `found` (trace_replayTransaction):
 * `output` of the top call, `trace` and `stateDiff` (rpc/parityStateDiff.ts) when asked,
 * else null; `vmTrace` null. Under the trace limits.
 */
export async function replayMined(ctx: RpcContext, scope: RpcCallScope | undefined, found: IncludedTransaction, types: TraceTypes): Promise<ParityTraceResults> {
  const [{ withTraceBudget }, { replayWithDiff }] = await Promise.all([import('./traceConfig.ts'), import('./parityStateDiff.ts')])
  return traceResults(await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => replayWithDiff(ctx.chain, found, ctx.limits.traceSizeLimit, budget)), types)
}

/**
 * The `TraceResults` of every EVM transaction of `block` in order, each with its
 * `transactionHash` (trace_replayBlockTransactions): one replay of the block
 * (parityStateDiff.ts `replayBlockWithDiff`) under the trace limits.
 */
export async function replayMinedBlock(ctx: RpcContext, scope: RpcCallScope | undefined, block: ChainBlock, types: TraceTypes): Promise<ParityTraceResults[]> {
  if (!block.transactions.some((tx) => tx.kind === 'evm')) return []
  const [{ withTraceBudget }, { replayBlockWithDiff }] = await Promise.all([import('./traceConfig.ts'), import('./parityStateDiff.ts')])
  const replays = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => replayBlockWithDiff(ctx.chain, block, ctx.limits.traceSizeLimit, budget))
  return replays.map((replay) => ({ ...traceResults(replay, types), transactionHash: toHex(replay.hash) }))
}
