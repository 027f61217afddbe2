/**
 * Transaction: an EVM one's receipt, logs, call tree and revert reason, its contracts
 * named and its call, events and errors decoded by the artifacts when the devnet has
 * them (names.ts); a native one's view by REST.
 */
import { type ComponentChild, type ComponentChildren, h } from 'preact'
import type { ExplorerContract, SignatureMatch } from '../../api/contractTypes.ts'
import { type DecodedArg, decodedText, decodeReturn } from '../abi.ts'
import { api, type Endpoints, rpc } from '../chain.ts'
import { quantity, units } from '../format.ts'
import { ContractNames, type NamedDecoding } from '../names.ts'
import { fields, type Json, Loaded, link } from '../ui.ts'
import { type FoundTransaction, NativeTransaction } from './nativeTransaction.ts'

/** What the artifacts say of one callTracer frame: the contract it ran, its call and its revert data decoded. */
interface FrameNames {
  contract: ExplorerContract | null
  call: NamedDecoding | undefined
  revert: NamedDecoding | undefined
}

/** What the artifacts say of a transaction: its contracts, its call, logs and revert decoded (undefined: not decoded). */
interface TransactionNames {
  to: ExplorerContract | null
  created: ExplorerContract | null
  call: NamedDecoding | undefined
  logs: (NamedDecoding | undefined)[]
  /** Each log's emitter, in the receipt's order. */
  emitters: (ExplorerContract | null)[]
  frames: Map<Json, FrameNames>
}

/** The names of `tx`'s contracts and decodings, its contracts read as of its block (a contract that destroyed itself later is still named). */
async function nameTransaction(tx: Json, receipt: Json | null, trace: Json | null): Promise<TransactionNames> {
  const block = tx.blockNumber === null ? '' : `?block=${quantity(tx.blockNumber as string)}`
  const names = new ContractNames({
    contract: (address) => api<ExplorerContract>(`contract/${address}${block}`),
    signatures: async (selector) => (await api<readonly SignatureMatch[]>(`signature/${selector}`)) ?? [],
  })
  const frames = new Map<Json, FrameNames>()
  const walk = async (frame: Json): Promise<void> => {
    const to = frame.to as string | undefined
    const [contract, call, revert] = await Promise.all([
      names.contract(to),
      frame.type === 'CREATE' || frame.type === 'CREATE2' ? undefined : names.call(to, frame.input as string | undefined),
      frame.error === undefined ? undefined : names.revert(to, frame.output as string | undefined),
    ])
    frames.set(frame, { contract, call, revert })
    await Promise.all(((frame.calls ?? []) as Json[]).map(walk))
  }
  const to = tx.to as string | null
  const receiptLogs = (receipt?.logs ?? []) as Json[]
  const [contract, created, call, logs, emitters] = await Promise.all([
    names.contract(to),
    names.contract(receipt?.contractAddress as string | null | undefined),
    to === null ? undefined : names.call(to, tx.input as string),
    Promise.all(receiptLogs.map((log) => names.log(log.address as string, log.topics as string[], log.data as string))),
    Promise.all(receiptLogs.map((log) => names.contract(log.address as string))),
    trace === null ? undefined : walk(trace),
  ])
  return { to: contract, created, call, logs, emitters, frames }
}

/** A call the artifacts do not decode: its selector and length, a creation's init code length, or nothing for a plain transfer. */
function inputSummary(input: string, creation: boolean): string {
  const length = (input.length - 2) / 2
  if (creation) return `init code and constructor arguments, ${length} bytes`
  if (input === '0x') return ''
  return `${input.slice(0, 10)}… (${length} bytes; no artifact names the selector)`
}

/** Whether a frame's decoded revert says more than its `revertReason` (the tracer's Error(string) text): a custom error or a Panic. */
function newsOf(frame: Json, revert: NamedDecoding | undefined): revert is NamedDecoding {
  return revert !== undefined && !(revert.name === 'Error' && revert.via === 'builtin' && frame.revertReason !== undefined)
}

/** The row of the top frame's revert data decoded: a custom error, or a Panic with its meaning. */
function revertRow(trace: Json | null, names: TransactionNames): [string, ComponentChildren][] {
  const revert = trace === null ? undefined : names.frames.get(trace)?.revert
  return trace !== null && newsOf(trace, revert) ? [['revert error', decodedView(revert, 'revert-decoded')]] : []
}

/** A decoding as text, with where its ABI item came from when not the address's own contract. */
function decodedView(decoded: NamedDecoding, testid: string): ComponentChild {
  const via = decoded.via === 'selector' ? ` (by its selector, as declared in ${decoded.from ?? 'the artifacts'})` : decoded.via === 'standard' ? ' (ERC-20)' : ''
  return h('span', { class: 'decoded', 'data-testid': testid }, decodedText(decoded), via === '' ? null : h('span', { class: 'muted' }, via))
}

/** An address linked to its account page, with its contract's name when the artifacts name it. */
function named(address: string, contract: ExplorerContract | null): ComponentChildren {
  return [link(`address/${address}`, address), contract === null ? null : h('span', { class: 'contract-name', 'data-testid': 'contract-name' }, ` ${contract.name}`)]
}

