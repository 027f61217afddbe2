/**
 * Otterscan's views of a mined transaction's calls (ots_getInternalOperations,
 * ots_traceTransaction, and ots_getContractCreator's search: rpc/otsCreator.ts), read
 * off the callTracer's tree (evm/tracing/callTracer.ts, go-ethereum's frames) of a
 * replay within the devnet's trace limits (traceSizeLimit, traceTimeout, the batch's
 * budget). The tracers and the replay load on the first call, off the start-up path,
 * as debug_traceTransaction loads them.
 */
import type { RpcCallScope, RpcContext } from './context.ts'
import type { Address, CallFrameJson, OtsInternalOperation, OtsTraceEntry } from '../core/rpcObjects.ts'

const ZERO = '0x0000000000000000000000000000000000000000' as Address

/**
 * The callTracer's tree of the mined EVM transaction with raw hash `hash` (64 hex, no
 * 0x). A native transaction or an unknown hash throws as debug_traceTransaction does
 * (-32000).
 */
export async function callTreeOf(ctx: RpcContext, hash: string, scope: RpcCallScope | undefined): Promise<CallFrameJson> {
  const [{ tracerFromOptions, withTraceBudget }, { traceTransaction }] = await Promise.all([import('./traceConfig.ts'), import('../chain/replay.ts')])
  const tracer = tracerFromOptions({ tracer: 'callTracer' }, 0, ctx.limits.traceSizeLimit)
  return withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceTransaction(ctx.chain, hash, tracer, budget) as Promise<CallFrameJson>)
}

/** The frames of `root` in the order they start (depth first), with their depth (0: the transaction's own). */
export function* framesOf(root: CallFrameJson, depth = 0): Generator<[CallFrameJson, number]> {
  yield [root, depth]
  for (const call of root.calls ?? []) yield* framesOf(call, depth + 1)
}

/**
 * Otterscan's internal operations of a call tree, in the order they start, as Anvil
 * lists them (foundry crates/anvil/src/eth/backend/mem/storage.rs
 * `ots_internal_operations`: every frame, the transaction's own included, where
 * Erigon's OperationsTracer sees sub-calls only): a CALL moving value is a transfer
 * (0), a CREATE 2 and a CREATE2 3, from the creator to the new contract (a failed
 * creation has none: its `to` is the zero address). A frame that self-destructs is a
 * self-destruct (1), from the contract to its beneficiary with the balance it moved
 * (the callTracer's SELFDESTRUCT frame below it), in place of its own transfer, as
 * Anvil classifies each frame once. `value` in wei.
 */
export function internalOperations(root: CallFrameJson): OtsInternalOperation[] {
  const out: OtsInternalOperation[] = []
  for (const [frame] of framesOf(root)) {
    if (frame.type === 'SELFDESTRUCT') continue
    const selfdestruct = frame.calls?.find((call) => call.type === 'SELFDESTRUCT')
    if (selfdestruct !== undefined) {
      out.push({ type: 1, from: selfdestruct.from as Address, to: (selfdestruct.to ?? ZERO) as Address, value: (selfdestruct.value ?? '0x0') as OtsInternalOperation['value'] })
      continue
    }
    const value = (frame.value ?? '0x0') as OtsInternalOperation['value']
    const from = frame.from as Address
    const to = (frame.to ?? ZERO) as Address
    if (frame.type === 'CALL' && BigInt(value) !== 0n) out.push({ type: 0, from, to, value })
    else if (frame.type === 'CREATE') out.push({ type: 2, from, to, value })
    else if (frame.type === 'CREATE2') out.push({ type: 3, from, to, value })
  }
  return out
}

/**
 * ots_traceTransaction's list of a call tree: every frame in the order it starts, with
 * its depth (0: the transaction's own); `value` null for STATICCALL and DELEGATECALL,
 * which move none (Erigon turbo/jsonrpc otterscan_trace_transaction.go); `output` `0x`
 * where the frame returned nothing; a failed creation's `to` the zero address; a
 * SELFDESTRUCT an entry of its own (the beneficiary as `to`, the balance as `value`), as
 * Erigon's TransactionTracer lists it. (Anvil lists call frames only: alloy's
 * `TraceEntry::from_transaction_trace` converts no create or self-destruct.)
 */
export function traceEntries(root: CallFrameJson): OtsTraceEntry[] {
  return [...framesOf(root)].map(([frame, depth]) => ({
    type: frame.type,
    depth,
    from: frame.from as Address,
    to: (frame.to ?? ZERO) as Address,
    value: frame.type === 'STATICCALL' || frame.type === 'DELEGATECALL' ? null : ((frame.value ?? '0x0') as OtsTraceEntry['value'] & string),
    input: frame.input as OtsTraceEntry['input'],
    output: (frame.output ?? '0x') as OtsTraceEntry['output'],
  }))
}
