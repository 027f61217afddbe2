import type { RpcTransactionRequest } from '../../core/rpcObjects.ts'
import type { CallFields } from '../callRequest.ts'
import { defineMethod, type ParamSpec } from '../declare.ts'
import { param, transactionRequest } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { parseQuantity } from '../params.ts'
import { devKey } from '../devSigner.ts'
import { completeTransaction } from '../transactionRequest.ts'
import { EVM_TX_GAS_CAP, GWEI, MIN_GAS_LIMIT } from '../../core/constants.ts'
import { LEGACY_ONLY_HINT } from '../../core/errors.ts'
import { GethPhrase } from '../../chain/poolAcceptance.ts'
import { signLegacyTransaction } from '../../evm/legacyTransaction.ts'
import { toHex } from '../../util/hex.ts'

/** eth_signTransaction's request: the transaction's fields, and its `type` and `chainId` as given (QUANTITY), `undefined` when absent or null. */
interface SignRequest {
  fields: CallFields & { from: Uint8Array }
  /** The `type` field as written (the refusal quotes it) and its value. */
  type: { text: string; value: bigint } | undefined
  chainId: bigint | undefined
}

/** The `type` field: its value first, so that only a QUANTITY (a string) is quoted back. */
function typeField(value: unknown, index: number): { text: string; value: bigint } {
  return { value: parseQuantity(value, index), text: value as string }
}

/** The transaction object with `from` required (paramSpecs.ts `transactionRequest`), plus its `type` and `chainId` fields, which only signing reads. */
function signRequest(name: string): ParamSpec<RpcTransactionRequest, SignRequest> {
  const base = transactionRequest(name)
  return param(name, (value, index, ctx) => {
    const fields = base.parse(value, index, ctx)
    const o = value as Record<string, unknown>
    const present = (v: unknown) => v !== undefined && v !== null
    return {
      fields,
      type: present(o.type) ? typeField(o.type, index) : undefined,
      chainId: present(o.chainId) ? parseQuantity(o.chainId, index) : undefined,
    }
  })
}

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
export const eth_signTransaction = defineMethod({
  name: 'eth_signTransaction',
  params: [signRequest('request')],
  fork: { kind: 'local' },
  handler: async (ctx, [{ fields: f, type, chainId }]) => {
    if (type !== undefined && type.value !== 0n) {
      throw new RpcError(RpcErrorCode.ServerError, `transaction type ${type.text} not supported; ${LEGACY_ONLY_HINT}`)
    }
    if (chainId !== undefined && chainId !== BigInt(ctx.chainId)) {
      throw new RpcError(RpcErrorCode.ServerError, `invalid chain id, want: ${ctx.chainId}, got: ${chainId}`)
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
  },
})
