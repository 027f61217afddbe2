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

/**
 * Loads fastify and the server plugins (first use only; the REST ones only with REST
 * on), and starts both servers side by side. If either fails to bind (a port in use),
 * both are closed and the JSON-RPC server's error, else the REST server's, is thrown.
 */
export async function startServers(options: ListenOptions, parts: ServerParts): Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> {
  const host = options.host ?? '127.0.0.1'
  const withRest = options.rest !== false
  const [{ default: Fastify }, { rpcRoutes }, restServer, { virtualHosts }, requestLog] = await Promise.all([
    import('fastify'),
    import('../server/rpcServer.ts'),
    withRest ? import('../server/restServer.ts') : undefined,
    import('../server/guards.ts'),
    options.log === undefined ? undefined : import('../server/requestLog.ts'),
  ])
  parts.checkOpen()
  const vhosts = virtualHosts(options.vhosts)
  const serverOptions = { bodyLimit: parts.bodyLimit, forceCloseConnections: true, schemaController: NO_SCHEMAS }
  const rpc = Fastify(serverOptions)
  const rest = restServer === undefined ? undefined : Fastify({ ...serverOptions, clientErrorHandler: restServer.restClientError })
  // Handlers note each exchange for the log line only when there is a log.
  const record = options.log !== undefined
  await Promise.all([
    rpc.register(rpcRoutes, { context: parts.context, bodyLimit: parts.bodyLimit, cors: options.cors, vhosts, record }),
    restServer === undefined
      ? undefined
      : rest?.register(restServer.restRoutes, { context: parts.restContext, bodyLimit: parts.bodyLimit, jsonDepthLimit: parts.context.limits.jsonDepthLimit, vhosts, record }),
  ])
  const apps = rest === undefined ? [rpc] : [rpc, rest]
  if (options.log !== undefined && requestLog !== undefined) {
    requestLog.logRequests(rpc, 'rpc', options.log)
    if (rest !== undefined) requestLog.logRequests(rest, 'rest', options.log)
  }
  const [rpcUrl, restUrl] = await Promise.allSettled([listenOn(rpc, host, options.rpcPort ?? 0), rest === undefined ? undefined : listenOn(rest, host, options.restPort ?? 0)])
  if (rpcUrl.status === 'rejected' || restUrl.status === 'rejected') {
    await Promise.all(apps.map((app) => app.close()))
    throw rpcUrl.status === 'rejected' ? rpcUrl.reason : (restUrl as PromiseRejectedResult).reason
  }
  return { apps, urls: restUrl.value === undefined ? { rpcUrl: rpcUrl.value } : { rpcUrl: rpcUrl.value, restUrl: restUrl.value } }
}

/**
 * fastify's schema compilers for servers whose routes declare no schema (both parse and
 * check their bodies themselves). Given, they keep fastify from loading its default ones
 * (ajv, ajv-formats and fast-json-stringify: about 100 modules) for each new instance;
 * a route that declared a schema would get an error naming this.
 */
const NO_SCHEMAS = {
  compilersFactory: {
    buildValidator: () => noSchemaCompiler,
    buildSerializer: () => noSchemaCompiler,
  },
}

function noSchemaCompiler(): never {
  throw new Error('dualnet servers compile no schemas: a route declared one (src/devnet/servers.ts)')
}

/** Starts `app` on `host:port` and returns its base URL. */
async function listenOn(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port })
  const address = app.server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
}
