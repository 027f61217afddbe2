/** Block: its EVM fields beside the native header of the same height, and its transactions of both kinds. */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import { type Endpoints, rest, rpc } from '../chain.ts'
import { quantity } from '../format.ts'
import { fields, HASH, type Json, Loaded, link } from '../ui.ts'

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
