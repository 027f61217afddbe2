/**
 * A fork's native state over the remote's REST interface (`fork.restUrl`): main-token
 * balances (balancev2), allowances (allowancev2), native contract storage (storage),
 * contract states (contract, raw) and unbound-gas offsets (the main-token contract's
 * storage), each fetched when first read
 * (fork/source.ts keeps them). Addresses go as Base58, which every
 * route takes (balancev2 takes nothing else, reference §1.2).
 */
import { MAIN_TOKEN_ADDRESS, V2_PER_V1 } from '../core/constants.ts'
import { decodeUnboundOffset, unboundOffsetKey } from '../native/unboundGas.ts'
import { toHexRaw } from '../util/hex.ts'
import { toBase58 } from '../native/address.ts'
import type { NativeFetcher } from './source.ts'
import { ForkRemoteError, type RemoteNode } from './remote.ts'
import { MAIN_BALANCE, refuseAnswer, remoteDecimal, V1_AMOUNT, V2_AMOUNT, type Answered } from './remoteValues.ts'

/** The REST fetcher of `remote` (which has a `restUrl`). Each read rejects with ForkRemoteError naming the route when the remote fails or answers an error. */
export function restNativeFetcher(remote: RemoteNode): NativeFetcher {
  const b58 = (address: string) => toBase58(Uint8Array.from(Buffer.from(address, 'hex')))
  /** Where `path`'s answer came from, for the checks of fork/remoteValues.ts. */
  const from = (path: string): Answered => ({ url: remote.restUrl!, call: { method: `GET ${path}`, params: [] } })
  /** The Result of `path`; an error answer is a failure of the fork's read. */
  const result = async (path: string): Promise<{ action: string; result: unknown }> => {
    const answer = await remote.rest(path)
    if (answer.Error !== 0) throw new ForkRemoteError(remote.restUrl!, from(path).call, `the remote answered error ${answer.Error}`)
    return { action: answer.Action, result: answer.Result }
  }
  return {
    async main(address) {
      const path = `/api/v1/balancev2/${b58(address)}`
      const { result: balance } = await result(path)
      // The spec's key is `main`; the real node's is `ont`.
      const { main, ont } = (balance ?? {}) as { main?: unknown; ont?: unknown }
      return remoteDecimal(main ?? ont, from(path), MAIN_BALANCE, main === undefined ? 'Result.ont' : 'Result.main')
    },
    async allowance(token, owner, spender) {
      const path = `/api/v1/allowancev2/${token === 'main' ? 'ont' : 'ong'}/${b58(owner)}/${b58(spender)}`
      const { action, result: amount } = await result(path)
      // The real node serves allowancev2 by its v1 handler (Action getallowance, v1 units; reference §1.1).
      return action === 'getallowancev2' ? remoteDecimal(amount, from(path), V2_AMOUNT, 'Result') : remoteDecimal(amount, from(path), V1_AMOUNT, 'Result') * V2_PER_V1
    },
    async unboundOffset(address) {
      const key = unboundOffsetKey(address)
      const path = `/api/v1/storage/${b58(toHexRaw(MAIN_TOKEN_ADDRESS))}/${key}`
      const { result: value } = await result(path)
      try {
        return decodeUnboundOffset(typeof value === 'string' ? value : '?')
      } catch {
        refuseAnswer(from(path), 'Result', value, 'is not an offset (4 bytes of hex, or "")')
      }
    },
    async storage(address, key) {
      const path = `/api/v1/storage/${b58(address)}/${key}`
      const { result: value } = await result(path)
      if (typeof value !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(value)) refuseAnswer(from(path), 'Result', value, 'is not hex')
      return value.toLowerCase()
    },
    async contract(address) {
      const answer = await remote.rest(`/api/v1/contract/${b58(address)}?raw=1`)
      // An error answer is the remote's "no such contract" (45001 on the node, §1.4.5).
      if (answer.Error !== 0 || typeof answer.Result !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(answer.Result)) return ''
      return answer.Result.toLowerCase()
    },
  }
}
