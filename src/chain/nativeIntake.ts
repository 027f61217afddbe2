/**
 * The intake of native transactions (reference §2): decoding, the stateless checks and
 * the signature checks, which need the curves and hashes of every key type the chain
 * knows. Loaded with the first native transaction (see Chain), so that a devnet used
 * only through JSON-RPC never loads them.
 */
import { decodeNativeInvoke, UnsupportedScriptError } from '../native/invokeScript.ts'
import { parseProgram, SignatureVerificationError, verifyNativeSignatures } from '../native/program.ts'
import { decodeTokenCall } from '../native/tokenCall.ts'
import { decodeNativeTransaction, NativeTxType, nativeTransactionHash, type NativeTransaction } from '../native/transaction.ts'
import { MIN_GAS_LIMIT } from '../core/constants.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import type { NativeChainTransaction } from './transaction.ts'

export { decodeNativeTransaction }

const MAX_U64 = 2n ** 64n - 1n

/**
 * Stateless checks and decoding of a decoded native transaction into a ledger
 * transaction: gas limits (-1), a script the devnet executes (-1 with the reason),
 * the gas overflow rule (-1), then signatures (45021). Throws {@link TransactionRejectedError}.
 */
export function prepareNativeTransaction(tx: NativeTransaction, raw: Uint8Array, minGasPrice: bigint, checkSignatures = true): NativeChainTransaction {
  if (tx.gasLimit < MIN_GAS_LIMIT || tx.gasPrice < minGasPrice) {
    throw new TransactionRejectedError(`Please input gasLimit >= ${MIN_GAS_LIMIT} and gasPrice >= ${minGasPrice}`)
  }
  if (tx.gasLimit * tx.gasPrice > MAX_U64) throw new TransactionRejectedError(`gasLimit ${tx.gasLimit} * gasPrice ${tx.gasPrice} overflow`)
  if (tx.txType !== NativeTxType.InvokeNeo || tx.payload.kind !== 'invoke') {
    const kind = tx.txType === NativeTxType.Deploy ? 'contract deployment' : 'Wasm invocation'
    throw new TransactionRejectedError(new UnsupportedScriptError(`a ${kind}`).message)
  }
  let call
  try {
    call = decodeTokenCall(decodeNativeInvoke(tx.payload.code))
  } catch (err) {
    if (err instanceof UnsupportedScriptError) throw new TransactionRejectedError(err.message, { cause: err })
    throw err
  }
  const hash = nativeTransactionHash(tx)
  // Pre-execution takes the signers from the programs without checking signatures.
  let signers: Uint8Array[] = checkSignatures ? [] : tx.sigs.flatMap((sig) => programAddress(sig.verification))
  try {
    if (checkSignatures) signers = verifyNativeSignatures(tx, hash)
  } catch (err) {
    if (err instanceof SignatureVerificationError) throw new TransactionRejectedError(err.message, { cause: err, restCode: 45021 })
    throw err
  }
  return { kind: 'native', hash, raw, tx, from: tx.payer, signers, call }
}

function programAddress(script: Uint8Array): Uint8Array[] {
  try {
    return [parseProgram(script).address]
  } catch {
    return []
  }
}
