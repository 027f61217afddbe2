/**
 * The fork policies of the REST route table, applied (docs/fork.md "History before the
 * fork", "Native state"; context.ts `RestForkPolicy`): which requests the remote's REST
 * answers, and which the fork refuses because it has no REST URL of the remote. The
 * router runs every request on a fork through {@link answerOnFork}; a handler never
 * branches on the fork.
 *
 * The remote answers a block at or below the fork block that the fork did not build,
 * a transaction the fork neither mined nor pools that the remote mined at or below the
 * fork block, and a native contract's storage or deploy payload. What the remote did
 * after the fork (a later block or transaction) is not the fork's: the handler answers
 * it as unknown.
 *
 * Reads are synchronous and throw ForkMiss while an answer is not fetched (the router
 * fetches it and runs the request again, fork/miss.ts).
 */
import { decodeDeployPayload } from '../native/transaction.ts'
import { toHexRaw, toReversedHex } from '../util/hex.ts'
import type { AnyRestRoute, RestContext, RestForkPolicy, RestRequest } from './context.ts'
import { RestError, RestErrorCode } from './errors.ts'
import { remoteBlockByHash, remoteResult, remoteTransactionAnswer, restHistory, resultOf } from './forkHistory.ts'
import { forkedContract, forkedNativeStorage, notForkedContext } from './forkReads.ts'
import { flag, parseAddress, parseHash, parseHeight, parseStorageKey } from './params.ts'
import { renderContractState } from './render.ts'

/** No remote answer: the handler answers. */
const LOCAL = Symbol('local')

/**
 * Answers `request` to `route` on a fork (`ctx.chain.fork` set) as its fork
 * policy says: the remote's answer where the policy sends the request there, else the
 * handler's (refusing native state on a fork without the remote's REST URL). Throws
 * RestError for an error answer (the remote's of the same code), ForkMiss while a
 * remote answer is not fetched.
 */
export function answerOnFork(ctx: RestContext, route: AnyRestRoute, request: RestRequest): unknown {
  const policy = route.fork as RestForkPolicy
  if (policy.kind === 'nativeState') return route.handle(ctx.chain.fork?.native === undefined ? notForkedContext(ctx, policy.what) : ctx, request)
  const remote = remoteAnswer(ctx, route.path, policy, request)
  return remote === LOCAL ? route.handle(ctx, request) : remote
}

/** The remote's Result for `request` when `policy` sends it there, else {@link LOCAL}. */
function remoteAnswer(ctx: RestContext, template: string, policy: RestForkPolicy, { params, query }: RestRequest): unknown {
  switch (policy.kind) {
    case 'local':
    case 'nativeState':
      return LOCAL
    case 'block': {
      const history = restHistory(ctx)
      if (history === undefined) return LOCAL
      const raw = policy.raw === true && flag(query.raw)
      if (policy.by === 'height') {
        const height = parseHeight(params[policy.param]!)
        return height <= history.height ? remoteResult(history, remotePath(template, policy.param, String(height), raw)) : LOCAL
      }
      const hash = parseHash(params[policy.param]!)
      const answer = remoteBlockByHash(ctx, hash, remotePath(template, policy.param, toReversedHex(hash), raw), raw)
      return answer === undefined ? LOCAL : resultOf(answer)
    }
    case 'transaction': {
      const hash = parseHash(params[policy.param]!)
      // One the fork mined is its own.
      if (ctx.chain.transaction(toHexRaw(hash)) !== undefined) return LOCAL
      const answer = remoteTransactionAnswer(ctx, hash, remotePath(template, policy.param, toReversedHex(hash), policy.raw === true && flag(query.raw)))
      return answer === undefined ? LOCAL : resultOf(answer)
    }
    case 'nativeStorage': {
      const contract = parseAddress(params[policy.param]!)
      const value = forkedNativeStorage(ctx, contract, parseStorageKey(params[policy.key]!))
      return value === undefined ? LOCAL : value
    }
    case 'nativeContract': {
      // A fork holds no genesis block (its first block is the remote's fork block): the remote's contracts, fetched on first read.
      const payload = forkedContract(ctx, parseAddress(params[policy.param]!))
      if (payload === undefined) return LOCAL
      // No such contract: 45001 with Result "", as on the node (§1.4.5).
      if (payload === '') throw new RestError(RestErrorCode.InternalError)
      return renderContractState(decodeDeployPayload(Uint8Array.from(Buffer.from(payload, 'hex'))), flag(query.raw))
    }
  }
}

/** The remote's path of the same route: `template` with parameter `name` in canonical form, and `?raw=1` when `raw`. */
function remotePath(template: string, name: string, value: string, raw: boolean): string {
  return `${template.replace(`:${name}`, value)}${raw ? '?raw=1' : ''}`
}
