/**
 * Both views consistent under concurrency. During interval mining, transactions go in
 * at the same time by function call, over the JSON-RPC socket (HTTP and WebSocket) and
 * over the REST socket (EIP-155-wrapped and native transfers), with ERC-20 transfers
 * among them for logs. Afterwards a checker walks every block and compares the REST
 * and JSON-RPC renderings: hash, parent, height, timestamp, the EVM transaction list,
 * each transaction's block, every EVM log against the node's event record (States in
 * the node's serialisation), and every account's balance and nonce.
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, Wallet } from 'ethers'
import { WebSocket } from 'ws'
import { createDevnet, type Devnet } from '../../src/index.ts'
import { Token } from '../../fixtures/index.ts'
import { eip155Envelope } from '../fuzz-support.ts'
import { chainOf } from '../../src/devnet/provider.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
/** Transactions per channel. */
const PER_CHANNEL = 40
const GWEI = 10n ** 9n
const token = new Interface(Token.abi as never)

let devnet: Devnet
let rpcUrl: string
let restUrl: string

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 6, nativeAccounts: 2, automine: true })
  ;({ rpcUrl, restUrl } = (await devnet.listen()) as { rpcUrl: string; restUrl: string })
})

afterAll(async () => {
  await devnet?.close()
})

const reversed = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex').reverse().toString('hex')
const hexOf = (n: number) => `0x${n.toString(16)}`

/** The node's EVM log serialisation (core/types/evm_log.go): address ‖ u32 LE topic count ‖ topics ‖ var-bytes data. */
function serializeLog(log: { address: string; topics: string[]; data: string }): string {
  const data = Buffer.from(log.data.slice(2), 'hex')
  const count = Buffer.alloc(4)
  count.writeUInt32LE(log.topics.length)
  let length: Buffer
  if (data.length < 0xfd) length = Buffer.from([data.length])
  else if (data.length <= 0xffff) length = Buffer.concat([Buffer.from([0xfd]), Buffer.from([data.length & 0xff, data.length >> 8])])
  else throw new Error('log data too long for this checker')
  return `0x${Buffer.concat([Buffer.from(log.address.slice(2), 'hex'), count, ...log.topics.map((t) => Buffer.from(t.slice(2), 'hex')), length, data]).toString('hex')}`
}

async function rpcHttp(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const json = (await response.json()) as { result?: unknown; error?: unknown }
  if (json.error !== undefined) throw new Error(JSON.stringify(json.error))
  return json.result
}

async function restGet(path: string): Promise<{ Error: number; Result: any }> {
  return (await (await fetch(`${restUrl}${path}`)).json()) as { Error: number; Result: any }
}

async function restPost(data: string): Promise<{ Error: number; Result: any }> {
  const response = await fetch(`${restUrl}/api/v1/transaction`, { method: 'POST', body: JSON.stringify({ Action: 'sendrawtransaction', Version: '1.0.0', Data: data }) })
  return (await response.json()) as { Error: number; Result: any }
}

