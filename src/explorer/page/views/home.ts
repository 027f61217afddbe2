/** Home: the chain's settings, the controls and the latest blocks and transactions, live. */
import { type ComponentChild, h } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { type Endpoints, followHeads, rpc } from '../chain.ts'
import { quantity } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'

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
