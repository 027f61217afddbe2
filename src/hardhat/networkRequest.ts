/**
 * How a request to the plugin's network reaches its devnet, in both Hardhat versions
 * (v2.ts's provider, v3Network.ts's onRequest hook): the two things Hardhat's own
 * network does about sending transactions that a devnet's JSON-RPC does not.
 *
 * 1. Gas. A transaction sent without `gas` gets the network's `gas` (`dualnet.gas`,
 *    default 6,000,000, the chain's per-transaction cap), as Hardhat's FixedGasProvider
 *    (Hardhat 2) and FixedGasHandler (Hardhat 3) give it on a network whose `gas` is a
 *    number, and as Hardhat's own network does with its block gas limit. So no
 *    estimate is made before a send, and two transactions sent at once cannot be
 *    estimated against a state the first one then changes. `'auto'` leaves `gas` out,
 *    and the devnet estimates it as it sends the transaction.
 * 2. Failures. A transaction that is mined as it is sent (automine) and fails makes
 *    its send fail with the revert (code 3, the revert data as `data`), the
 *    transaction staying mined: Hardhat's network does so (`throwOnTransactionFailures`,
 *    true by default), and suites written for it rely on it: the chai matchers'
 *    `revertedWith…` read the reason from the send's error. Before (1), the estimate
 *    failed instead, with the same error; with a gas limit given, only this keeps it.
 */
import type { Devnet } from '../devnet.ts'
import { decodeRevertReason } from '../evm/revertReason.ts'
import { RpcError, RpcErrorCode } from '../rpc/errors.ts'
import { fromHex } from '../util/hex.ts'

/** JSON-RPC methods that send a transaction for the node to sign, whose `gas` the plugin's network fills. */
const UNSIGNED_SENDS = new Set(['eth_sendTransaction', 'eth_sendTransactionSync'])
/** JSON-RPC methods that answer a sent transaction's hash, whose failure the plugin's network reports as Hardhat's does. */
const HASH_SENDS = new Set(['eth_sendTransaction', 'eth_sendRawTransaction'])

/**
 * The params of a request with the network's `gas` given to a transaction sent
 * without one: an `eth_sendTransaction` (or dualnet's `eth_sendTransactionSync`)
 * whose object has no `gas` gets `gas: <quantity>`. Every other request, and every
 * request under `gas: 'auto'`, is returned as it is. The caller's params are not
 * changed: the filled object is a copy.
 */
export function withNetworkGas<P>(method: string, params: P, gas: number | 'auto'): P {
  if (gas === 'auto' || !UNSIGNED_SENDS.has(method) || !Array.isArray(params)) return params
  const [tx, ...rest] = params as unknown[]
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx) || (tx as { gas?: unknown }).gas !== undefined) return params
  return [{ ...tx, gas: `0x${gas.toString(16)}` }, ...rest] as P
}

/**
 * Answers `method(params)` from `devnet` as the plugin's network does (see the
 * module's comment): `gas` filled, and a send whose transaction was mined and failed
 * rejected with an {@link RpcError} whose `data` is the revert data
 * (`ots_getTransactionError`): code 3 and `execution reverted[: <reason>]`, or, for a
 * failure without revert data (`0x`), a message naming the transaction and the EVM's
 * error (`out of gas`, …). A send left pending (automine off) answers its hash.
 */
export async function requestOnNetwork(devnet: Devnet, method: string, params: readonly unknown[] | object | undefined, gas: number | 'auto'): Promise<unknown> {
  const result = await devnet.rpcUntyped(method, withNetworkGas(method, params, gas))
  if (!HASH_SENDS.has(method) || typeof result !== 'string') return result
  const receipt = (await devnet.rpcUntyped('eth_getTransactionReceipt', [result])) as { status?: unknown } | null
  if (receipt?.status !== '0x0') return result
  const data = (await devnet.rpcUntyped('ots_getTransactionError', [result])) as string
  const error = data === '0x' ? await failureWithoutData(devnet, result) : revertError(data)
  Object.defineProperty(error, 'transactionHash', { value: result, enumerable: true })
  throw error
}

/** The error of a transaction that reverted with `data` (non-empty): the texts eth_call's revert has. */
function revertError(data: string): RpcError {
  const reason = decodeRevertReason(fromHex(data))
  return new RpcError(RpcErrorCode.ExecutionReverted, reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, { data })
}

/**
 * The error of a failed transaction without revert data, named by the EVM's error of
 * its top frame (go-ethereum's texts through the callTracer: `execution reverted`, `out
 * of gas`, `code size to deposit exceeds maximum code size`, …): code 3 for a revert,
 * -32000 for the others, `data` `0x` in both (the chai matchers' `reverted` reads it).
 * The trace runs only for such a failure; when it cannot be had, the message says so.
 */
async function failureWithoutData(devnet: Devnet, hash: string): Promise<RpcError> {
  const trace = await devnet.rpcUntyped('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }]).catch(() => undefined)
  const failure = (trace as { error?: unknown } | undefined)?.error
  const why = typeof failure === 'string' ? failure : 'mined with status 0, no revert data'
  return new RpcError(why === 'execution reverted' ? RpcErrorCode.ExecutionReverted : RpcErrorCode.ServerError, `transaction ${hash} failed: ${why}`, { data: '0x' })
}
