/**
 * The explorer's pages as preact components (no JSX: `h` calls, so the page needs no
 * compiler setting). Every value from the chain is a child string, which preact sets as
 * a text node: nothing the chain holds is parsed as HTML.
 */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { type Endpoints, followHeads, rest, rpc } from './chain.ts'
import { fromBase58, quantity, toBase58, units } from './format.ts'

type Json = Record<string, unknown>

/** Runs `load` when `key` changes; renders its result with `show`, a failure as text. */
function Loaded<T>({ load, show, key }: { load: () => Promise<T>; show: (value: T) => ComponentChild; key: string }): ComponentChild {
  const [state, setState] = useState<{ key: string; value?: T; error?: string } | undefined>(undefined)
  useEffect(() => {
    let live = true
    load().then(
      (value) => live && setState({ key, value }),
      (err: unknown) => live && setState({ key, error: err instanceof Error ? err.message : 'failed' }),
    )
    return () => {
      live = false
    }
  }, [key])
  // While a new key loads, the last answer stays (no flicker on each new head).
  if (state === undefined) return h('p', { class: 'muted' }, 'Loading…')
  if (state.error !== undefined) return h('p', { class: 'error', 'data-testid': 'error' }, state.error)
  return show(state.value as T)
}

/** A link inside the page (hash routing: the server serves one document). */
export function link(route: string, text: string): ComponentChild {
  return h('a', { href: `#/${route}` }, text)
}

/** A two-column table of fields; each row carries `data-field` for the tests. */
function fields(title: string, rows: [string, ComponentChildren][]): ComponentChild {
  return h(
    'section',
    null,
    h('h2', null, title),
    h(
      'table',
      { class: 'fields' },
      h(
        'tbody',
        null,
        rows.map(([name, value]) => h('tr', { 'data-field': name }, h('th', null, name), h('td', null, value))),
      ),
    ),
  )
}

/** Whether a transaction hash or block hash: 32 bytes in hex. */
const HASH = /^0x[0-9a-fA-F]{64}$/

/** Home: the chain's settings and its latest blocks and transactions, refreshed on each new head. */
export function Home({ endpoints }: { endpoints: Endpoints }): ComponentChild {
  const [head, setHead] = useState<bigint | undefined>(undefined)
  useEffect(() => {
    rpc<string>('eth_blockNumber').then(
      (n) => setHead(BigInt(n)),
      () => undefined,
    )
    return followHeads(setHead)
  }, [])
  return h(
    'div',
    null,
    h(Loaded<[string, Json, boolean, number, number]>, {
      // Read again with each head: a control (here or another client's) may have changed them.
      key: `info-${String(head)}`,
      load: () =>
        Promise.all([
          rpc<string>('eth_chainId'),
          rpc<Json>('anvil_nodeInfo'),
          rpc<boolean>('hardhat_getAutomine'),
          rpc<number | null>('anvil_getIntervalMining').then((n) => n ?? 0),
          // Zero seconds moves nothing; the answer is the offset in seconds (evm_increaseTime).
          rpc<number | string>('evm_increaseTime', [0]).then(Number),
        ]),
      show: ([chainId, info, automine, interval, offset]) =>
        fields('Chain', [
          ['Chain id', BigInt(chainId).toString()],
          ['Hardfork', String(info.hardFork)],
          ['Mining', automine ? 'automine' : interval > 0 ? `every ${interval} s` : 'manual (evm_mine)'],
          ['Time offset', `${offset} s`],
        ]),
    }),
    endpoints.controls ? h(Controls, null) : null,
    head === undefined ? null : h(Latest, { head, key: head.toString() }),
  )
}

/**
 * The controls a user reaches for while debugging: mine a block, take a snapshot and
 * revert to it, move time by an hour. Shown only when the server listens on loopback
 * (config.json's `controls`); each is the JSON-RPC method a test would call.
 */
