/** Account: an address in both forms, its balances on both views, nonce, code and transactions. */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import { type Endpoints, rest, rpc } from '../chain.ts'
import { fromBase58, quantity, toBase58, units } from '../format.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'

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
