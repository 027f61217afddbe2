/**
 * Scripts for token calls, byte-for-byte as ontology-ts-sdk builds them
 * (reference §2.5 method layouts; SDK `OntAssetTxBuilder`), for tests and dev
 * tooling. `decodeTokenCall(decodeNativeInvoke(buildTokenCall(call)))` gives `call`
 * back. No validation: negative or oversized amounts are built as asked, so tests
 * can build what the decoder must refuse.
 */
import { buildNativeInvoke } from './invokeBuilder.ts'
import type { NeoValue } from './neoValue.ts'
import { nativeMethodName, tokenContract, type TokenCall } from './tokenCall.ts'

const bytes = (value: Uint8Array): NeoValue => ({ type: 'bytes', value })
const int = (value: bigint): NeoValue => ({ type: 'int', value })
const struct = (...items: NeoValue[]): NeoValue => ({ type: 'struct', items })

/**
 * The argument value the SDK pushes for `call`:
 * - transfer(V2): Array[Struct(from, to, amount)…] (`makeTransferTx`, `makeTransferToMany`, `makeTransferStateTx`);
 * - approve(V2): Struct(from, to, amount);
 * - transferFrom(V2): Struct(sender, from, to, amount) (`makeWithdrawOngTx`: sender = claimer, from = 0x…01);
 * - balanceOf(V2): the address bytes (`makeQueryBalanceTx`);
 * - allowance(V2): Struct(from, to) (`makeQueryAllowanceTx`);
 * - name, symbol, decimals(V2), totalSupply(V2): an empty byte array (the node ignores it).
 */
export function tokenCallArgs(call: TokenCall): NeoValue {
  switch (call.method) {
    case 'transfer':
      return { type: 'array', items: call.states.map((s) => struct(bytes(s.from), bytes(s.to), int(s.amount))) }
    case 'approve':
      return struct(bytes(call.from), bytes(call.to), int(call.amount))
    case 'transferFrom':
      return struct(bytes(call.sender), bytes(call.from), bytes(call.to), int(call.amount))
    case 'balanceOf':
      return bytes(call.address)
    case 'allowance':
      return struct(bytes(call.from), bytes(call.to))
    default:
      return bytes(new Uint8Array(0))
  }
}

/**
 * The invoke script of `call`: its arguments, the method, the token contract,
 * version 0, SYSCALL "Ontology.Native.Invoke". Amounts are pushed as the SDK pushes
 * them: 0 → `00`, 1..15 → `51`..`5F`, otherwise 8-byte-padded little-endian bytes.
 */
export function buildTokenCall(call: TokenCall): Uint8Array {
  return buildNativeInvoke(tokenContract(call.token), nativeMethodName(call), tokenCallArgs(call))
}