describe('REST and JSON-RPC views agree after concurrent sends during interval mining', () => {
  it('every block, transaction, log and balance', async () => {
    const [viaCall, viaHttp, viaWs, viaRest, receiver] = devnet.accounts as Devnet['accounts'][number][]
    // A token whose transfers log events, owned by the function-call sender.
    const deployHash = (await devnet.rpc('eth_sendTransaction', [
      { from: viaCall!.address, data: Token.bytecode + token.encodeDeploy(['T', 'T', 10n ** 24n]).slice(2), gas: '0x2dc6c0', gasPrice: '0x3b9aca00' },
    ])) as string
    const tokenAddress = ((await devnet.rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string }).contractAddress
    await devnet.setAutomine(false)
    await devnet.setIntervalMining(40)

    const sign = async (key: string, nonce: number, data?: string) =>
      new Wallet(key).signTransaction({
        type: 0,
        chainId: 12345,
        nonce,
        gasPrice: GWEI,
        gasLimit: data === undefined ? 21_000n : 100_000n,
        to: data === undefined ? receiver!.address : tokenAddress,
        value: data === undefined ? 1n : 0n,
        data,
      })
    const transfer = token.encodeFunctionData('transfer', [receiver!.address, 3n])
    const nonceOf = async (address: string) => Number(BigInt((await devnet.rpc('eth_getTransactionCount', [address, 'pending'])) as string))
    const startCall = await nonceOf(viaCall!.address)
    const [httpRaws, wsRaws, restRaws] = await Promise.all([viaHttp!, viaWs!, viaRest!].map((a) => Promise.all(Array.from({ length: PER_CHANNEL }, (_, i) => sign(a.privateKey, i)))))
    const native = devnet.nativeAccounts
    const nativeRaws = Array.from({ length: PER_CHANNEL / 4 }, (_, i) => {
      const tx = sdk.OntAssetTxBuilder.makeTransferTx(i % 2 === 0 ? 'ONG' : 'ONT', new sdk.Crypto.Address(native[0]!.base58), new sdk.Crypto.Address(native[1]!.base58), i + 1, '2500', '20000')
      sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(native[0]!.privateKey.slice(2)))
      return tx.serialize()
    })

    const ws = new WebSocket(rpcUrl.replace('http', 'ws'))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const wsAnswers = new Map<number, (value: { result?: string; error?: unknown }) => void>()
    ws.on('message', (data) => {
      const json = JSON.parse(String(data)) as { id: number; result?: string; error?: unknown }
      wsAnswers.get(json.id)?.(json)
    })
    const viaSocket = (raw: string, id: number) =>
      new Promise<{ result?: string; error?: unknown }>((resolve) => {
        wsAnswers.set(id, resolve)
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] }))
      })

    const t0 = performance.now()
    const sent = await Promise.all([
      // Function call: token transfers, in nonce order (eth_sendRawTransaction of signed ones).
      (async () => {
        const out: string[] = []
        for (let i = 0; i < PER_CHANNEL; i++) out.push((await devnet.rpc('eth_sendRawTransaction', [await sign(viaCall!.privateKey, startCall + i, transfer)])) as string)
        return out
      })(),
      Promise.all(httpRaws!.map((raw) => rpcHttp('eth_sendRawTransaction', [raw]) as Promise<string>)),
      Promise.all(
        wsRaws!.map(async (raw, i) => {
          const answer = await viaSocket(raw, i)
          if (answer.error !== undefined) throw new Error(JSON.stringify(answer.error))
          return answer.result!
        }),
      ),
      Promise.all(
        restRaws!.map(async (raw) => {
          const answer = await restPost(eip155Envelope(raw))
          expect(answer.Error, JSON.stringify(answer)).toBe(0)
          return `0x${reversed(answer.Result as string)}`
        }),
      ),
      (async () => {
        const out: string[] = []
        for (const raw of nativeRaws) {
          const answer = await restPost(raw)
          expect(answer.Error, JSON.stringify(answer)).toBe(0)
          out.push(answer.Result as string)
        }
        return out
      })(),
    ])
    ws.close()
    const [callHashes, httpHashes, wsHashes, restHashes, nativeHashes] = sent
    const evmHashes = new Set([...callHashes!, ...httpHashes!, ...wsHashes!, ...restHashes!])
    expect(evmHashes.size).toBe(4 * PER_CHANNEL)
    // Interval mining takes what is pending; wait until the pool is empty.
    while (chainOf(devnet).mempool.size > 0) await new Promise((resolve) => setTimeout(resolve, 20))
    await devnet.setIntervalMining(0)
    const sendMs = performance.now() - t0

    // The checker: every block in both renderings.
    const height = Number((await rpcHttp('eth_blockNumber', [])) as string)
    expect((await restGet('/api/v1/block/height')).Result).toBe(height)
    const minedEvm = new Set<string>()
    const minedNative = new Set<string>()
    let logs = 0
    for (let h = 0; h <= height; h++) {
      const block = (await rpcHttp('eth_getBlockByNumber', [hexOf(h), true])) as {
        hash: string
        parentHash: string
        number: string
        timestamp: string
        transactions: { hash: string; blockNumber: string; transactionIndex: string }[]
      }
      const rest = (await restGet(`/api/v1/block/details/height/${h}`)).Result as {
        Hash: string
        Header: { PrevBlockHash: string; Height: number; Timestamp: number }
        Transactions: { Hash: string; TxType: number; Height: number }[]
      }
      expect(rest.Hash).toBe(reversed(block.hash))
      expect((await restGet(`/api/v1/block/hash/${h}`)).Result).toBe(rest.Hash)
      expect(rest.Header.Height).toBe(Number(block.number))
      expect(rest.Header.Timestamp).toBe(Number(block.timestamp))
      if (h > 0) expect(rest.Header.PrevBlockHash).toBe(reversed(block.parentHash))
      // EVM transactions in the same order; transactionIndex counts native ones too (reference, kept as the chain does).
      const restEvm = rest.Transactions.map((t, index) => ({ ...t, index })).filter((t) => t.TxType === 211)
      expect(block.transactions.map((t) => t.hash)).toEqual(restEvm.map((t) => `0x${reversed(t.Hash)}`))
      for (const [i, t] of block.transactions.entries()) expect(Number(t.transactionIndex)).toBe(restEvm[i]!.index)
      for (const t of rest.Transactions) (t.TxType === 211 ? minedEvm : minedNative).add(t.TxType === 211 ? `0x${reversed(t.Hash)}` : t.Hash)
      // Events against logs, transaction by transaction.
      const events = (await restGet(`/api/v1/smartcode/event/transactions/${h}`)).Result as '' | { TxHash: string; Notify: { States: unknown; IsEvm: boolean; ContractAddress: string }[] | null }[]
      expect(events === '' ? 0 : events.length).toBe(rest.Transactions.length)
      const blockLogs = (await rpcHttp('eth_getLogs', [{ blockHash: block.hash }])) as { transactionHash: string; address: string; topics: string[]; data: string; blockNumber: string }[]
      for (const t of block.transactions) {
        const record = (events as { TxHash: string; Notify: { States: unknown; IsEvm: boolean; ContractAddress: string }[] | null }[]).find((e) => e.TxHash === reversed(t.hash))!
        const evmNotify = (record.Notify ?? []).filter((n) => n.IsEvm)
        const txLogs = blockLogs.filter((l) => l.transactionHash === t.hash)
        const receipt = (await rpcHttp('eth_getTransactionReceipt', [t.hash])) as { logs: typeof txLogs; blockNumber: string }
        expect(receipt.logs).toEqual(txLogs)
        expect(evmNotify.map((n) => n.States)).toEqual(txLogs.map(serializeLog))
        expect(evmNotify.map((n) => n.ContractAddress)).toEqual(txLogs.map((l) => reversed(l.address)))
        expect((await restGet(`/api/v1/block/height/txhash/${reversed(t.hash)}`)).Result).toBe(h)
        expect(Number(receipt.blockNumber)).toBe(h)
        logs += txLogs.length
      }
    }
    for (const hash of evmHashes) expect(minedEvm.has(hash), hash).toBe(true)
    for (const hash of nativeHashes!) expect(minedNative.has(hash), hash).toBe(true)

    // Balances and nonces of every account in both views.
    for (const a of [...devnet.accounts, ...devnet.nativeAccounts]) {
      const rest = (await restGet(`/api/v1/balancev2/${a.base58}`)).Result as { gas: string }
      expect(BigInt(rest.gas), a.address).toBe(BigInt((await rpcHttp('eth_getBalance', [a.address, 'latest'])) as string))
    }
    for (const [account, count] of [
      [viaHttp!, PER_CHANNEL],
      [viaWs!, PER_CHANNEL],
      [viaRest!, PER_CHANNEL],
      [viaCall!, startCall + PER_CHANNEL],
    ] as const) {
      expect(await rpcHttp('eth_getTransactionCount', [account.address, 'latest'])).toBe(hexOf(count))
    }
    console.log(
      `[consistency] ${evmHashes.size} EVM + ${nativeHashes!.length} native transactions sent over 5 channels during 40 ms interval mining in ${sendMs.toFixed(0)} ms; ${height + 1} blocks and ${logs} logs checked in both views`,
    )
  })
})
