/**
 * Shared by the block-environment tests (block-context, next-block-estimates): the
 * surfaces a request can come through, and the BlockGate fixture deployed and read
 * through one of them. Not a test file itself: vitest only collects `*.test.ts`.
 */
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { WebSocket } from 'ws'
import { BlockGate } from '../fixtures/index.ts'
import type { Devnet } from '../src/index.ts'

/** Genesis timestamp of the frozen clocks these tests use: every timestamp is exact. */
export const T0 = 1_700_000_000

const abi = BlockGate.abi as Abi

/** A JSON-RPC answer: a result or an error. */
type Answer = { result?: unknown; error?: { code: number; message: string } }

/** A JSON-RPC error as every surface reports it. */
export class SurfaceError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** One way to send a JSON-RPC request: by function call (`devnet.rpc`), over HTTP or over a WebSocket. */
export interface Surface {
  readonly name: string
  rpc(method: string, params?: unknown[]): Promise<unknown>
}

/** The names of the surfaces {@link surface} opens. */
export const SURFACES = ['function call', 'HTTP'] as const

/** `devnet.rpc`, or requests to the devnet's JSON-RPC server (started here): HTTP POSTs or one WebSocket (closed by `devnet.close()`). */
export async function surface(devnet: Devnet, name: (typeof SURFACES)[number] | 'WebSocket'): Promise<Surface> {
  if (name === 'function call') {
    return {
      name,
      rpc: (method, params = []) =>
        devnet.rpcUntyped(method, params).catch((err: { code: number; message: string }) => {
          throw new SurfaceError(err.code, err.message)
        }),
    }
  }
  const { rpcUrl } = await devnet.listen({ rest: false })
  if (name === 'WebSocket') return webSocketSurface(rpcUrl.replace('http:', 'ws:'))
  return {
    name,
    async rpc(method, params = []) {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      const answer = (await response.json()) as Answer
      if (answer.error !== undefined) throw new SurfaceError(answer.error.code, answer.error.message)
      return answer.result
    },
  }
}

/** A surface over one WebSocket: each request waits for the answer with its id. */
async function webSocketSurface(url: string): Promise<Surface> {
  const ws = new WebSocket(url)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const waiting = new Map<number, (answer: Answer) => void>()
  ws.on('message', (data) => {
    const answer = JSON.parse(String(data)) as Answer & { id: number }
    waiting.get(answer.id)?.(answer)
    waiting.delete(answer.id)
  })
  let id = 0
  return {
    name: 'WebSocket',
    async rpc(method, params = []) {
      const answer = await new Promise<Answer>((resolve) => {
        waiting.set(++id, resolve)
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      })
      if (answer.error !== undefined) throw new SurfaceError(answer.error.code, answer.error.message)
      return answer.result
    },
  }
}

/** BlockGate deployed by dev account 0 (automine), read and called through `via`. */
export interface Gate {
  readonly address: Hex
  readonly from: Hex
  /** The call object of `fn` (no arguments unless given). */
  request(fn: 'env' | 'enter' | 'checkpoint' | 'checkpoints' | 'isPast', args?: readonly bigint[]): { from: Hex; to: Hex; data: Hex }
  /** NUMBER and TIMESTAMP an eth_call at `block` sees. */
  env(block: string): Promise<[number, number]>
  /** eth_estimateGas of `fn`, with `block` as the second parameter when given. */
  estimate(fn: 'enter' | 'checkpoint', block?: string): Promise<bigint>
  /** Sends `fn` with a gas limit (default: none, so the node estimates) and resolves to the receipt's status (1 or 0). */
  send(fn: 'enter' | 'checkpoint', gas?: bigint): Promise<number>
}

/** Deploys BlockGate(opensAt, opensAtBlock) and resolves to its handle. */
export async function deployGate(via: Surface, devnet: Devnet, opensAt: number, opensAtBlock: number): Promise<Gate> {
  const from = devnet.accounts[0]!.address
  const data = encodeDeployData({ abi, bytecode: BlockGate.bytecode, args: [BigInt(opensAt), BigInt(opensAtBlock)] })
  const receipt = await mined(via, (await via.rpc('eth_sendTransaction', [{ from, data, gas: '0x100000' }])) as Hex)
  const address = receipt.contractAddress as Hex
  const request: Gate['request'] = (fn, args = []) => ({ from, to: address, data: encodeFunctionData({ abi, functionName: fn, args }) })
  return {
    address,
    from,
    request,
    async env(block) {
      const data = (await via.rpc('eth_call', [request('env'), block])) as Hex
      const [number, timestamp] = decodeFunctionResult({ abi, functionName: 'env', data }) as [bigint, bigint]
      return [Number(number), Number(timestamp)]
    },
    async estimate(fn, block) {
      return BigInt((await via.rpc('eth_estimateGas', block === undefined ? [request(fn)] : [request(fn), block])) as string)
    },
    async send(fn, gas) {
      const tx = gas === undefined ? request(fn) : { ...request(fn), gas: `0x${gas.toString(16)}` }
      return Number((await mined(via, (await via.rpc('eth_sendTransaction', [tx])) as Hex)).status)
    },
  }
}

/** The receipt of a transaction, mining one block if automine left it pending. */
async function mined(via: Surface, hash: Hex): Promise<{ status: string; contractAddress: string | null }> {
  let receipt = (await via.rpc('eth_getTransactionReceipt', [hash])) as { status: string; contractAddress: string | null } | null
  if (receipt === null) {
    await via.rpc('evm_mine')
    receipt = (await via.rpc('eth_getTransactionReceipt', [hash])) as { status: string; contractAddress: string | null }
  }
  return receipt
}

/** Height and timestamp of the latest block. */
export async function head(via: Surface): Promise<{ number: number; timestamp: number }> {
  const block = (await via.rpc('eth_getBlockByNumber', ['latest', false])) as { number: string; timestamp: string }
  return { number: Number(block.number), timestamp: Number(block.timestamp) }
}

/** `n` as a JSON-RPC QUANTITY. */
export function quantity(n: number | bigint): string {
  return `0x${n.toString(16)}`
}
