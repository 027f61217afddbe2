/**
 * Account: an address in both forms, its balances on both views (whole units and base
 * units), unbound gas, nonce, code, the allowances it gave and was given, its storage
 * and its transactions of both kinds; storage and transactions a page at a time.
 */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import { useState } from 'preact/hooks'
import type { ExplorerAccount, ListedAllowance, ListedTransaction, StoragePage, TransactionPage } from '../../api/types.ts'
import { api, type Endpoints, rest, rpc } from '../chain.ts'
import { fromBase58, quantity, toBase58, units } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'
import { ContractName } from './contractName.ts'

/** Decimal places of each token's base units (reference §1.2: balancev2). */
const BASE_DECIMALS = { main: 9, gas: 18 } as const

/** The main-token contract, 0x…01: the owner of every unbound-gas allowance (reference §4.2). */
const MAIN_CONTRACT = `${'00'.repeat(19)}01`

function both(value: bigint | string, token: 'main' | 'gas'): string {
  return `${units(BigInt(value), BASE_DECIMALS[token])} ${token} (${BigInt(value).toString()} base units)`
}

export function Account({ id, endpoints }: { id: string; endpoints: Endpoints }): ComponentChild {
  const address = id.startsWith('0x') ? id.toLowerCase() : fromBase58(id)
  if (address === undefined || !/^0x[0-9a-f]{40}$/.test(address)) return h('p', { class: 'error' }, 'not an address (0x and 40 hex digits, or Base58)')
  const base58 = toBase58(address)
  return h(Loaded<{ balance: string; nonce: string; code: string; native: Json | null; unbound: string | null; account: ExplorerAccount }>, {
    key: address,
    load: async () => {
      const [balance, nonce, code, native, unbound, account] = await Promise.all([
        rpc<string>('eth_getBalance', [address, 'latest']),
        rpc<string>('eth_getTransactionCount', [address, 'latest']),
        rpc<string>('eth_getCode', [address, 'latest']),
        rest<Json>(endpoints, `/api/v1/balancev2/${base58}`),
        rest<string>(endpoints, `/api/v1/unboundgas/${base58}`),
        api<ExplorerAccount>(`account/${address}`),
      ])
      if (account === null) throw new Error(`no account ${address}`)
      return { balance, nonce, code, native, unbound, account }
    },
    show: ({ balance, nonce, code, native, unbound, account }) =>
      h(
        'div',
        null,
        h('h1', null, 'Account'),
        fields('Addresses and balances', [
          ['0x', address],
          ['Base58', base58],
          ['gas (EVM balance)', `${units(BigInt(balance), 18)} gas (${BigInt(balance).toString()} wei)`],
          ...(native === null
            ? ([['REST', 'off: listen with rest to see the main balance and unbound gas']] as [string, ComponentChildren][])
            : ([
                ['main', both(native.main as string, 'main')],
                ['gas (native)', both(native.gas as string, 'gas')],
                // get_unboundgas answers v1 units (1e-9 gas): the claimable gas, withdrawn by a transferFrom of the gas token.
                ['unbound gas', unbound === null ? '' : `${units(BigInt(unbound), 9)} gas (${unbound} × 1e-9)`],
              ] as [string, ComponentChildren][])),
          ['nonce', quantity(nonce)],
          ['code', code === '0x' ? '(none)' : `${(code.length - 2) / 2} bytes`],
          ...(code === '0x' ? [] : ([['contract', h(ContractName, { address })]] as [string, ComponentChildren][])),
        ]),
        h(Allowances, { account }),
        account.storageSlots === 0 ? null : h(Storage, { address, total: account.storageSlots }),
        h(Transactions, { address }),
      ),
  })
}

/** The allowances the account gave and was given (unbound gas apart: it shows above). */
function Allowances({ account }: { account: ExplorerAccount }): ComponentChild {
  const received = account.received.filter((a) => a.owner.hex !== MAIN_CONTRACT)
  const row = (a: ListedAllowance, other: 'owner' | 'spender') =>
    h('li', null, `${both(a.amount, a.token)} ${other === 'spender' ? 'to' : 'from'} `, link(`address/${a[other].base58}`, a[other].base58))
  return h(
    'section',
    { 'data-testid': 'allowances' },
    h('h2', null, 'Allowances (native tokens)'),
    account.given.length === 0 && received.length === 0 ? h('p', { class: 'muted' }, account.forked ? 'none written on this fork' : 'none') : null,
    account.given.length === 0
      ? null
      : h(
          'div',
          null,
          'Given: ',
          h(
            'ul',
            null,
            account.given.map((a) => row(a, 'spender')),
          ),
        ),
    received.length === 0
      ? null
      : h(
          'div',
          null,
          'Received: ',
          h(
            'ul',
            null,
            received.map((a) => row(a, 'owner')),
          ),
        ),
  )
}

