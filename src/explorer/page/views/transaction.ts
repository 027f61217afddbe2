/** Transaction: an EVM one's receipt, logs, call tree and revert reason; a native one's view by REST. */
import { type ComponentChild, h } from 'preact'
import { type Endpoints, rest, rpc } from '../chain.ts'
import { quantity, units } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'
import { nativeView } from './nativeTransaction.ts'

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

/** Transaction: an EVM one's receipt, logs, call tree and revert reason; else the native view by REST. */
export function Transaction({ hash, endpoints }: { hash: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<{ tx: Json | null; receipt: Json | null; trace: Json | null; native: Json | null; events: Json | null }>, {
    key: hash,
    load: async () => {
      const [tx, receipt] = await Promise.all([rpc<Json | null>('eth_getTransactionByHash', [hash]), rpc<Json | null>('eth_getTransactionReceipt', [hash])])
      const trace = tx === null ? null : await rpc<Json>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch(() => null)
      const bare = hash.replace(/^0x/, '')
      const [native, events] = await Promise.all([
        rest<Json>(endpoints, `/api/v1/transaction/${bare}`).catch(() => null),
        rest<Json>(endpoints, `/api/v1/smartcode/event/txhash/${bare}`).catch(() => null),
      ])
      // The REST server answers an unknown hash with an empty Result, not an error.
      const object = (value: Json | null) => (typeof value === 'object' && value !== null ? value : null)
      if (tx === null && object(native) === null) throw new Error(`no transaction ${hash}`)
      return { tx, receipt, trace, native: object(native), events: object(events) }
    },
    show: ({ tx, receipt, trace, native, events }) =>
      h(
        'div',
        null,
        h('h1', null, 'Transaction'),
        tx === null
          ? null
          : fields('EVM', [
              ['hash', tx.hash as string],
              ['block', link(`block/${quantity(tx.blockNumber as string)}`, quantity(tx.blockNumber as string))],
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
        native === null ? null : h('div', { 'data-testid': 'native-tx' }, nativeView(native, events)),
      ),
  })
}
