/**
 * The REST routes' reads of a fork's native state (docs/fork.md "Native state"): with
 * the remote's REST URL they come from the remote on first read; without it they are
 * not forked, and the routes say so (error 45001, the message as Result) rather than
 * answer a zero the remote does not hold. The router reads them through the routes'
 * declared fork policies (rest/forkPolicy.ts).
 */
import type { Chain } from '../chain/chain.ts'
import type { RestContext } from './context.ts'
import { NotForkedError } from '../fork/source.ts'
import { GAS_TOKEN_ADDRESS, MAIN_TOKEN_ADDRESS } from '../core/constants.ts'
import { bytesEqual, toHexRaw } from '../util/hex.ts'

/**
 * `ctx` as a handler of native state gets it on a fork without the remote's REST URL:
 * its first read of the chain throws {@link NotForkedError} naming `what` ("main-token
 * balances are"). The read, not the start of the handler, so that the handler has
 * parsed the input it parses before reading (a malformed address is still 42002).
 */
export function notForkedContext(ctx: RestContext, what: string): RestContext {
  return {
    ...ctx,
    get chain(): Chain {
      throw new NotForkedError(what)
    },
  }
}

/**
 * On a fork, the remote's native contract storage of `contract` at `key` (hex) as hex
 * ('' missing), for an address that holds no EVM code here: a contract of the remote's
 * native or NeoVM kind, which nothing on the fork can write. `undefined` where the
 * devnet's own storage answers: no fork, an EVM contract (its slots are forked through
 * JSON-RPC), and the token contracts, whose balances the devnet keeps as accounts
 * (balancev2, allowancev2), not as storage. May throw ForkMiss, or NotForkedError without REST.
 */
export function forkedNativeStorage(ctx: RestContext, contract: Uint8Array, key: string): string | undefined {
  const fork = ctx.chain.fork
  if (fork === undefined || bytesEqual(contract, MAIN_TOKEN_ADDRESS) || bytesEqual(contract, GAS_TOKEN_ADDRESS)) return undefined
  if (ctx.chain.account(contract).codeHash !== undefined) return undefined
  return fork.nativeStorage(toHexRaw(contract), key.toLowerCase())
}

/** On a fork, the remote's serialised deploy payload at `address` (hex, '' for none); `undefined` without a fork. May throw ForkMiss, or NotForkedError without REST. */
export function forkedContract(ctx: RestContext, address: Uint8Array): string | undefined {
  return ctx.chain.fork?.contract(toHexRaw(address))
}