/**
 * A list the API answers a page at a time: `load` reads the page after `cursor`
 * (undefined: the first), `show` renders it with the pager's buttons (`labels`: back,
 * on). The cursors of the pages before are kept, so going back reads the page again.
 */
function Paged<T extends { readonly next: string | null }>({
  id,
  labels,
  load,
  show,
}: {
  id: string
  labels: [string, string]
  load: (cursor: string | undefined) => Promise<T | null>
  show: (page: T | null, buttons: ComponentChild) => ComponentChild
}): ComponentChild {
  const [cursors, setCursors] = useState<string[]>([])
  const cursor = cursors.at(-1)
  return h(Loaded<T | null>, {
    key: `${id}-${cursor ?? ''}`,
    load: () => load(cursor),
    show: (page) =>
      show(
        page,
        pager(
          labels,
          cursors.length > 0,
          () => setCursors(cursors.slice(0, -1)),
          page?.next ?? null,
          (next) => setCursors([...cursors, next]),
        ),
      ),
  })
}

/** The contract's storage in slot order, 32 slots a page. */
function Storage({ address, total }: { address: string; total: number }): ComponentChild {
  return h(Paged<StoragePage>, {
    id: address,
    labels: ['Previous slots', 'Next slots'],
    load: (after) => api<StoragePage>(`storage/${address}${after === undefined ? '' : `?after=${after}`}`),
    show: (page, buttons) =>
      h(
        'section',
        { 'data-testid': 'storage' },
        h('h2', null, `Storage (${total} slots${page?.forked === true ? ', those written on this fork' : ''})`),
        h(
          'table',
          { class: 'fields' },
          h(
            'tbody',
            null,
            (page?.slots ?? []).map((s) => h('tr', { 'data-slot': s.slot }, h('th', null, s.slot), h('td', null, s.value))),
          ),
        ),
        buttons,
      ),
  })
}

/** The transactions of both kinds touching the address, newest first, 25 a page. */
function Transactions({ address }: { address: string }): ComponentChild {
  return h(Paged<TransactionPage>, {
    id: address,
    labels: ['Newer', 'Older'],
    load: (before) => api<TransactionPage>(`transactions/${address}${before === undefined ? '' : `?before=${before}`}`),
    show: (page, buttons) =>
      h(
        'section',
        { 'data-testid': 'account-transactions' },
        h('h2', null, `Transactions (${page?.total ?? 0}${page?.forked === true ? ', mined on this fork' : ''})`),
        h('ul', null, (page?.transactions ?? []).map(transactionRow)),
        buttons,
      ),
  })
}

/** One line of the list: kind, link, block and what it did. */
function transactionRow(t: ListedTransaction): ComponentChild {
  const call = t.native?.call
  const what =
    t.kind === 'evm'
      ? t.evm?.created != null
        ? `creates 0x${t.evm.created.hex}`
        : `${t.evm?.selector ?? 'transfer'} to 0x${t.evm?.to?.hex ?? ''}, ${units(BigInt(t.evm?.value ?? '0'), 18)} gas`
      : call !== undefined
        ? `${call.method} of ${call.token}${call.moves.length === 1 ? `, ${units(BigInt(call.moves[0]!.amount), call.moves[0]!.decimals)} ${call.token}` : `, ${call.moves.length} moves`}`
        : (t.native?.script ?? '')
  return h(
    'li',
    { 'data-kind': t.kind },
    `${t.kind === 'evm' ? 'EVM' : t.kind === 'native' ? 'native' : 'genesis'} `,
    link(`tx/${t.kind === 'evm' ? t.hash : t.restHash}`, t.kind === 'evm' ? t.hash : t.restHash),
    ` in #${t.height}: ${what}${t.state === 1 ? '' : ' (failed)'}`,
  )
}

/** The two buttons of a paged list: back to the page before, on to the next (`next` null: the last page). */
function pager([backLabel, onLabel]: [string, string], hasBack: boolean, back: () => void, next: string | null, on: (next: string) => void): ComponentChild {
  if (!hasBack && next === null) return null
  return h(
    'div',
    { class: 'controls' },
    h('button', { type: 'button', disabled: !hasBack, onClick: back }, backLabel),
    h('button', { type: 'button', disabled: next === null, onClick: () => next !== null && on(next) }, onLabel),
  )
}
