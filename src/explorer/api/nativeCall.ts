/**
 * A native token call described for the page: which token, which method, what moves
 * from whom to whom, with each amount in the method's own units and in base units
 * (reference §2.5, §2.6: v1 methods count main in whole tokens and gas in 1e-9; their
 * V2 forms count main in 1e-9 and gas in 1e-18, the base units of `balancev2`).
 */
import { MAIN_TOKEN_ADDRESS } from '../../core/constants.ts'
import { decodeNativeInvoke } from '../../native/invokeScript.ts'
import { nativeMethodName, type Token, type TokenCall } from '../../native/tokenCall.ts'
import type { NativeTransaction } from '../../native/transaction.ts'
import { bytesEqual, toHexRaw } from '../../util/hex.ts'
import { bothForms } from './params.ts'
import type { DescribedAmount, DescribedCall, DescribedMove } from './types.ts'

const BASE_DECIMALS: Record<Token, number> = { main: 9, gas: 18 }

/** `amount` of `token` in a v1 or v2 method's units, with its base-unit form. */
function described(token: Token, v2: boolean, amount: bigint): DescribedAmount {
  const baseDecimals = BASE_DECIMALS[token]
  const decimals = v2 ? baseDecimals : baseDecimals - 9
  return { amount: amount.toString(), decimals, baseUnits: (amount * 10n ** BigInt(baseDecimals - decimals)).toString(), baseDecimals }
}

function move(call: TokenCall, from: Uint8Array, to: Uint8Array, amount: bigint): DescribedMove {
  return { from: bothForms(from), to: bothForms(to), ...described(call.token, call.v2, amount) }
}

/** The page's description of a decoded token call. */
export function describeTokenCall(call: TokenCall): DescribedCall {
  const head = { token: call.token, method: nativeMethodName(call) }
  switch (call.method) {
    case 'transfer':
      return { ...head, action: 'transfer', moves: call.states.map((s) => move(call, s.from, s.to, s.amount)) }
    case 'approve':
      return { ...head, action: 'approve', moves: [move(call, call.from, call.to, call.amount)] }
    case 'transferFrom': {
      const withdraw = call.token === 'gas' && bytesEqual(call.from, MAIN_TOKEN_ADDRESS)
      return { ...head, action: withdraw ? 'withdrawUnboundGas' : 'transferFrom', moves: [move(call, call.from, call.to, call.amount)], sender: bothForms(call.sender) }
    }
    default:
      return { ...head, action: 'query', moves: [] }
  }
}

/**
 * What a genesis transaction runs (reference §5.5): `deploy <name>` for a native
 * contract's deployment, `<method> on <contract hex>` for an invoke (its `init`).
 */
export function describeGenesisPayload(tx: NativeTransaction): string {
  const payload = tx.payload
  if (payload.kind === 'deploy') return `deploy ${payload.name}`
  if (payload.kind !== 'invoke') return 'an EIP-155 payload'
  try {
    const invoke = decodeNativeInvoke(payload.code)
    return `${invoke.method} on ${toHexRaw(invoke.contract)}`
  } catch {
    return 'an invoke script'
  }
}
