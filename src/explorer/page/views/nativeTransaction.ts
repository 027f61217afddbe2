/** A native transaction: the REST server's transaction and its execution record. */
import { type ComponentChild, h } from 'preact'
import { fields, type Json } from '../ui.ts'

/** The native token contracts as the REST server writes their addresses (reversed bytes, reference §1.7). */
const NATIVE_TOKENS: Record<string, string> = {
  '0100000000000000000000000000000000000000': 'main token',
  '0200000000000000000000000000000000000000': 'gas token',
}

/**
 * A native transaction as the REST server answers it (`/api/v1/transaction/{hash}`) and
 * its execution record (`/api/v1/smartcode/event/txhash/{hash}`): the envelope's
 * fields, its signers, the gas consumed and each notify event (contract and states),
 * then the whole answer as JSON.
 */
export function nativeView(tx: Json, events: Json | null): ComponentChild {
  const sigs = (tx.Sigs ?? []) as Json[]
  const notify = (events?.Notify ?? []) as Json[]
  return h(
    'div',
    null,
    fields('Native transaction', [
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
