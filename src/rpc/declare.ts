/**
 * A JSON-RPC method as a declaration (fastify's route schema and viem's typed RPC
 * schema are the models): its name, its params (each parsed and checked by a
 * {@link ParamSpec}, so that bad input is -32602 naming the parameter, from one
 * place), its result type, and its fork policy, which the dispatcher applies so that
 * no handler branches on the fork (rpc/forkPolicy.ts).
 *
 * The compiler checks every declaration against {@link DualnetRpcSchema}: the specs'
 * wire types must take what the schema's `Parameters` say a client may send, one spec
 * per position, and the handler must resolve to the schema's `ReturnType`.
 */
import type { RpcCallScope, RpcContext } from './context.ts'
import type { RpcMethodName, RpcParameters, RpcResult } from './schema.ts'

/**
 * One positional parameter: its name (in -32602 messages and the docs), whether it may
 * be left out, and how its JSON value becomes the handler's `T`.
 *
 * `W` is the wire type the schema gives the position. It is phantom (a parser takes
 * `unknown`, since nothing checks a client's JSON), and contravariant: a spec that
 * takes `string` serves a schema position typed `Address`, never the other way.
 */
export interface ParamSpec<W, T> {
  readonly name: string
  /** True when the position may be absent or null: `parse` then gets `undefined`. */
  readonly optional: boolean
  /**
   * Parses the JSON value at position `index` (`undefined` for an absent optional
   * one). Throws {@link RpcError} -32602 `invalid argument N: …` (go-ethereum's text,
   * with the parameter's name) for a malformed value, or another error the surface
   * maps (an unknown block is -32000 `header not found`).
   */
  parse(value: unknown, index: number, ctx: RpcContext): T
  /** The parsed value as the remote is asked for it on a fork (canonical form); the value as sent when absent. */
  encode?(parsed: T): unknown
  /** Phantom: the wire type this spec takes (see the interface's note). */
  readonly wire?: (value: W) => void
}

/** The handler's params: each spec's parsed type, in order. */
export type ParsedParams<S extends readonly ParamSpec<never, unknown>[]> = { -readonly [K in keyof S]: S[K] extends ParamSpec<never, infer T> ? T : never }

/** One spec per position of the schema's params `P`, each taking that position's wire type. */
export type ParamSpecsFor<P extends readonly unknown[]> = { readonly [K in keyof P]-?: ParamSpec<P[K], unknown> }

/**
 * Where a method's answer comes from on a fork (docs/fork.md), applied by the
 * dispatcher (rpc/forkPolicy.ts). `param` is the index of the parameter that places
 * the call.
 *
 * - `local`: the devnet's own state only: the pool, the controls, constants, the
 *   dev keys. The remote is never asked.
 * - `state`: a read of state at a block (`param` parses to a height, or `'pending'`).
 *   Below the fork block the remote answers the same call at that height, and the
 *   answer is kept. With `from`, the remote is asked the standard reads `from.methods`
 *   names instead (each kept) and `from.answer` builds the answer out of them: for a
 *   method a remote may not serve (the real node serves none of Anvil's and reth's
 *   extensions), as Anvil composes eth_getAccountInfo below its fork block.
 * - `simulation`: a call run on state at a block (`param` parses to a height or
 *   `'pending'`). Below the fork block the remote runs it; the answer is not kept.
 * - `block`: a lookup of a block by number (`param` parses to a height, or
 *   `undefined` when the chain has none) or by hash (`param` parses to the hash's
 *   bytes). A block at or below the fork block is the remote's; `check` names the
 *   field of the answer that must place it there (`header`: the block's header,
 *   fetched in the same batch, for an answer that carries no number). With `byHash`
 *   (by number only), the remote is asked that method with the block's hash (read
 *   from its eth_getBlockByNumber answer) instead of the method itself, checked as
 *   `header` is: the real node takes only JSON numbers for
 *   eth_getBlockTransactionCountByNumber and eth_getUncleCountByBlockNumber
 *   (reference §6.2), which every remote takes by hash.
 *   `numberOrHash`: `param` parses to a height (or `undefined`) or to a hash's
 *   bytes (go-ethereum's BlockNumberOrHash), placed as the one or the other.
 *   `keep: false` (with `check` `header` or `none`, for block traces): the remote is
 *   asked each time and its answer not kept.
 * - `transaction`: a lookup of a transaction by hash (`param` parses to its bytes).
 *   One the devnet does not hold, mined or pending, is the remote's when the remote
 *   mined it at or below the fork block: `check` `blockNumber` reads that from the
 *   answer, `receipt` from the remote's receipt. `keep: false` for traces.
 * - `logs`: a query over a range of blocks; the log query joins the remote's logs up
 *   to the fork block with the fork's own (rpc/logQuery.ts).
 */
