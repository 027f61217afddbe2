import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { expectParams, parseQuantity } from '../params.ts'
import { parseCallFields } from '../callRequest.ts'
import { devKey } from '../devSigner.ts'
import { completeTransaction } from '../transactionRequest.ts'
import { EVM_TX_GAS_CAP, GWEI, MIN_GAS_LIMIT } from '../../core/constants.ts'
import { LEGACY_ONLY_HINT } from '../../core/errors.ts'
import { GethPhrase } from '../../chain/poolAcceptance.ts'
import { signLegacyTransaction } from '../../evm/legacyTransaction.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_signTransaction(tx): the dev account's signed legacy EIP-155 transaction (raw
 * RLP, 0x-hex, as Anvil answers), not submitted. Missing fields are filled as
 * eth_sendTransaction fills them. The chain's rules apply as eth_sendRawTransaction
 * would apply them, with the node's texts (reference §2.4, §6.5): gas price a whole
 * number of gwei, gas limit in [20,000, 6,000,000], legacy only (a `type` other than
 * 0x0 or EIP-1559 fee fields are refused with the legacy option per client), and a
 * `chainId` field, if given, equal to the devnet's. Errors: -32000 naming the address
 * when it is not a dev account; -32000 for a rule; -32602 for malformed fields.
 */
export const eth_signTransaction: RpcMethod = async (ctx, params) => {
  const [request] = expectParams(params, 1)
  const f = parseCallFields(request, 0)
  if (f.from === undefined) throw invalidArgument(0, 'missing "from"')
  const o = request as Record<string, unknown>
  if (o.type !== undefined && o.type !== null && parseQuantity(o.type, 0) !== 0n) {
    throw new RpcError(RpcErrorCode.ServerError, `transaction type ${String(o.type)} not supported; ${LEGACY_ONLY_HINT}`)
  }
  if (o.chainId !== undefined && o.chainId !== null) {
    const chainId = parseQuantity(o.chainId, 0)
    if (chainId !== BigInt(ctx.chainId)) {
      throw new RpcError(RpcErrorCode.ServerError, `invalid chain id, want: ${ctx.chainId}, got: ${chainId}`)
    }
  }
  const key = devKey(ctx, f.from)
  const fields = await completeTransaction(ctx, f, f.from)
  if (fields.gasPrice % GWEI !== 0n) {
    throw new RpcError(RpcErrorCode.ServerError, `gasprice ${fields.gasPrice} is not multiple of GWei`)
  }
  if (fields.gasLimit < MIN_GAS_LIMIT) {
    throw new RpcError(RpcErrorCode.ServerError, `Please input gasLimit >= ${MIN_GAS_LIMIT} (${GethPhrase.IntrinsicGas})`)
  }
  if (fields.gasLimit > EVM_TX_GAS_CAP) {
    throw new RpcError(RpcErrorCode.ServerError, `EIP155 tx gaslimit exceed  (${GethPhrase.GasLimit})`)
  }
  return toHex(signLegacyTransaction(fields, BigInt(ctx.chainId), key).rlp)
}