function Controls(): ComponentChild {
  const [snapshots, setSnapshots] = useState<string[]>([])
  const [note, setNote] = useState('')
  const act = (label: string, run: () => Promise<string>) => () => {
    run().then(
      (text) => setNote(`${label}: ${text}`),
      (err: unknown) => setNote(`${label} failed: ${err instanceof Error ? err.message : 'unknown error'}`),
    )
  }
  const last = snapshots.at(-1)
  return h(
    'section',
    { 'data-testid': 'controls' },
    h('h2', null, 'Controls'),
    h(
      'div',
      { class: 'controls' },
      h('button', { type: 'button', onClick: act('mined', () => rpc<string>('evm_mine').then(() => 'one block')) }, 'Mine a block'),
      h(
        'button',
        {
          type: 'button',
          onClick: act('snapshot', async () => {
            const id = await rpc<string>('evm_snapshot')
            setSnapshots((list) => [...list, id])
            return id
          }),
        },
        'Snapshot',
      ),
      h(
        'button',
        {
          type: 'button',
          disabled: last === undefined,
          onClick: act('reverted', async () => {
            const done = await rpc<boolean>('evm_revert', [last])
            setSnapshots((list) => list.slice(0, -1))
            return done ? `to snapshot ${String(last)}` : `snapshot ${String(last)} was gone`
          }),
        },
        last === undefined ? 'Revert (no snapshot)' : `Revert to ${last}`,
      ),
      h('button', { type: 'button', onClick: act('time moved', () => rpc<number | string>('evm_increaseTime', [3600]).then((o) => `offset ${Number(o)} s`)) }, '+1 hour'),
    ),
    note === '' ? null : h('p', { class: 'muted', 'data-testid': 'control-note' }, note),
  )
}

function Latest({ head }: { head: bigint }): ComponentChild {
  return h(Loaded<Json[]>, {
    key: head.toString(),
    load: () => Promise.all(Array.from({ length: Number(head < 9n ? head + 1n : 10n) }, (_, i) => rpc<Json>('eth_getBlockByNumber', [`0x${(head - BigInt(i)).toString(16)}`, true]))),
    show: (blocks) => {
      const txs = blocks.flatMap((b) => (b.transactions as Json[]).map((t) => ({ hash: t.hash as string, block: b.number as string })))
      return h(
        'div',
        { class: 'columns' },
        h(
          'section',
          { 'data-testid': 'latest-blocks' },
          h('h2', null, 'Latest blocks'),
          h(
            'ul',
            null,
            blocks.map((b) => h('li', null, link(`block/${quantity(b.number as string)}`, `#${quantity(b.number as string)}`), ` ${(b.transactions as Json[]).length} txs`)),
          ),
        ),
        h(
          'section',
          { 'data-testid': 'latest-transactions' },
          h('h2', null, 'Latest transactions'),
          h(
            'ul',
            null,
            txs.slice(0, 20).map((t) => h('li', null, link(`tx/${t.hash}`, t.hash), ` in #${quantity(t.block)}`)),
          ),
        ),
      )
    },
  })
}

