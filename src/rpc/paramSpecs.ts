/**
 * The parameter specs methods declare (rpc/declare.ts): each names its parameter and
 * parses it with the parsers of rpc/params.ts, in go-ethereum's wording. A spec's
 * first type argument is the wire type the schema gives the position.
 */
import type { CallRequest } from '../evm/executor.ts'
import type { SimulationBlock } from '../chain/chain.ts'
import type { Address, BlockSpecifier, Hash, Hex, Numberish, Quantity, RpcLogFilter, RpcTransactionRequest } from '../core/rpcObjects.ts'
import { toHex, toQuantity } from '../util/hex.ts'
import type { ParamSpec } from './declare.ts'
import type { RpcContext } from './context.ts'
import { findHeight } from './blockResolution.ts'
import { parseCallFields, parseCallRequest, type CallFields } from './callRequest.ts'
import { parseLogCriteria, type LogCriteria } from './logQuery.ts'
import { RpcError, RpcErrorCode, invalidArgument } from './errors.ts'
import {
  parseAddress,
  parseAddressText,
  parseBlockReference,
  parseBoolean,
  parseData,
  parseFixedData,
  parseHash,
  parseNumberish,
  parseQuantity,
  parseStorageSlot,
  type BlockReference,
} from './params.ts'

/** A required parameter named `name`, parsed by `parse`. */
export function param<W, T>(name: string, parse: (value: unknown, index: number, ctx: RpcContext) => T, encode?: (parsed: T) => unknown): ParamSpec<W, T> {
  return encode === undefined ? { name, optional: false, parse } : { name, optional: false, parse, encode }
}

/**
 * `spec` made optional: absent or null, the handler gets `fallback` (a value, or one
 * computed from the context); present, it is parsed as `spec` parses it.
 */
export function optional<W, T, F = undefined>(spec: ParamSpec<W, T>, fallback?: F | ((ctx: RpcContext) => F)): ParamSpec<W | undefined | null, T | F> {
  return {
    name: spec.name,
    optional: true,
    parse: (value, index, ctx) => {
      if (value === undefined || value === null) return (typeof fallback === 'function' ? (fallback as (ctx: RpcContext) => F)(ctx) : fallback) as F
      return spec.parse(value, index, ctx)
    },
    ...(spec.encode === undefined ? {} : { encode: (parsed: T | F) => (parsed === undefined ? undefined : spec.encode!(parsed as T)) }),
  }
}

/** A 20-byte address (0x hex), as bytes; asked of a remote in lower case. */
export const address = (name: string): ParamSpec<Address | string, Uint8Array> => param(name, parseAddress, toHex)

/** An address in either rendering (0x hex or Base58), checked, as given (the devnet controls take both). */
export const anyAddress = (name: string): ParamSpec<string, string> => param(name, parseAddressText)

/** A 32-byte hash, as bytes; asked of a remote in lower case. */
export const hash = (name: string): ParamSpec<Hash | string, Uint8Array> => param(name, parseHash, toHex)

/** DATA of exactly `length` bytes; `what` names the Go type in the error (go-ethereum's text). */
export const fixedData = (name: string, length: number, what: string): ParamSpec<Hex | string, Uint8Array> => param(name, (value, index) => parseFixedData(value, index, length, what), toHex)

/** DATA of any length, as bytes. */
export const data = (name: string): ParamSpec<Hex | string, Uint8Array> => param(name, parseData, toHex)

/** A QUANTITY, as a bigint. */
export const quantity = (name: string): ParamSpec<Quantity | string, bigint> => param(name, parseQuantity, toQuantity)

/** A count or time as a JSON number or a QUANTITY (test helpers send both), as a safe integer. */
export const numberish = (name: string): ParamSpec<Numberish, number> => param(name, parseNumberish)

/** A JSON boolean. */
export const boolean = (name: string): ParamSpec<boolean, boolean> => param(name, parseBoolean)

/** A storage position (eth_getStorageAt's rule, rpc/params.ts `parseStorageSlot`), as 32 bytes. */
export const storageSlot = (name: string): ParamSpec<Hex | string, Uint8Array> => param(name, parseStorageSlot, toHex)

/** A JSON value passed on as it is, for a handler that parses a document of its own kind. */
export const json = <W = unknown>(name: string): ParamSpec<W, unknown> => param(name, (value) => value)

/** A block reference (tag, QUANTITY or EIP-1898 object), unresolved. */
export const blockReference = (name: string): ParamSpec<BlockSpecifier, BlockReference> => param(name, parseBlockReference)

/**
 * `spec` that also takes a plain JSON number (a non-negative safe integer) for a block
 * number or a count, as the QUANTITY of that number. Otterscan sends plain numbers to
 * `ots_getBlockDetails`, `ots_getBlockTransactions`, `ots_hasCode`,
 * `erigon_getHeaderByNumber` and `ots_getTransactionBySenderAndNonce`'s nonce; Erigon's
 * rpc.BlockNumber (rpc/types.go, decimal or hex) and `uint64` take them, as does Anvil
 * (crates/anvil/core/src/eth/serde_helpers.rs `lenient_block_number`, alloy's
 * LenientBlockNumberOrTag; `deserialize_number`). Only the Otterscan and Erigon methods
 * use it: go-ethereum's eth_ methods refuse a number.
 */
