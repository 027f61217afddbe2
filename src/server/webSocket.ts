/**
 * JSON-RPC over WebSocket on the HTTP server's own port, as go-ethereum, Anvil and
 * `hardhat node` serve it: any path, one JSON-RPC body (request or batch) per text
 * frame, answers in frames of their own, subscription notifications pushed as
 * `eth_subscription` messages. The `ws` library does the protocol; this module only
 * ties sockets to the dispatch and to the subscription manager, after checking the
 * upgrade's Host and Origin (guards.ts: 403 with the reason). `ws` loads on the first
 * upgrade, not with the server: it requires Node's https, tls and zlib, about 10 ms of CPU
 * of a CLI's start to its first answer (docs/performance.md, "CLI start").
 *
 * A client that stops reading would otherwise hold every answer and notification it
 * is sent in the devnet's memory (a stalled reader with 2,000 newHeads subscriptions
 * grew the process by 330 MiB per 100 blocks until the heap ran out). Each socket's
 * unsent bytes (`bufferedAmount`) are checked before each send: past the
 * `wsBufferLimit` option the client's subscriptions end and the socket is closed with
 * 1008, as go-ethereum gives up on a subscriber that cannot keep up (its client ends a
 * subscription whose queue overflows, rpc/client.go `ErrSubscriptionQueueOverflow`).
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { RawData, WebSocket, WebSocketServer } from 'ws'
import type { RpcContext } from '../rpc/context.ts'
import { handleRpcBody, toRpcError } from '../rpc/dispatch.ts'
import { RpcErrorCode } from '../rpc/errors.ts'
import { hostRefusal, originRefusal, type VirtualHosts } from './guards.ts'
import { jsonTooDeep } from './jsonDepth.ts'
import type { SubscriptionConnection } from '../rpc/subscriptions.ts'

/** Options of {@link attachWebSocket}. */
export interface WebSocketOptions {
  context: RpcContext
  /** Largest accepted frame, in bytes (the JSON-RPC body limit); a larger one closes the socket with 1009. */
  maxPayload: number
  /** The JSON-RPC server's CORS origins: an upgrade with an Origin header must carry one of them ({@link originRefusal}). */
  cors: string | readonly string[] | false
  /** Host names answered ({@link hostRefusal}). */
  vhosts: VirtualHosts
}

/** The WebSocket side of one server. */
export interface WebSocketEndpoint {
  /** Open sockets. */
  readonly clients: number
  /** Closes every socket with a normal close frame (1000) and waits for them; stops accepting upgrades. */
  close(): Promise<void>
}

/** How long a client may take to answer our close frame before its socket is cut, in milliseconds. */
const CLOSE_GRACE_MS = 1000

/**
 * The close code for a client that does not read: 1008, policy violation (RFC 6455
 * §7.4.1), the code for a peer that broke the endpoint's rules. Not 1013 (try again
 * later), which says the server is overloaded and invites an immediate reconnect of a
 * client that would stall again; not 1009, which is about one message's size.
 */
export const WS_CLOSE_NOT_READING = 1008

/** Answers WebSocket upgrades of `server` with JSON-RPC sessions over `options.context`. */
export function attachWebSocket(server: Server, options: WebSocketOptions): WebSocketEndpoint {
  let wss: WebSocketServer | undefined
  let loading: Promise<WebSocketServer> | undefined
  let closed = false
  const load = () => {
    loading ??= import('ws').then(({ WebSocketServer }) => {
      wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload })
      return wss
    })
    return loading
  }
  const upgrade = (wss: WebSocketServer, request: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws, options.context))
  }
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = hostRefusal(request.headers.host, options.vhosts) ?? originRefusal(request.headers.origin, options.cors)
    if (refusal !== undefined) return refuse(socket, refusal)
    if (wss !== undefined) return upgrade(wss, request, socket, head)
    // The first upgrade waits for `ws`. Node has taken its own listeners off the socket (and
    // leaves it paused, so frames sent meanwhile wait in it); an error in the wait must not
    // be an unhandled 'error' event, and ws's handleUpgrade drops a socket that has closed.
    const onError = () => socket.destroy()
    socket.on('error', onError)
    load().then(
      (loaded) => {
        socket.off('error', onError)
        if (closed) return void socket.destroy()
        upgrade(loaded, request, socket, head)
      },
      () => socket.destroy(),
    )
  }
  server.on('upgrade', onUpgrade)
  return {
    get clients() {
      return wss?.clients.size ?? 0
    },
    async close() {
      closed = true
      server.off('upgrade', onUpgrade)
      const open = wss ?? (await loading?.catch(() => undefined))
      if (open === undefined) return
      await Promise.all([...open.clients].map(closeSocket))
      await new Promise<void>((resolve) => open.close(() => resolve()))
    },
  }
}

