/**
 * `listen()`: the JSON-RPC server (`node:http`, src/server/rpcServer.ts) and the REST
 * server (fastify), loaded on first use, each on its own loopback port.
 */
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { ListenOptions } from '../options/types.ts'
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

/** A started server: `close()` ends its connections (and WebSocket sessions) and stops it. */
export interface RunningServer {
  close(): Promise<void>
}

/**
 * Loads the server modules (first use only; fastify and the REST ones only with REST
 * on), and starts both servers side by side. If either fails to bind (a port in use),
 * both are closed and the JSON-RPC server's error, else the REST server's, is thrown.
 */
export async function startServers(options: ListenOptions, parts: ServerParts): Promise<{ apps: RunningServer[]; urls: DevnetUrls }> {
  const host = options.host ?? '127.0.0.1'
  const withRest = options.rest !== false
  const explorerOption = options.explorer === true ? {} : options.explorer === false ? undefined : options.explorer
  const artifactPaths = explorerOption?.artifacts === undefined ? undefined : typeof explorerOption.artifacts === 'string' ? [explorerOption.artifacts] : explorerOption.artifacts
  const [{ createRpcServer }, rest, { virtualHosts }, requestLog, explorer, artifacts] = await Promise.all([
    import('../server/rpcServer.ts'),
    withRest ? Promise.all([import('fastify'), import('../server/restServer.ts')]) : undefined,
    import('../server/guards.ts'),
    options.log === undefined || !withRest ? undefined : import('../server/requestLog.ts'),
    explorerOption === undefined ? undefined : import('../explorer/serve.ts'),
    artifactPaths === undefined ? undefined : import('../explorer/artifacts.ts').then(({ ExplorerArtifacts }) => new ExplorerArtifacts(artifactPaths)),
  ])
  parts.checkOpen()
  const vhosts = virtualHosts(options.vhosts)
  // The explorer learns the REST URL once both servers are bound (its page reads the native view there).
  let urls: DevnetUrls | undefined
  const pages = explorer?.explorerPages(() => urls, { controls: explorer.isLoopback(host), chain: parts.context.chain, artifacts })
  const rpc = createRpcServer({ context: parts.context, bodyLimit: parts.bodyLimit, cors: options.cors, vhosts, log: options.log, pages })
  let restApp: FastifyInstance | undefined
  if (rest !== undefined) {
    const [{ default: Fastify }, restServer] = rest
    restApp = Fastify({ bodyLimit: parts.bodyLimit, forceCloseConnections: true, schemaController: NO_SCHEMAS, ...restServer.REST_TRANSPORT })
    // Handlers note each exchange for the log line only when there is a log.
    await restApp.register(restServer.restRoutes, {
      context: parts.restContext,
      bodyLimit: parts.bodyLimit,
      jsonDepthLimit: parts.context.limits.jsonDepthLimit,
      vhosts,
      record: options.log !== undefined,
    })
    if (options.log !== undefined && requestLog !== undefined) requestLog.logRequests(restApp, 'rest', options.log)
  }
  const apps: RunningServer[] = restApp === undefined ? [rpc] : [rpc, restApp]
  const [rpcUrl, restUrl] = await Promise.allSettled([
    rpc.listen(host, options.rpcPort ?? 0),
    restApp === undefined ? undefined : restApp.listen({ host, port: options.restPort ?? 0 }).then(() => urlOf(restApp.server, host)),
  ])
  if (rpcUrl.status === 'rejected' || restUrl.status === 'rejected') {
    await Promise.all(apps.map((app) => app.close()))
    throw rpcUrl.status === 'rejected' ? rpcUrl.reason : (restUrl as PromiseRejectedResult).reason
  }
  urls = restUrl.value === undefined ? { rpcUrl: rpcUrl.value } : { rpcUrl: rpcUrl.value, restUrl: restUrl.value }
  if (pages !== undefined) urls.explorerUrl = `${rpcUrl.value}${pages.prefix}`
  return { apps, urls }
}

/**
 * fastify's schema compilers for the REST server, whose routes declare no schema (it parses and
 * checks its bodies itself). Given, they keep fastify from loading its default ones
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

/** The base URL of a bound server. */
function urlOf(server: Server, host: string): string {
  const address = server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : 0
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
}
