/** Transaction: an EVM one's receipt, logs, call tree and revert reason; a native one's view by REST. */
import { type ComponentChild, h } from 'preact'
import { api, type Endpoints, rpc } from '../chain.ts'
import { quantity, units } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'
import { type FoundTransaction, NativeTransaction } from './nativeTransaction.ts'

/** The standard events the page names without an ABI (topic 0 → signature). */
const KNOWN_EVENTS: Record<string, string> = {
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': 'Transfer(address,address,uint256)',
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925': 'Approval(address,address,uint256)',
}

function topicAddress(topic: string | undefined): string {
  return topic === undefined ? '' : `0x${topic.slice(26)}`
}

/** A log: its event decoded when it is a standard one (Transfer, Approval), else its topics and data. */
function logView(log: Json): ComponentChild {
  const topics = log.topics as string[]
  const name = KNOWN_EVENTS[topics[0] ?? '']
  const decoded =
    name === undefined || topics.length !== 3
      ? null
      : `${name.slice(0, name.indexOf('('))}(from ${topicAddress(topics[1])}, to ${topicAddress(topics[2])}, value ${BigInt(log.data as string).toString()})`
  return h(
    'li',
    { 'data-testid': 'log' },
    h('div', null, 'emitted by ', link(`address/${log.address as string}`, log.address as string)),
    decoded === null ? h('pre', null, JSON.stringify({ topics, data: log.data }, null, 1)) : h('div', { class: 'decoded' }, decoded),
  )
}

/** A callTracer frame and its calls, nested. */
function callView(frame: Json): ComponentChild {
  const calls = (frame.calls ?? []) as Json[]
  const label = `${frame.type as string} ${frame.from as string} → ${(frame.to as string | undefined) ?? '(create)'} value ${quantity(frame.value as string | undefined) || '0'}${frame.error === undefined ? '' : ` ✗ ${frame.error as string}`}${frame.revertReason === undefined ? '' : ` (${frame.revertReason as string})`}`
  return h('li', null, h('span', null, label), calls.length === 0 ? null : h('ul', null, calls.map(callView)))
}

/**
 * Transaction: the explorer API says which kind a hash names (in either byte order);
 * an EVM one is read through JSON-RPC, a native one through REST. A hash the ledger
 * does not hold may be an EVM transaction still in the pool.
 */
export function Transaction({ hash, endpoints }: { hash: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<FoundTransaction | null>, {
    key: hash,
    load: () => api<FoundTransaction>(`transaction/${hash}`),
    show: (found) => (found !== null && found.kind !== 'evm' ? h(NativeTransaction, { found, endpoints }) : h(EvmTransaction, { hash: found?.hash ?? hash })),
  })
}

/** An EVM transaction: its fields and receipt, logs, call tree and revert reason. */
function EvmTransaction({ hash }: { hash: string }): ComponentChild {
  return h(Loaded<{ tx: Json; receipt: Json | null; trace: Json | null }>, {
    key: hash,
    load: async () => {
      const [tx, receipt] = await Promise.all([rpc<Json | null>('eth_getTransactionByHash', [hash]), rpc<Json | null>('eth_getTransactionReceipt', [hash])])
      if (tx === null) throw new Error(`no transaction ${hash}`)
      const trace = receipt === null ? null : await rpc<Json>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch(() => null)
      return { tx, receipt, trace }
    },
    show: ({ tx, receipt, trace }) =>
      h(
        'div',
        null,
        h('h1', null, 'Transaction'),
        fields('EVM', [
          ['hash', tx.hash as string],
          ['block', tx.blockNumber === null ? 'pending' : link(`block/${quantity(tx.blockNumber as string)}`, quantity(tx.blockNumber as string))],
          ['from', link(`address/${tx.from as string}`, tx.from as string)],
          ['to', tx.to === null ? '(contract creation)' : link(`address/${tx.to as string}`, tx.to as string)],
          ['value', `${units(BigInt(tx.value as string), 18)} (${quantity(tx.value as string)} wei)`],
          ['status', receipt === null ? 'pending' : receipt.status === '0x1' ? 'success' : 'reverted'],
          ['revert reason', (trace?.revertReason as string | undefined) ?? (trace?.error as string | undefined) ?? ''],
          ['gasUsed', quantity(receipt?.gasUsed as string | undefined)],
          ['effectiveGasPrice', quantity(receipt?.effectiveGasPrice as string | undefined)],
          ['contractAddress', (receipt?.contractAddress as string | null | undefined) ?? ''],
        ]),
        receipt === null ? null : h('section', null, h('h2', null, 'Logs'), h('ul', null, (receipt.logs as Json[]).map(logView))),
        trace === null ? null : h('section', { 'data-testid': 'call-tree' }, h('h2', null, 'Call tree'), h('ul', { class: 'tree' }, callView(trace))),
      ),
  })
}
