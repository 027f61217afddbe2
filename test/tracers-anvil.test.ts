/**
 * go-ethereum's tracers and Otterscan's trace methods beside Anvil `--hardfork istanbul`
 * (test:tools): the same transactions (test/anvil-support.ts `traceScenario`: a deploy,
 * nested calls with value and a caught revert, a transfer to a new account, a
 * self-destruct paying a new account, a reverted transaction), from the same account at
 * the same nonces and gas price on both, traced on both. prestateTracer (both modes),
 * 4byteTracer, flatCallTracer, ots_getInternalOperations and ots_traceTransaction answer
 * the same but for these named differences, each checked to be exactly what it says
 * where the test sets it aside:
 *
 * - FEE_RECIPIENT (the chain's rule): the chain pays every fee to governance 0x…07
 *   (reference §6.4), Anvil to its coinbase 0x0. dualnet's prestateTracer lists
 *   governance beside the coinbase (which holds nothing); the fee each received is the same.
 * - SELFDESTRUCT_GAS (Anvil's): under `--hardfork istanbul` Anvil 1.7.1 charges the
 *   SELFDESTRUCT EIP-2929's cold-account 2,600 gas and refunds nothing (EIP-3529), where
 *   Istanbul refunds 24,000 (dualnet's, go-ethereum's): the self-destruct's gas used,
 *   and the sender's balance from then on, differ by exactly 26,600 gas.
 * - CREATED_PRESTATE (Anvil's): revm-inspectors lists a contract the transaction
 *   creates, empty before, in prestateTracer's answer; go-ethereum's prestate.go drops
 *   it, and dualnet follows geth.
 * - FLAT_MINED (Anvil's gap): Anvil 1.7.1 (the newest on npm) answers flatCallTracer for
 *   a mined transaction with `{}`. dualnet's flatCallTracer is held to Anvil's
 *   trace_transaction under go-ethereum's documented differences from Parity's
 *   (eth/tracers/native/call_flat.go): the top frame's gas and gas used are the
 *   transaction's (intrinsic gas counted), a create has no `creationMethod`, errors keep
 *   geth's texts, a suicide has no `result`. An Anvil that answers is compared directly.
 * - OTS_CALLS_ONLY (Anvil's gap): Anvil's ots_traceTransaction lists call frames only
 *   (alloy's `TraceEntry::from_transaction_trace` converts no create or self-destruct);
 *   dualnet also lists CREATE, CREATE2 and SELFDESTRUCT frames, as Erigon's
 *   TransactionTracer does, which are set aside before comparing. And where Anvil
 *   answers a STATICCALL's or DELEGATECALL's `value` as 0x0, dualnet answers null, as
 *   Erigon does (they move no value).
 *
 * Hashes (blockHash, transactionHash) are the chain's own and are not compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { afterSelfDestruct, SCENARIO_TXS as TXS, scenarioOnBoth, type ScenarioPair, type ScenarioTx as Tx } from './anvil-support.ts'

const GWEI = 1_000_000_000n
const GOVERNANCE = '0x0000000000000000000000000000000000000007'
const COINBASE = '0x0000000000000000000000000000000000000000'
/** SELFDESTRUCT_GAS: what Anvil's istanbul charges beyond Istanbul's for the scenario's self-destruct, in gas. */
const SELFDESTRUCT_GAS = 24_000n + 2_600n
type Account = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }
type Prestate = Record<string, Account>

let pair: ScenarioPair
const hex = (value: bigint): string => `0x${value.toString(16)}`
/** SELFDESTRUCT_GAS: the sender's balance on Anvil is lower by 26,600 gas at 1 gwei from the self-destruct on. */
const anvilSenderShortfall = (tx: Tx, after: boolean): bigint => (afterSelfDestruct(tx) || (tx === 'destroy' && after) ? SELFDESTRUCT_GAS * GWEI : 0n)

beforeAll(async () => {
  pair = await scenarioOnBoth()
}, 120_000)
afterAll(() => pair?.close())

