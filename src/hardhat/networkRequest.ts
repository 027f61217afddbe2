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
 *    One client sends less than the network's gas on purpose: @nomiclabs/hardhat-ethers
 *    2.x (the ethers 5 line) writes `gas - 1,000,000` into every function of a
 *    contract's ABI on a network whose `gas` is a number ("HOTFIX" in its
 *    internal/helpers.js, addGasToAbiMethodsIfNecessary: ethers 5 adds its own
 *    intrinsic-gas figure to an ABI's `gas`, which could pass a block gas limit), and
 *    ethers 5 sends a contract call with that plus its intrinsic figure
 *    (@ethersproject/contracts populateTransaction). On Hardhat's network that leaves
 *    29 of 30 million; on this network 5 of 6 million, and a call that needs between
 *    the two ran out of gas here and not over HTTP, where the same client estimates.
 *    A send whose `gas` is exactly that figure gets the network's gas instead
 *    ({@link hotfixGas}); a `gas` the caller chose otherwise is kept.
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
 * whose object has no `gas`, or hardhat-ethers 2.x's {@link hotfixGas}, gets
 * `gas: <quantity>`. Every other request, and every
 * request under `gas: 'auto'`, is returned as it is. The caller's params are not
 * changed: the filled object is a copy.
 */
export function withNetworkGas<P>(method: string, params: P, gas: number | 'auto'): P {
  if (gas === 'auto' || !UNSIGNED_SENDS.has(method) || !Array.isArray(params)) return params
  const [tx, ...rest] = params as unknown[]
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) return params
  const given = (tx as { gas?: unknown }).gas
  if (given !== undefined && !isHotfixGas(given, (tx as { data?: unknown; input?: unknown }).data ?? (tx as { input?: unknown }).input, gas)) return params
  return [{ ...tx, gas: `0x${gas.toString(16)}` }, ...rest] as P
}

/**
 * The gas limit ethers 5 sends a contract call with under @nomiclabs/hardhat-ethers 2.x
 * on a network whose `gas` is `networkGas` (see the module's comment): the ABI's `gas`,
 * `networkGas - 1,000,000` (hardhat-ethers' internal/helpers.js), plus ethers 5's
 * intrinsic figure for `data` (@ethersproject/contracts populateTransaction: 21,000,
 * and per byte 4, plus 64 for a non-zero byte: the Frontier calldata price). Bytes,
 * not hex: `data` is the call's calldata.
 */
export function hotfixGas(networkGas: number, data: Uint8Array): bigint {
  let intrinsic = 21_000n
  for (const byte of data) intrinsic += byte === 0 ? 4n : 68n
  return BigInt(networkGas) - 1_000_000n + intrinsic
}

/** Whether a send's `gas` (a quantity) is exactly {@link hotfixGas} for its `data` (hex): a contract call of ethers 5 under hardhat-ethers 2.x. */
function isHotfixGas(given: unknown, data: unknown, networkGas: number): boolean {
  if (typeof given !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(given)) return false
  if (typeof data !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(data)) return false
  return BigInt(given) === hotfixGas(networkGas, fromHex(data))
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
