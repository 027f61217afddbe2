/**
 * The built-in main- and gas-token contracts (reference §2.6, §4.1, §1.4.6): token
 * calls executed against balances and allowances held in v2 units (main 1e-9, gas
 * 1e-18). v1 methods take and return v1 units (main whole tokens, gas 1e-9), which
 * are v2 / 1e9 for both tokens. Authorisation is CheckWitness(from): the address must
 * have signed the transaction.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { GAS_TOKEN_ADDRESS, GAS_TOTAL_SUPPLY, MAIN_TOKEN_ADDRESS, MAIN_TOTAL_SUPPLY, V2_PER_V1 } from '../core/constants.ts'
import { bytesEqual } from '../util/hex.ts'
import { toBase58 } from './address.ts'
import { neoBytes } from './invokeScript.ts'
import type { Token, TokenCall } from './tokenCall.ts'

/** One native notification: the emitting contract and its States list (strings and integers). */
export interface NativeNotify {
  /** 20 raw bytes of the native contract. */
  readonly contract: Uint8Array
  readonly states: readonly (string | bigint)[]
}

/** Balances and allowances as a token call sees them; amounts in v2 units. */
export interface TokenLedger {
  balance(token: Token, address: Uint8Array): bigint
  setBalance(token: Token, address: Uint8Array, amount: bigint): void
  allowance(token: Token, owner: Uint8Array, spender: Uint8Array): bigint
  setAllowance(token: Token, owner: Uint8Array, spender: Uint8Array, amount: bigint): void
  /** Called before a main-token balance changes with its balance until then (unbound-gas grant, §4.2). */
  beforeMainChange?(address: Uint8Array, balance: bigint): void
}

/** A token call failed; the transaction fails with State 0 (its writes and notifies are dropped). */
export class NativeExecutionError extends DualnetError {
  override name = 'NativeExecutionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_NATIVE_EXECUTION'
}

/** What a successful call returns: the NeoVM result bytes and its notifications. */
export interface TokenCallResult {
  result: Uint8Array
  notify: NativeNotify[]
}

const TRUE = Uint8Array.of(1)
const FALSE = Uint8Array.of(0)
const contractOf = (token: Token) => (token === 'main' ? MAIN_TOKEN_ADDRESS : GAS_TOKEN_ADDRESS)

/** The transfer notify (§1.4.6): ["transfer", from, to, v1 amount] plus the sub-v1 fraction when there is one. */
export function transferNotify(token: Token, from: Uint8Array, to: Uint8Array, amountV2: bigint): NativeNotify {
  const states: (string | bigint)[] = ['transfer', toBase58(from), toBase58(to), amountV2 / V2_PER_V1]
  if (amountV2 % V2_PER_V1 !== 0n) states.push(amountV2 % V2_PER_V1)
  return { contract: contractOf(token), states }
}

/** Moves `amount` v2 units of `token`; throws when the balance is short. */
export function moveTokens(ledger: TokenLedger, token: Token, from: Uint8Array, to: Uint8Array, amount: bigint): void {
  const balance = ledger.balance(token, from)
  if (balance < amount) throw new NativeExecutionError(`[Transfer] balance insufficient: ${toBase58(from)} has ${balance}, needs ${amount} (v2 units)`)
  if (token === 'main') {
    ledger.beforeMainChange?.(from, balance)
    ledger.beforeMainChange?.(to, ledger.balance(token, to))
  }
  ledger.setBalance(token, from, balance - amount)
  ledger.setBalance(token, to, ledger.balance(token, to) + amount)
}

/**
 * Executes `call` with `signers` as the witnesses. Throws {@link NativeExecutionError}
 * when it fails (authorisation, balance, allowance).
 */
export function executeTokenCall(call: TokenCall, signers: readonly Uint8Array[], ledger: TokenLedger): TokenCallResult {
  const scale = (amount: bigint) => (call.v2 ? amount : amount * V2_PER_V1)
  const witness = (address: Uint8Array, method: string) => {
    if (!signers.some((s) => bytesEqual(s, address))) {
      throw new NativeExecutionError(`[${method}] authentication failed: ${toBase58(address)} did not sign the transaction`)
    }
  }
  const { token } = call
  switch (call.method) {
    case 'transfer': {
      const notify: NativeNotify[] = []
      for (const state of call.states) {
        // A zero-value state is skipped (§2.6).
        if (state.amount === 0n) continue
        witness(state.from, 'Transfer')
        moveTokens(ledger, token, state.from, state.to, scale(state.amount))
        notify.push(transferNotify(token, state.from, state.to, scale(state.amount)))
      }
      return { result: TRUE, notify }
    }
    case 'approve':
      witness(call.from, 'Approve')
      ledger.setAllowance(token, call.from, call.to, scale(call.amount))
      return { result: TRUE, notify: [] }
    case 'transferFrom': {
      witness(call.sender, 'TransferFrom')
      // A zero-value transferFrom returns false without error (§2.6).
      if (call.amount === 0n) return { result: FALSE, notify: [] }
      const amount = scale(call.amount)
      const allowed = ledger.allowance(token, call.from, call.sender)
      if (allowed < amount) throw new NativeExecutionError(`[TransferFrom] allowance insufficient: ${allowed} < ${amount} (v2 units)`)
      ledger.setAllowance(token, call.from, call.sender, allowed - amount)
      moveTokens(ledger, token, call.from, call.to, amount)
      return { result: TRUE, notify: [transferNotify(token, call.from, call.to, amount)] }
    }
    case 'balanceOf': {
      const balance = ledger.balance(token, call.address)
      return { result: neoBytes(call.v2 ? balance : balance / V2_PER_V1), notify: [] }
    }
    case 'allowance': {
      const allowed = ledger.allowance(token, call.from, call.to)
      return { result: neoBytes(call.v2 ? allowed : allowed / V2_PER_V1), notify: [] }
    }
    case 'name':
      return { result: new TextEncoder().encode(token === 'main' ? 'ONT Token' : 'ONG Token'), notify: [] }
    case 'symbol':
      return { result: new TextEncoder().encode(token === 'main' ? 'ONT' : 'ONG'), notify: [] }
    case 'decimals':
      return { result: neoBytes(BigInt(token === 'main' ? (call.v2 ? 9 : 0) : call.v2 ? 18 : 9)), notify: [] }
    case 'totalSupply': {
      const supply = token === 'main' ? MAIN_TOTAL_SUPPLY : GAS_TOTAL_SUPPLY
      return { result: neoBytes(call.v2 ? supply : supply / V2_PER_V1), notify: [] }
    }
  }
}