/** Answers an upgrade 403 with `reason` as plain text (as the HTTP side does) and closes the connection. */
function refuse(socket: Duplex, reason: string): void {
  const body = Buffer.from(`${reason}\n`)
  socket.on('error', () => {})
  socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body.toString()}`)
}

/** Sends one text frame on an open socket, unless its client is too far behind ({@link serve}). */
type Send = (text: string) => void

/**
 * One session: requests in, answers and notifications out; its subscriptions end with
 * it. Every send first looks at the bytes the client has left unread: past
 * `limits.wsBufferLimit` the subscriptions end at once (no more notifications are
 * made for it) and the socket gets the close frame {@link WS_CLOSE_NOT_READING}, queued
 * after what is unread; ws cuts the socket if the client has not answered it 30 s
 * later. The bytes held per socket stay under the limit plus one message.
 */
function serve(ws: WebSocket, context: RpcContext): void {
  const limit = context.limits.wsBufferLimit
  const send: Send = (text) => {
    if (ws.readyState !== ws.OPEN) return
    if (ws.bufferedAmount <= limit) return ws.send(text)
    connection.close()
    ws.close(WS_CLOSE_NOT_READING, `client not reading: more than ${limit} bytes unsent (option wsBufferLimit)`)
  }
  const connection = context.subscriptions.connect((subscription, result) => send(notificationJson(subscription, result)))
  // The devnet's context with this socket's connection; a prototype, so that a reset's new chain shows through.
  const session: RpcContext = Object.create(context, { connection: { value: connection } }) as RpcContext
  ws.on('message', (data, isBinary) => void answer(send, session, connection, data, isBinary))
  ws.on('close', () => connection.close())
  // A broken socket also emits 'close', which does the cleaning up.
  ws.on('error', () => {})
}

async function answer(send: Send, session: RpcContext, connection: SubscriptionConnection, data: RawData, isBinary: boolean): Promise<void> {
  let body: unknown
  try {
    const frame = text(data, isBinary)
    // As the HTTP server: refused before JSON.parse, which deep nesting would hold up.
    if (jsonTooDeep(frame, session.limits.jsonDepthLimit)) {
      const message = `parse error: JSON nested deeper than ${session.limits.jsonDepthLimit} levels (option jsonDepthLimit)`
      return reply(send, { jsonrpc: '2.0', id: null, error: { code: RpcErrorCode.ParseError, message } })
    }
    body = JSON.parse(frame)
  } catch {
    return reply(send, { jsonrpc: '2.0', id: null, error: { code: RpcErrorCode.ParseError, message: 'parse error' } })
  }
  const subscribing = callsSubscribe(body)
  if (subscribing) connection.hold()
  try {
    const response = await handleRpcBody(session, body)
    if (response !== undefined) reply(send, response)
  } catch (err) {
    // The dispatch answers every method's failure itself; this is a fault of its own, which must not end the process.
    reply(send, { jsonrpc: '2.0', id: null, error: toRpcError(err).toJSON() })
  } finally {
    if (subscribing) connection.release()
  }
}

function reply(send: Send, response: unknown): void {
  send(JSON.stringify(response))
}

function text(data: RawData, isBinary: boolean): string {
  if (isBinary) throw new Error('binary frame')
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8')
}

/** Whether a body (request or batch) holds an eth_subscribe, whose answer must precede its notifications. */
function callsSubscribe(body: unknown): boolean {
  const isSubscribe = (r: unknown) => typeof r === 'object' && r !== null && (r as { method?: unknown }).method === 'eth_subscribe'
  return Array.isArray(body) ? body.some(isSubscribe) : isSubscribe(body)
}

/** JSON of results already written, by object: one head goes to every subscriber of every socket. */
const resultJson = new WeakMap<object, string>()

function notificationJson(subscription: string, result: unknown): string {
  let json = typeof result === 'object' && result !== null ? resultJson.get(result) : undefined
  if (json === undefined) {
    json = JSON.stringify(result)
    if (typeof result === 'object' && result !== null) resultJson.set(result, json)
  }
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${subscription}","result":${json}}}`
}

/** Sends a normal close frame and waits for the socket to close; cuts it after a grace period. */
function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS)
    timer.unref()
    ws.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
    ws.close(1000, 'devnet closed')
  })
}
