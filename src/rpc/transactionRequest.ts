/**
 * The transaction object of eth_sendTransaction and eth_signTransaction, completed as
 * wallets complete it before signing.
 */
import { gasPriceGwei } from '../chain/gasPrice.ts'
import { GWEI } from '../core/constants.ts'
import type { LegacyTransactionFields } from '../evm/legacyTransaction.ts'
import type { CallFields } from './callRequest.ts'
import type { RpcContext } from './context.ts'

/**
 * Legacy transaction fields for `f` sent from `from`: missing ones filled as wallets
 * do: nonce from the pending count, gasPrice from eth_gasPrice (wei), gas from
 * eth_estimateGas (which throws the estimate's errors: revert, insufficient funds).
 */
export async function completeTransaction(ctx: RpcContext, f: CallFields, from: Uint8Array): Promise<LegacyTransactionFields> {
  const { chain } = ctx
  const gasPrice = f.gasPrice ?? gasPriceGwei(chain).gasPrice * GWEI
  const data = f.data ?? new Uint8Array(0)
  const value = f.value ?? 0n
  const gasLimit = f.gas ?? (await chain.estimateGas({ from, to: f.to, data, value, gasLimit: 0n, gasPrice }))
  return { nonce: f.nonce ?? chain.pendingNonce(from), gasPrice, gasLimit, to: f.to, value, data }
}
