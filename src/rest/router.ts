/**
 * Matching a request against the route table the way the node's router does
 * (reference §1.1): each template becomes an anchored regex where `:param` is `(\w+)`;
 * the first route with a matching method and path wins; anything else is HTTP 404.
 * Answers the envelope `{ Action, Desc, Error, Result, Version }`.
 */
import { retryOnForkMiss } from '../fork/miss.ts'
import type { AnyRestRoute, RestContext } from './context.ts'
import { describe, RestErrorCode } from './errors.ts'
import { answerOnFork } from './forkPolicy.ts'
import { restErrorOf } from './errorCodes.ts'
import { restRoutes } from './routes/index.ts'
import type { RestEnvelope } from './schema.ts'

export type { RestEnvelope } from './schema.ts'

/** What the router answers: an envelope, or 404 for a path and method no route has. */
export type RestAnswer = { status: 200; envelope: RestEnvelope } | { status: 404 }

interface CompiledRoute {
  route: AnyRestRoute
  pattern: RegExp
  names: string[]
}

const compiled: CompiledRoute[] = restRoutes.map((route) => {
  const names: string[] = []
  const source = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    names.push(name)
    return '(\\w+)'
  })
  return { route, pattern: new RegExp(`^${source}$`), names }
})

/**
 * Answers `method` on `url` (path with optional query string). `body` is the raw
 * body of a POST. Never throws for bad input: it becomes the envelope's error.
 */
export async function handleRest(ctx: RestContext, method: string, url: string, body?: string): Promise<RestAnswer> {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const query = Object.fromEntries(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)))
  for (const { route, pattern, names } of compiled) {
    if (route.method !== method) continue
    const match = pattern.exec(path)
    if (match === null) continue
    const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]))
    try {
      const request = { params, query, body }
      // Over a fork, the route's declared fork policy says who answers (rest/forkPolicy.ts), and a
      // request that read a value not fetched yet runs again once it is (fork/miss.ts).
      const result = ctx.chain.fork === undefined ? await route.handle(ctx, request) : await retryOnForkMiss(() => answerOnFork(ctx, route, request))
      // With a durable database nothing is answered before what it reports is on disk (persistence/store.ts).
      const written = ctx.chain.flushed()
      if (written !== undefined) await written
      return { status: 200, envelope: envelope(route.action, RestErrorCode.Success, result) }
    } catch (err) {
      // Each error by its code's convention (rest/errorCodes.ts): 45001 with the text unless the node has its own.
      const answer = restErrorOf(err)
      return answer === undefined ? { status: 404 } : { status: 200, envelope: envelope(route.action, answer.code, answer.result) }
    }
  }
  return { status: 404 }
}

function envelope(action: string, code: number, result: unknown): RestEnvelope {
  return { Action: action, Desc: describe(code), Error: code, Result: result, Version: '1.0.0' }
}