export type ForkPolicy =
  | { readonly kind: 'local' }
  | { readonly kind: 'state'; readonly param: number; readonly from?: RemoteComposition }
  | { readonly kind: 'simulation'; readonly param: number }
  | {
      readonly kind: 'block'
      readonly by: 'number' | 'hash' | 'numberOrHash'
      readonly param: number
      readonly check: 'number' | 'blockNumber' | 'header' | 'none'
      readonly byHash?: RpcMethodName
      readonly keep?: boolean
    }
  | { readonly kind: 'transaction'; readonly param: number; readonly check: 'blockNumber' | 'receipt'; readonly keep?: boolean }
  | { readonly kind: 'logs' }

/** One read of the remote a {@link RemoteComposition} asks. */
export interface RemoteRead {
  readonly method: RpcMethodName
  readonly params: readonly unknown[]
}

/**
 * A state read answered below a fork's block out of other reads of the remote
 * ({@link ForkPolicy} `state`'s `from`). `answer` gets `ask`, which returns the remote's
 * (kept) answers to calls, in order, fetched in one batch (it throws ForkMiss until
 * they are), and the params as the remote would be asked them (0x-hex, the block as a
 * quantity).
 */
export interface RemoteComposition {
  /** The remote methods `answer` asks, the first the one it always asks. */
  readonly methods: readonly [RpcMethodName, ...RpcMethodName[]]
  readonly answer: (ask: (calls: readonly RemoteRead[]) => readonly unknown[], params: readonly unknown[]) => unknown
}

/** What a handler gets beside its params. */
export interface CallInfo {
  /** What the calls of one batch share (the trace budget); absent outside a batch. */
  readonly scope: RpcCallScope | undefined
}

/** A method's handler: its parsed params in, the schema's result out. */
export type RpcHandler<M extends RpcMethodName, S extends readonly ParamSpec<never, unknown>[]> = (ctx: RpcContext, params: ParsedParams<S>, call: CallInfo) => RpcResult<M> | Promise<RpcResult<M>>

/** A declared method, as the table holds it. */
export interface RpcMethodDeclaration<M extends RpcMethodName = RpcMethodName> {
  readonly name: M
  readonly params: readonly ParamSpec<never, unknown>[]
  /** How many params a call must give: those before the last required one's end (the dispatcher checks it). */
  readonly required: number
  readonly fork: ForkPolicy
  readonly handler: (ctx: RpcContext, params: unknown[], call: CallInfo) => unknown
  /** An alias that answers in its own way ({@link anvilAlias}): the handler of the method it runs, for the docs' table. */
  readonly runs?: (ctx: RpcContext, params: unknown[], call: CallInfo) => unknown
}

/**
 * Declares method `name`. `params` lists one {@link ParamSpec} per position of the
 * schema's params (none for a method without); `handler` gets them parsed. A spec
 * whose wire type or count disagrees with {@link DualnetRpcSchema}, or a handler whose
 * result does, is a compile error.
 *
 * @example
 * export const eth_getBalance = defineMethod({
 *   name: 'eth_getBalance',
 *   params: [address('address'), stateBlock('block')],
 *   fork: { kind: 'state', param: 1 },
 *   handler: (ctx, [a, height]) => toQuantity(ctx.chain.account(a, height).gas),
 * })
 */
export function defineMethod<M extends RpcMethodName, const S extends readonly ParamSpec<never, unknown>[] & ParamSpecsFor<RpcParameters<M>>>(declaration: {
  readonly name: M
  readonly params: S
  readonly fork: ForkPolicy
  readonly handler: RpcHandler<M, S>
}): RpcMethodDeclaration<M> {
  let required = declaration.params.length
  while (required > 0 && declaration.params[required - 1]!.optional) required--
  return Object.freeze({ ...declaration, required }) as unknown as RpcMethodDeclaration<M>
}

/** `declaration` served under another name of the schema (an alias such as `anvil_setBlockGasLimit` for `evm_setBlockGasLimit`), whose params and result must be the same. */
export function alias<A extends RpcMethodName, M extends RpcMethodName>(
  name: A,
  declaration: RpcMethodDeclaration<M> & (RpcParameters<A> extends RpcParameters<M> ? (RpcResult<M> extends RpcResult<A> ? unknown : never) : never),
): RpcMethodDeclaration<A> {
  return Object.freeze({ ...declaration, name }) as unknown as RpcMethodDeclaration<A>
}

/**
 * `declaration` served under Anvil's name, answering `null` where the method it runs
 * answers `true`: Anvil's setters return nothing (foundry crates/anvil/src/eth/api.rs,
 * `Result<()>`), Hardhat's return true. Same params, same work, Anvil's answer.
 */
export function anvilAlias<A extends RpcMethodName, M extends RpcMethodName>(
  name: A,
  declaration: RpcMethodDeclaration<M> & (RpcParameters<A> extends RpcParameters<M> ? (RpcResult<A> extends null ? (RpcResult<M> extends true ? unknown : never) : never) : never),
): RpcMethodDeclaration<A> {
  const run = declaration.handler
  const handler = async (...args: Parameters<typeof run>): Promise<null> => {
    await run(...args)
    return null
  }
  return Object.freeze({ ...declaration, name, handler, runs: run }) as unknown as RpcMethodDeclaration<A>
}