describe('tracers beside Anvil --hardfork istanbul', () => {
  it('the scenario runs alike: same contracts, same gas but the named SELFDESTRUCT_GAS', async () => {
    expect([pair.ours.callee, pair.ours.caller, pair.ours.destroyer]).toEqual([pair.theirs.callee, pair.theirs.caller, pair.theirs.destroyer])
    for (const tx of TXS) {
      const [a, b] = (await pair.both('eth_getTransactionReceipt', tx)) as { gasUsed: string; status: string }[]
      expect(b!.status, tx).toBe(a!.status)
      expect(BigInt(a!.gasUsed) - BigInt(b!.gasUsed), tx).toBe(tx === 'destroy' ? SELFDESTRUCT_GAS : 0n)
    }
  })

  it('prestateTracer: the same accounts before each transaction, but FEE_RECIPIENT, CREATED_PRESTATE and SELFDESTRUCT_GAS', async () => {
    for (const tx of TXS) {
      const [a, b] = (await pair.both('debug_traceTransaction', tx, { tracer: 'prestateTracer' })) as [Prestate, Prestate]
      // FEE_RECIPIENT: dualnet's coinbase holds nothing, governance holds the fees.
      expect(b[COINBASE], tx).toEqual({ balance: '0x0' })
      expect(b[GOVERNANCE], tx).toBeDefined()
      delete b[GOVERNANCE]
      delete a[COINBASE]
      delete b[COINBASE]
      // CREATED_PRESTATE: Anvil lists the new contract, empty.
      if (tx === 'deploy') {
        expect(a[pair.theirs.callee]).toEqual({ balance: '0x0' })
        delete a[pair.theirs.callee]
      }
      const shortfall = anvilSenderShortfall(tx, false)
      if (shortfall > 0n) a[pair.from]!.balance = hex(BigInt(a[pair.from]!.balance!) + shortfall)
      expect(b, tx).toEqual(a)
    }
  })

  it('prestateTracer diffMode: the same changes, but FEE_RECIPIENT (the same fee) and SELFDESTRUCT_GAS', async () => {
    for (const tx of TXS) {
      const [a, b] = (await pair.both('debug_traceTransaction', tx, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })) as { pre: Prestate; post: Prestate }[]
      const received = (diff: { pre: Prestate; post: Prestate }, address: string) => BigInt(diff.post[address]?.balance ?? '0x0') - BigInt(diff.pre[address]?.balance ?? '0x0')
      expect(received(a!, COINBASE) - received(b!, GOVERNANCE), tx).toBe(tx === 'destroy' ? SELFDESTRUCT_GAS * GWEI : 0n)
      expect(b!.pre[COINBASE] ?? b!.post[COINBASE], tx).toBeUndefined()
      for (const side of [a!.pre, a!.post]) delete side[COINBASE]
      for (const side of [b!.pre, b!.post]) delete side[GOVERNANCE]
      for (const [side, after] of [
        [a!.pre, false],
        [a!.post, true],
      ] as const) {
        const shortfall = anvilSenderShortfall(tx, after)
        if (shortfall > 0n && side[pair.from]?.balance !== undefined) side[pair.from]!.balance = hex(BigInt(side[pair.from]!.balance!) + shortfall)
      }
      expect(b, tx).toEqual(a)
    }
  })

  it('4byteTracer, ots_getInternalOperations and ots_traceTransaction: the same answers', async () => {
    for (const tx of TXS) {
      const [a, b] = await pair.both('debug_traceTransaction', tx, { tracer: '4byteTracer' })
      expect(b, `4byteTracer ${tx}`).toEqual(a)
      const [ops, ourOps] = await pair.both('ots_getInternalOperations', tx)
      expect(ourOps, `ots_getInternalOperations ${tx}`).toEqual(ops)
      const [entries, ourEntries] = (await pair.both('ots_traceTransaction', tx)) as { type: string; value: string | null }[][]
      // OTS_CALLS_ONLY: dualnet's create and self-destruct entries set aside, and checked to be what Anvil leaves out.
      const moveNone = (entry: { type: string }) => entry.type === 'STATICCALL' || entry.type === 'DELEGATECALL'
      for (const entry of ourEntries!.filter(moveNone)) expect(entry.value, `ots_traceTransaction ${tx}: ${entry.type}`).toBeNull()
      const calls = ourEntries!.filter((entry) => !['CREATE', 'CREATE2', 'SELFDESTRUCT'].includes(entry.type)).map((entry) => (moveNone(entry) ? { ...entry, value: '0x0' } : entry))
      expect(calls, `ots_traceTransaction ${tx}`).toEqual(entries)
      expect(ourEntries!.length - calls.length, `ots_traceTransaction ${tx}: the creates and self-destructs`).toBe(tx === 'deploy' || tx === 'destroy' ? 1 : 0)
    }
    // The self-destruct is there: the scenario exercises each kind.
    expect(await pair.devnet.rpcUntyped('ots_getInternalOperations', [pair.ours.destroy])).toEqual([expect.objectContaining({ type: 1, value: '0x69' })])
  })

  it('flatCallTracer: Anvil’s trace_transaction under go-ethereum’s documented differences (FLAT_MINED), but SELFDESTRUCT_GAS', async () => {
    for (const tx of TXS) {
      const [answer, flat] = (await pair.both('debug_traceTransaction', tx, { tracer: 'flatCallTracer' })) as [unknown, Record<string, unknown>[]]
      const strip = (traces: Record<string, unknown>[]) => traces.map(({ blockHash: _h, transactionHash: _t, ...rest }) => rest)
      const [parity] = (await pair.both('trace_transaction', tx)) as [Record<string, unknown>[], unknown]
      const [sent] = (await pair.both('eth_getTransactionByHash', tx)) as [{ gas: string }, unknown]
      const [receipt] = (await pair.both('eth_getTransactionReceipt', tx)) as [{ gasUsed: string }, unknown]
      const expected = parity.map((trace, i) => {
        const action = { ...(trace.action as Record<string, unknown>) }
        delete action.creationMethod
        const result = trace.result === null ? undefined : (trace.result as Record<string, unknown> | undefined)
        // The top frame: the transaction's gas limit, the receipt's gas used (dualnet's lower by SELFDESTRUCT_GAS).
        if (i === 0) action.gas = sent.gas
        const gasUsed = i === 0 && result !== undefined ? hex(BigInt(receipt.gasUsed) - (tx === 'destroy' ? SELFDESTRUCT_GAS : 0n)) : result?.gasUsed
        const { result: _r, error, ...rest } = trace
        return {
          ...rest,
          action,
          ...(error !== undefined && { error: error === 'Reverted' ? 'execution reverted' : error }),
          ...(result !== undefined && { result: { ...result, ...(gasUsed !== undefined && { gasUsed }) } }),
        }
      })
      expect(strip(flat), tx).toEqual(strip(expected as never))
      if (Array.isArray(answer) && answer.length > 0) expect(strip(flat), `${tx}: Anvil's own flatCallTracer`).toEqual(strip(answer as never))
      else expect(answer, `${tx}: FLAT_MINED, Anvil 1.7.1's gap`).toEqual({})
    }
  })
})