export function lenient<W, T>(spec: ParamSpec<W, T>): ParamSpec<W | number, T> {
  const { name, optional, encode } = spec
  const parse = (value: unknown, index: number, ctx: RpcContext): T => spec.parse(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? toQuantity(value) : value, index, ctx)
  return encode === undefined ? { name, optional, parse } : { name, optional, parse, encode }
}

/**
 * A block looked up by number or tag: its height, or `undefined` when the chain has
 * none (the method then answers null). Asked of a remote as a QUANTITY.
 */
export const blockNumberLookup = (name: string): ParamSpec<BlockSpecifier, number | undefined> =>
  param(
    name,
    (value, index, ctx) => findHeight(ctx, parseBlockReference(value, index)),
    (height) => (height === undefined ? undefined : toQuantity(height)),
  )

/** How a state read treats `pending`: as `latest` (go-ethereum on a solo node), as the pool's view, or refused. */
export type PendingRule = 'latest' | 'pool' | 'refuse'

/**
 * The block whose state a read targets (eth_getBalance and friends): its height. An
 * unknown block is -32000 `header not found` (go-ethereum), never the latest. With
 * `pending: 'pool'` the `pending` tag parses to `'pending'` (the pool's view, e.g. a
 * nonce); with `'refuse'` it is -32602 `pending block is not supported`.
 */
export function stateBlock(name: string): ParamSpec<BlockSpecifier, number>
export function stateBlock(name: string, pending: 'latest' | 'refuse'): ParamSpec<BlockSpecifier, number>
export function stateBlock(name: string, pending: 'pool'): ParamSpec<BlockSpecifier, number | 'pending'>
export function stateBlock(name: string, pending: PendingRule = 'latest'): ParamSpec<BlockSpecifier, number | 'pending'> {
  return param(
    name,
    (value, index, ctx) => {
      if (value === 'pending' && pending !== 'latest') {
        if (pending === 'refuse') throw invalidArgument(index, 'pending block is not supported')
        return 'pending'
      }
      const height = findHeight(ctx, parseBlockReference(value, index))
      if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
      return height
    },
    (at) => (at === 'pending' ? 'pending' : toQuantity(at)),
  )
}

/**
 * The block a simulation targets (eth_call, eth_estimateGas, debug_traceCall):
 * `'pending'` for the `pending` tag (the next block's environment), else its height;
 * an unknown block is -32000 `header not found`. Asked of a remote as a QUANTITY.
 */
export const simulationBlock = (name: string): ParamSpec<BlockSpecifier, SimulationBlock> =>
  param(
    name,
    (value, index, ctx): SimulationBlock => {
      const ref = parseBlockReference(value, index)
      if ('tag' in ref && ref.tag === 'pending') return 'pending'
      const height = findHeight(ctx, ref)
      if (height === undefined) throw new RpcError(RpcErrorCode.ServerError, 'header not found')
      return height
    },
    (at) => (at === 'pending' ? 'pending' : toQuantity(at)),
  )

/** A call object (eth_call's), with the defaults of reference §6.2 (rpc/callRequest.ts). */
export const callRequest = (name: string): ParamSpec<RpcTransactionRequest, CallRequest> => param(name, parseCallRequest)

/**
 * A log filter object (eth_getLogs, eth_newFilter): `{ fromBlock, toBlock | blockHash,
 * address, topics }`, parsed to criteria with resolved heights (rpc/logQuery.ts
 * `parseLogCriteria`; a blockHash the chain does not hold is -32000 `unknown block`).
 */
export const logFilter = (name: string): ParamSpec<RpcLogFilter, LogCriteria> => param(name, (value, index, ctx) => parseLogCriteria(ctx, value, index))

/** A filter id (eth_newFilter's answer): a QUANTITY, in its canonical 0x form, as the filters are keyed. */
export const filterId = (name: string): ParamSpec<string, Hex> => param(name, (value, index) => toQuantity(parseQuantity(value, index)))

/**
 * A transaction object to sign (eth_sendTransaction, eth_signTransaction): the call
 * object's fields (rpc/callRequest.ts), absent ones `undefined`, with `from` required
 * (-32602 `missing "from"`).
 */
export const transactionRequest = (name: string): ParamSpec<RpcTransactionRequest, CallFields & { from: Uint8Array }> =>
  param(name, (value, index) => {
    const f = parseCallFields(value, index)
    if (f.from === undefined) throw invalidArgument(index, 'missing "from"')
    return { ...f, from: f.from }
  })

/**
 * A block by QUANTITY|TAG, by a bare 32-byte hash, or by an EIP-1898 object, as
 * go-ethereum's rpc.BlockNumberOrHash takes it (rpc/types.go: a string of 66
 * characters is a hash): the hash's bytes, else the height, or `undefined` when the
 * chain has no such block (the method answers null). A fork places it with a `block`
 * policy `by: 'numberOrHash'` (rpc/forkPolicy.ts).
 */
export const blockNumberOrHash = (name: string): ParamSpec<BlockSpecifier, number | Uint8Array | undefined> =>
  param(
    name,
    (value, index, ctx) => {
      if (typeof value === 'string' && value.length === 66) return parseHash(value, index)
      const ref = parseBlockReference(value, index)
      return 'hash' in ref ? ref.hash : findHeight(ctx, ref)
    },
    (at) => (at === undefined ? undefined : at instanceof Uint8Array ? toHex(at) : toQuantity(at)),
  )