/** A log: its event decoded (the emitter's ABI, else the artifacts', else ERC-20's), else its topics and data. */
function logView(log: Json, decoded: NamedDecoding | undefined, emitter: ExplorerContract | null): ComponentChild {
  return h(
    'li',
    { 'data-testid': 'log' },
    h('div', null, 'emitted by ', named(log.address as string, emitter)),
    decoded === undefined ? h('pre', null, JSON.stringify({ topics: log.topics, data: log.data }, null, 1)) : h('div', null, decodedView(decoded, 'log-decoded')),
  )
}

/** What a frame that did not revert returned, by its decoded function's outputs: ` → 42`, ` → (a 1, b 2)`. */
function returnView(frame: Json, call: NamedDecoding): ComponentChild {
  const returned: DecodedArg[] | undefined = frame.error === undefined && call.item !== undefined ? decodeReturn(call.item, frame.output as string | undefined) : undefined
  if (returned === undefined) return null
  const text = returned.length === 1 && returned[0]!.name === '' ? returned[0]!.value : `(${returned.map((a) => (a.name === '' ? a.value : `${a.name} ${a.value}`)).join(', ')})`
  return h('span', { class: 'decoded', 'data-testid': 'frame-return' }, ` → ${text}`)
}

/** A callTracer frame and its calls, nested: the contract it ran and its call decoded, its revert decoded. */
function callView(frame: Json, names: Map<Json, FrameNames>): ComponentChild {
  const calls = (frame.calls ?? []) as Json[]
  const { contract, call, revert } = names.get(frame) ?? { contract: null, call: undefined, revert: undefined }
  const to = (frame.to as string | undefined) ?? '(create)'
  const label = `${frame.type as string} ${frame.from as string} → ${to}${contract === null ? '' : ` ${contract.name}`}`
  const outcome = `value ${quantity(frame.value as string | undefined) || '0'}${frame.error === undefined ? '' : ` ✗ ${frame.error as string}`}${frame.revertReason === undefined ? '' : ` (${frame.revertReason as string})`}`
  return h(
    'li',
    null,
    h('span', null, label, ' '),
    call === undefined ? null : [decodedView(call, 'frame-call'), returnView(frame, call), ' '],
    h('span', null, outcome),
    newsOf(frame, revert) ? [' ', decodedView(revert, 'frame-revert')] : null,
    calls.length === 0
      ? null
      : h(
          'ul',
          null,
          calls.map((c) => callView(c, names)),
        ),
  )
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

/** An EVM transaction: its fields and receipt, logs, call tree and revert reason, named and decoded by the artifacts. */
function EvmTransaction({ hash }: { hash: string }): ComponentChild {
  return h(Loaded<{ tx: Json; receipt: Json | null; trace: Json | null; names: TransactionNames }>, {
    key: hash,
    load: async () => {
      const [tx, receipt] = await Promise.all([rpc<Json | null>('eth_getTransactionByHash', [hash]), rpc<Json | null>('eth_getTransactionReceipt', [hash])])
      if (tx === null) throw new Error(`no transaction ${hash}`)
      const trace = receipt === null ? null : await rpc<Json>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch(() => null)
      return { tx, receipt, trace, names: await nameTransaction(tx, receipt, trace) }
    },
    show: ({ tx, receipt, trace, names }) =>
      h(
        'div',
        null,
        h('h1', null, 'Transaction'),
        fields('EVM', [
          ['hash', tx.hash as string],
          ['block', tx.blockNumber === null ? 'pending' : link(`block/${quantity(tx.blockNumber as string)}`, quantity(tx.blockNumber as string))],
          ['from', link(`address/${tx.from as string}`, tx.from as string)],
          ['to', tx.to === null ? '(contract creation)' : named(tx.to as string, names.to)],
          ['call', names.call === undefined ? inputSummary(tx.input as string, tx.to === null) : decodedView(names.call, 'call-decoded')],
          ['value', `${units(BigInt(tx.value as string), 18)} (${quantity(tx.value as string)} wei)`],
          ['status', receipt === null ? 'pending' : receipt.status === '0x1' ? 'success' : 'reverted'],
          ['revert reason', (trace?.revertReason as string | undefined) ?? (trace?.error as string | undefined) ?? ''],
          ...revertRow(trace, names),
          ['gasUsed', quantity(receipt?.gasUsed as string | undefined)],
          ['effectiveGasPrice', quantity(receipt?.effectiveGasPrice as string | undefined)],
          ['contractAddress', receipt?.contractAddress == null ? '' : named(receipt.contractAddress as string, names.created)],
        ]),
        receipt === null
          ? null
          : h(
              'section',
              null,
              h('h2', null, 'Logs'),
              h(
                'ul',
                null,
                (receipt.logs as Json[]).map((log, i) => logView(log, names.logs[i], names.emitters[i] ?? null)),
              ),
            ),
        trace === null ? null : h('section', { 'data-testid': 'call-tree' }, h('h2', null, 'Call tree'), h('ul', { class: 'tree' }, callView(trace, names.frames))),
      ),
  })
}
