/**
 * A native transaction: its token call decoded (the explorer API), the REST server's
 * transaction and its execution record. Without REST the decoded call still shows.
 */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import type { DescribedCall, DescribedMove, ExplorerTransaction } from '../../api/types.ts'
import { type Endpoints, rest } from '../chain.ts'
import { units } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'

/** What the explorer API answers for a transaction hash. */
export type FoundTransaction = ExplorerTransaction

/** The native token contracts as the REST server writes their addresses (reversed bytes, reference §1.7). */
const NATIVE_TOKENS: Record<string, string> = {
  '0100000000000000000000000000000000000000': 'main token',
  '0200000000000000000000000000000000000000': 'gas token',
}

/** What each action is called on the page. */
const ACTIONS: Record<DescribedCall['action'], string> = {
  transfer: 'Transfer',
  approve: 'Approve',
  transferFrom: 'Transfer from',
  withdrawUnboundGas: 'Withdraw unbound gas',
  query: 'Query',
}

/** An amount in whole tokens and in base units: "1.5 main (1500000000 base units)". */
function amountText(token: string, move: DescribedMove): string {
  return `${units(BigInt(move.amount), move.decimals)} ${token} (${move.baseUnits} base units)`
}

/** The decoded call: one row per move (from → to, amount in both units). */
function callView(call: DescribedCall): ComponentChild {
  const verb = call.action === 'approve' ? 'may spend' : '→'
  const rows: [string, ComponentChildren][] = [
    ['Action', `${ACTIONS[call.action]} (${call.token} token, ${call.method})`],
    ...(call.sender === undefined ? [] : ([['Spender', link(`address/${call.sender.base58}`, call.sender.base58)]] as [string, ComponentChildren][])),
    ...call.moves.map((move, i): [string, ComponentChildren] => [
      call.moves.length === 1 ? 'Amount' : `Move ${i + 1}`,
      h(
        'span',
        { 'data-testid': 'native-move' },
        link(`address/${move.from.base58}`, move.from.base58),
        ` ${verb} `,
        link(`address/${move.to.base58}`, move.to.base58),
        `: ${amountText(call.token, move)}`,
      ),
    ]),
  ]
  return h('div', { 'data-testid': 'native-call' }, fields('Payload', rows))
}

/** A native (or genesis) transaction found by the explorer API, with what REST answers for it. */
export function NativeTransaction({ found, endpoints }: { found: FoundTransaction; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<{ tx: Json | null; events: Json | null }>, {
    key: found.restHash,
    load: async () => {
      const [tx, events] = await Promise.all([rest<Json>(endpoints, `/api/v1/transaction/${found.restHash}`), rest<Json>(endpoints, `/api/v1/smartcode/event/txhash/${found.restHash}`)])
      return { tx, events }
    },
    show: ({ tx, events }) =>
      h(
        'div',
        { 'data-testid': 'native-tx' },
        h('h1', null, found.kind === 'genesis' ? 'Genesis transaction' : 'Native transaction'),
        fields('Found', [
          ['Hash (REST)', found.restHash],
          ['Hash (JSON-RPC)', found.hash],
          ['Block', link(`block/${found.height}`, String(found.height))],
          ['Payer', link(`address/${found.from.base58}`, `${found.from.base58} (0x${found.from.hex})`)],
          ['Signers', (found.native?.signers ?? []).map((s) => s.base58).join(', ')],
          ['State', found.state === 1 ? 'success (1)' : 'failed (0)'],
          ['GasConsumed', `${units(BigInt(found.native?.gasConsumed ?? '0'), 9)} gas (${found.native?.gasConsumed ?? '0'} × 1e-9)`],
          ...(found.native?.script === undefined ? [] : ([['Runs', found.native.script]] as [string, ComponentChildren][])),
        ]),
        found.native?.call === undefined ? null : callView(found.native.call),
        tx === null ? h('p', { class: 'muted' }, 'REST is off: listen with rest to see the transaction as the node answers it.') : nativeView(tx, events),
      ),
  })
}

/**
 * A native transaction as the REST server answers it (`/api/v1/transaction/{hash}`) and
 * its execution record (`/api/v1/smartcode/event/txhash/{hash}`): the envelope's
 * fields, its signers, the gas consumed and each notify event (contract and states),
 * then the whole answer as JSON.
 */
function nativeView(tx: Json, events: Json | null): ComponentChild {
  const sigs = (tx.Sigs ?? []) as Json[]
  const notify = (events?.Notify ?? []) as Json[]
  return h(
    'div',
    null,
    fields('As REST answers it (/api/v1/transaction)', [
      ['Hash', String(tx.Hash)],
      ['TxType', `${String(tx.TxType)}${tx.TxType === 209 ? ' (invoke)' : tx.TxType === 208 ? ' (deploy)' : ''}`],
      ['Payer', String(tx.Payer)],
      ['Nonce', String(tx.Nonce)],
      ['GasPrice', String(tx.GasPrice)],
      ['GasLimit', String(tx.GasLimit)],
      ['Height', String(tx.Height)],
      ['Signatures', sigs.map((sig) => `${((sig.PubKeys ?? []) as unknown[]).length} key(s), M ${String(sig.M)}`).join('; ')],
      ['State', events === null ? '' : events.State === 1 ? 'success (1)' : `failed (${String(events.State)})`],
      ['GasConsumed', events === null ? '' : String(events.GasConsumed)],
    ]),
    h(
      'section',
      { 'data-testid': 'notify' },
      h('h2', null, 'Notify events'),
      h(
        'ul',
        null,
        notify.map((event) =>
          h(
            'li',
            null,
            `${NATIVE_TOKENS[String(event.ContractAddress)] ?? String(event.ContractAddress)}: ${((event.States ?? []) as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`,
          ),
        ),
      ),
    ),
    h('details', null, h('summary', null, 'REST answers'), h('pre', null, JSON.stringify({ transaction: tx, events }, null, 1))),
  )
}
