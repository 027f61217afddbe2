/**
 * Helpers of the fork tests (docs/fork.md): a loopback proxy in front of the remote
 * that can fail on demand, raw JSON-RPC over HTTP (for byte-equal comparisons of two
 * nodes' answers), and a remote dualnet with history to fork. Not a test file itself.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ContractFactory, getCreateAddress, Interface, Wallet, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, Token } from '../fixtures/index.ts'
import { GWEI, sendNativeTransfer } from './support.ts'

/**
 * Loopback proxy to `target`: forwards, or answers `mode`'s failure ('no-batches': a
 * JSON-RPC batch gets the one error object of a node without batches). Counts requests.
 */
export class FaultProxy {
  mode: 'forward' | '429-once' | 'down' | 'no-batches' = 'forward'
  requests = 0
  /** The JSON-RPC requests asked through the proxy, in order (each request of a batch). */
  readonly calls: { method: string; params: unknown }[] = []
  /** When set and it returns an answer for a request's path, that answer (as JSON) is given instead of the target's. */
  override: ((path: string) => unknown) | undefined
  readonly #server: Server
  constructor(target: string) {
    this.#server = createServer(async (req: IncomingMessage, res) => {
      this.requests++
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      if (req.method === 'POST') this.calls.push(...callsOf(Buffer.concat(chunks).toString()))
      if (this.mode === 'down') return void res.destroy()
      if (this.mode === '429-once') {
        this.mode = 'forward'
        res.writeHead(429, { 'retry-after': '0.05' }).end('slow down')
        return
      }
      if (this.mode === 'no-batches' && Buffer.concat(chunks).toString().trimStart().startsWith('[')) {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches are not served' } }))
      }
      const replaced = this.override?.(req.url ?? '/')
      if (replaced !== undefined) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(replaced))
      // JSON-RPC POSTs and REST GETs alike: the method and path as asked.
      const body = req.method === 'GET' ? undefined : Buffer.concat(chunks)
      const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers: { 'content-type': 'application/json' }, body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }
  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

/** The requests of a JSON-RPC body (one request or a batch); none for anything else. */
function callsOf(body: string): { method: string; params: unknown }[] {
  try {
    const parsed = JSON.parse(body) as unknown
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((r) => {
      const { method, params } = (typeof r === 'object' && r !== null ? r : {}) as { method?: unknown; params?: unknown }
      return typeof method === 'string' ? [{ method, params }] : []
    })
  } catch {
    return []
  }
}

/** The body of a node's HTTP answer to one JSON-RPC request (id 1), as text: what byte-equal compares. */
export async function rawRpc(url: string, method: string, params: unknown[]): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return response.text()
}

/** The result of one JSON-RPC request over HTTP; throws the error object's message. */
export async function rpcResult<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = JSON.parse(await rawRpc(url, method, params)) as { result?: T; error?: { message: string } }
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result as T
}

/** A non-contract address the history pays. */
export const STRANGER = '0x00000000000000000000000000000000c0ffee01'

/** What {@link historyRemote} built: the remote and its transactions by block. */
export interface HistoryRemote {
  remote: Devnet
  /** The remote's JSON-RPC URL. */
  url: string
  /** The remote's REST URL. */
  restUrl: string
  token: string
  reverter: string
  /** EVM transaction hashes by block number: 1 deploy, 2 token transfer, 3 deploy, 4 reverted call, 5 two of three transactions (the native one, last in the block, is not listed), 6 after the fork. */
  txs: Record<number, string[]>
  /** The native transaction of block 5 in its JSON-RPC (not byte-reversed) form. */
  nativeTx: string
  /** The block to fork at (5); block 6 is what the remote did after it. */
  forkBlock: number
}

/**
 * A remote dualnet (chain id 4242) listening on loopback, with history:
 *   block 1  deploys Token (a mint Transfer log, a fee log)
 *   block 2  a token transfer to {@link STRANGER}
 *   block 3  deploys Reverter
 *   block 4  a call that reverts (status 0, the fee log only)
 *   block 5  a value transfer (gas price 0), a token transfer and a native transfer, in one block (EVM ones first)
 *   block 6  a value transfer, after the block the tests fork at
 */
export async function historyRemote(): Promise<HistoryRemote> {
  const remote = await createDevnet({ chainId: 4242, console: false })
  const { rpcUrl: url, restUrl } = await remote.listen()
  const wallet = new Wallet(remote.accounts[0]!.privateKey)
  let nonce = 0
  const send = async (fields: { to?: string; data?: string; value?: bigint; gasLimit: bigint; gasPrice?: bigint }): Promise<string> => {
    const raw = await wallet.signTransaction({ type: 0, chainId: 4242, nonce: nonce++, gasPrice: GWEI, ...fields })
    return (await remote.rpc('eth_sendRawTransaction', [raw])) as string
  }
  const tokenAbi = new Interface(Token.abi as InterfaceAbi)
  const token = getCreateAddress({ from: wallet.address, nonce: 0 }).toLowerCase()
  const reverter = getCreateAddress({ from: wallet.address, nonce: 2 }).toLowerCase()
  const deployToken = (await new ContractFactory(tokenAbi, Token.bytecode).getDeployTransaction('Remote', 'RMT', 1_000_000n)).data
  const txs: Record<number, string[]> = {}
  txs[1] = [await send({ data: deployToken, gasLimit: 3_000_000n })]
  txs[2] = [await send({ to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER, 250n]), gasLimit: 200_000n })]
  txs[3] = [await send({ data: Reverter.bytecode, gasLimit: 3_000_000n })]
  txs[4] = [await send({ to: reverter, data: new Interface(Reverter.abi as InterfaceAbi).encodeFunctionData('revertWithReason'), gasLimit: 200_000n })]
  await remote.rpc('evm_setAutomine', [false])
  const transfer = await send({ to: STRANGER, value: 10n ** 18n, gasLimit: 21_000n, gasPrice: 0n })
  const native = await sendNativeTransfer(remote)
  const tokenTransfer = await send({ to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER, 5n]), gasLimit: 200_000n })
  await remote.mine()
  txs[5] = [transfer, tokenTransfer]
  await remote.rpc('evm_setAutomine', [true])
  txs[6] = [await send({ to: STRANGER, value: 1n, gasLimit: 21_000n })]
  return { remote, url, restUrl: restUrl!, token, reverter, txs, nativeTx: `0x${Buffer.from(native, 'hex').reverse().toString('hex')}`, forkBlock: 5 }
}

/** A fork of a fresh {@link historyRemote} at its fork block (no disk cache), listening on loopback. */
export interface ForkedHistory {
  h: HistoryRemote
  fork: Devnet
  /** The fork's JSON-RPC URL. */
  forkUrl: string
  /** Closes the fork, then the remote. */
  close: () => Promise<void>
}

/** Builds a {@link historyRemote} and forks it at its fork block, both listening on loopback. */
export async function forkedHistory(): Promise<ForkedHistory> {
  const h = await historyRemote()
  const fork = await createDevnet({ fork: { url: h.url, blockNumber: h.forkBlock, cache: false }, console: false })
  const forkUrl = (await fork.listen()).rpcUrl
  return {
    h,
    fork,
    forkUrl,
    close: async () => {
      await fork.close()
      await h.remote.close()
    },
  }
}
