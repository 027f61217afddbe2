/**
 * The page's reads of the devnet: JSON-RPC by POST to the server that serves the page
 * (same origin), `newHeads` over its WebSocket, and the REST server (its URL from
 * config.json) for the native view. Every failure is thrown as an Error with the
 * server's own message, which the page shows as text.
 */

/** Where the page reads from. */
export interface Endpoints {
  /** REST base URL, or null when the devnet listens without REST. */
  restUrl: string | null
  /** Whether to show the controls (the server listens on loopback only). */
  controls: boolean
}

let nextId = 1

/** One JSON-RPC call; rejects with the error object's message. */
export async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) })
  const answer = (await response.json()) as { result?: T; error?: { code: number; message: string } }
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message} (${answer.error.code})`)
  return answer.result as T
}

/**
 * One read of the explorer's API (`/explorer/api/<path>`, same origin): its JSON
 * (`null` when the chain holds no such thing); rejects with the API's error text.
 */
export async function api<T>(path: string): Promise<T | null> {
  const response = await fetch(`/explorer/api/${path}`)
  const answer = (await response.json()) as T | null | { error: string }
  if (!response.ok) throw new Error(`${path}: ${(answer as { error: string }).error}`)
  return answer as T | null
}

/** One REST GET (path from /api/v1/...); the envelope's Result, or null without REST; rejects with Desc when Error is not 0. */
export async function rest<T>(endpoints: Endpoints, path: string): Promise<T | null> {
  if (endpoints.restUrl === null) return null
  const response = await fetch(`${endpoints.restUrl}${path}`)
  const envelope = (await response.json()) as { Error: number; Desc: string; Result: T }
  if (envelope.Error !== 0) throw new Error(`${path}: ${envelope.Desc} (${envelope.Error})`)
  return envelope.Result
}

/**
 * Calls `onHead` with each new block number: `eth_subscribe('newHeads')` on the
 * server's WebSocket; if that cannot open (an origin outside the `cors` option), a
 * poll of eth_blockNumber each second. Returns the function that stops it.
 */
export function followHeads(onHead: (number: bigint) => void): () => void {
  let stopped = false
  let timer: ReturnType<typeof setInterval> | undefined
  const poll = () => {
    let last = -1n
    timer = setInterval(() => {
      rpc<string>('eth_blockNumber').then(
        (n) => {
          if (!stopped && BigInt(n) !== last) onHead((last = BigInt(n)))
        },
        () => undefined,
      )
    }, 1000)
  }
  const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`)
  let opened = false
  socket.onopen = () => {
    opened = true
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
  }
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { method?: string; params?: { result?: { number?: string } } }
    const number = message.params?.result?.number
    if (message.method === 'eth_subscription' && number !== undefined) onHead(BigInt(number))
  }
  socket.onclose = () => {
    if (!opened && !stopped) poll()
  }
  return () => {
    stopped = true
    socket.close()
    if (timer !== undefined) clearInterval(timer)
  }
}
