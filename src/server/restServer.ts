/**
 * The REST interface on a socket: a fastify plugin that hands every request to the
 * same router as `devnet.rest`, with the node's transport (reference §1.1): HTTP 200
 * with the error in the envelope, 404 `404 page not found` for anything no route
 * matches, its CORS headers, and OPTIONS answered with an empty 200 on the POST route.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { RestContext } from '../rest/context.ts'
import { stringifyRest } from '../rest/json.ts'
import { handleRest } from '../rest/router.ts'

/** Options of {@link restRoutes}. */
export interface RestRoutesOptions {
  context: RestContext
  bodyLimit: number
}

/** Registers the REST catch-all route. */
export const restRoutes: FastifyPluginAsync<RestRoutesOptions> = async (app: FastifyInstance, { context, bodyLimit }) => {
  app.removeAllContentTypeParsers()
  // The node reads the body whatever its content type.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body))
  app.route({
    method: ['GET', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      if (request.method === 'OPTIONS' && request.url.split('?')[0] === '/api/v1/transaction') {
        return reply.code(200).headers(CORS).send('')
      }
      const answer = await handleRest(context, request.method, request.url, typeof request.body === 'string' ? request.body : undefined)
      if (answer.status === 404) return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n')
      return reply
        .code(200)
        .headers(CORS)
        .header('content-type', 'application/json;charset=utf-8')
        .send(stringifyRest(answer.envelope))
    },
  })
}

const CORS = {
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Allow-Origin': '*',
}