/** Block: its EVM fields beside the native header of the same height. */
export function Block({ id, endpoints }: { id: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<[Json, Json | null]>, {
    key: id,
    load: async () => {
      const block = HASH.test(id) ? await rpc<Json | null>('eth_getBlockByHash', [id, true]) : await rpc<Json | null>('eth_getBlockByNumber', [`0x${BigInt(id).toString(16)}`, true])
      if (block === null) throw new Error(`no block ${id}`)
      const native = await rest<Json>(endpoints, `/api/v1/block/details/height/${quantity(block.number as string)}`)
      return [block, native] as [Json, Json | null]
    },
    show: ([block, native]) => {
      const header = (native?.Header ?? null) as Json | null
      const nativeRows: [string, ComponentChildren][] =
        header === null
          ? [['REST', 'off: listen with rest to see the native header']]
          : ['Version', 'PrevBlockHash', 'TransactionsRoot', 'BlockRoot', 'Timestamp', 'ConsensusData', 'NextBookkeeper', 'Bookkeepers', 'SigData'].map((k) => [
              k,
              typeof header[k] === 'object' ? JSON.stringify(header[k]) : String(header[k]),
            ])
      return h(
        'div',
        null,
        h('h1', null, `Block ${quantity(block.number as string)}`),
        h(
          'div',
          { class: 'columns' },
          fields('EVM', [
            ['number', quantity(block.number as string)],
            ['hash', block.hash as string],
            ['parentHash', block.parentHash as string],
            ['timestamp', quantity(block.timestamp as string)],
            ['gasUsed', quantity(block.gasUsed as string)],
            ['gasLimit', quantity(block.gasLimit as string)],
            ['baseFeePerGas', quantity(block.baseFeePerGas as string | undefined)],
            ['miner', block.miner as string],
            ['stateRoot', block.stateRoot as string],
          ]),
          h('div', { 'data-testid': 'native-header' }, fields('Native header', nativeRows)),
        ),
        h(
          'section',
          null,
          h('h2', null, 'EVM transactions'),
          h(
            'ul',
            null,
            (block.transactions as Json[]).map((t) => h('li', null, link(`tx/${t.hash as string}`, t.hash as string))),
          ),
        ),
        native === null
          ? null
          : h(
              'section',
              { 'data-testid': 'native-transactions' },
              h('h2', null, 'Native transactions (REST)'),
              h(
                'ul',
                null,
                ((native.Transactions ?? []) as Json[]).map((t) => h('li', null, link(`tx/0x${t.Hash as string}`, t.Hash as string), ` TxType ${String(t.TxType)}`)),
              ),
            ),
      )
    },
  })
}

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
function nativeView(tx: Json, events: Json | null): ComponentChild {
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

/** Account: balances in both units on both views, nonce, code and its transactions among the latest blocks. */
export function Account({ id, endpoints }: { id: string; endpoints: Endpoints }): ComponentChild {
  const address = id.startsWith('0x') ? id.toLowerCase() : fromBase58(id)
  if (address === undefined || !/^0x[0-9a-f]{40}$/.test(address)) return h('p', { class: 'error' }, 'not an address (0x and 40 hex digits, or Base58)')
  const base58 = toBase58(address)
  return h(Loaded<{ balance: string; nonce: string; code: string; native: Json | null; txs: Json[] }>, {
    key: address,
    load: async () => {
      const [balance, nonce, code, native, head] = await Promise.all([
        rpc<string>('eth_getBalance', [address, 'latest']),
        rpc<string>('eth_getTransactionCount', [address, 'latest']),
        rpc<string>('eth_getCode', [address, 'latest']),
        rest<Json>(endpoints, `/api/v1/balancev2/${base58}`),
        rpc<string>('eth_blockNumber'),
      ])
      const last = BigInt(head)
      const blocks = await Promise.all(Array.from({ length: Number(last < 49n ? last + 1n : 50n) }, (_, i) => rpc<Json>('eth_getBlockByNumber', [`0x${(last - BigInt(i)).toString(16)}`, true])))
      const txs = blocks.flatMap((b) => (b.transactions as Json[]).filter((t) => t.from === address || t.to === address))
      return { balance, nonce, code, native, txs }
    },
    show: ({ balance, nonce, code, native, txs }) =>
      h(
        'div',
        null,
        h('h1', null, 'Account'),
        fields('Addresses and balances', [
          ['0x', address],
          ['Base58', base58],
          ['gas (EVM balance)', `${units(BigInt(balance), 18)} gas (${BigInt(balance).toString()} wei)`],
          ...(native === null
            ? ([['REST', 'off: listen with rest to see the main balance']] as [string, ComponentChildren][])
            : ([
                ['main', `${units(BigInt(native.main as string), 9)} main (${native.main as string} base units)`],
                ['gas (native)', `${units(BigInt(native.gas as string), 18)} gas (${native.gas as string} base units)`],
              ] as [string, ComponentChildren][])),
          ['nonce', quantity(nonce)],
          ['code', code === '0x' ? '(none)' : `${(code.length - 2) / 2} bytes`],
        ]),
        h(
          'section',
          null,
          h('h2', null, 'Transactions (latest 50 blocks)'),
          h(
            'ul',
            null,
            txs.map((t) => h('li', null, link(`tx/${t.hash as string}`, t.hash as string))),
          ),
        ),
      ),
  })
}

/** The route a search text leads to, or an error text. */
export function searchRoute(text: string): string | { error: string } {
  const q = text.trim()
  if (/^\d+$/.test(q)) return `block/${q}`
  if (HASH.test(q)) return `find/${q}`
  if (/^0x[0-9a-fA-F]{40}$/.test(q) || fromBase58(q) !== undefined) return `address/${q}`
  return { error: 'search takes a block height, a block or transaction hash, or an address (0x or Base58)' }
}

/** A 32-byte hash: a transaction if the chain knows one, else a block. */
export function Find({ hash, endpoints }: { hash: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<boolean>, {
    key: hash,
    load: async () => (await rpc<Json | null>('eth_getTransactionByHash', [hash])) !== null,
    show: (isTx) => (isTx ? h(Transaction, { hash, endpoints }) : h(Block, { id: hash, endpoints })),
  })
}
