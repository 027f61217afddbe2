/**
 * `listen()`: the JSON-RPC and REST servers (fastify and the server plugins, loaded
 * on first use), each on its own loopback port.
 */
import type { FastifyInstance } from 'fastify'
import type { ListenOptions } from '../options.ts'
import type { RpcContext } from '../rpc/context.ts'
import type { RestContext } from '../rest/context.ts'
import type { DevnetUrls } from './types.ts'

/** What the servers serve: the surfaces' contexts and the body limit. */
export interface ServerParts {
  context: RpcContext
  restContext: RestContext
  bodyLimit: number
  /** Throws if the devnet closed while the server modules loaded. */
  checkOpen: () => void
}

/** Loads fastify and the server plugins (first use only), and starts both servers. */
export async function startServers(options: ListenOptions, parts: ServerParts): Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> {
  const host = options.host ?? '127.0.0.1'
  const [{ default: Fastify }, { rpcRoutes }, { restRoutes, restClientError }, { virtualHosts }, { logRequests }] = await Promise.all([
    import('fastify'),
    import('../server/rpcServer.ts'),
    import('../server/restServer.ts'),
    import('../server/guards.ts'),
    import('../server/requestLog.ts'),
  ])
  parts.checkOpen()
  const vhosts = virtualHosts(options.vhosts)
  const rpc = Fastify({ bodyLimit: parts.bodyLimit, forceCloseConnections: true })
  // Handlers note each exchange for the log line only when there is a log.
  const record = options.log !== undefined
  await rpc.register(rpcRoutes, { context: parts.context, bodyLimit: parts.bodyLimit, cors: options.cors, vhosts, record })
  const rest = options.rest === false ? undefined : Fastify({ bodyLimit: parts.bodyLimit, forceCloseConnections: true, clientErrorHandler: restClientError })
  await rest?.register(restRoutes, { context: parts.restContext, bodyLimit: parts.bodyLimit, jsonDepthLimit: parts.context.limits.jsonDepthLimit, vhosts, record })
  const apps = rest === undefined ? [rpc] : [rpc, rest]
  if (options.log !== undefined) {
    logRequests(rpc, 'rpc', options.log)
    if (rest !== undefined) logRequests(rest, 'rest', options.log)
  }
  try {
    const rpcUrl = await listenOn(rpc, host, options.rpcPort ?? 0)
    const restUrl = rest === undefined ? undefined : await listenOn(rest, host, options.restPort ?? 0)
    return { apps, urls: restUrl === undefined ? { rpcUrl } : { rpcUrl, restUrl } }
  } catch (err) {
    await Promise.all(apps.map((app) => app.close()))
    throw err
  }
}

/** Starts `app` on `host:port` and returns its base URL. */
async function listenOn(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port })
  const address = app.server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
}
