import { defineMethod } from '../declare.ts'
import { data, param } from '../paramSpecs.ts'
import { RpcError, invalidArgument } from '../errors.ts'
import { parseAddress, parseFixedData, parseQuantity } from '../params.ts'
import type { RpcContext } from '../context.ts'
import type { RpcTransactionConditional } from '../../core/rpcObjects.ts'
import { storageWord, toHex, toHexRaw } from '../../util/hex.ts'
import { describeValue } from '../../errors/describe.ts'
import { EMPTY_TRIE_ROOT } from '../../core/constants.ts'

/** op-geth's code for a transaction whose conditional does not hold (params.TransactionConditionalRejectedErrCode). */
export const CONDITIONAL_REJECTED = -32003

/** A parsed conditional: bounds on the latest block, and per address either its storage root or slots and their values. */
interface Conditional {
  blockNumberMin?: bigint
  blockNumberMax?: bigint
  timestampMin?: bigint
  timestampMax?: bigint
  knownAccounts: { address: Uint8Array; root?: string; slots?: [slot: Uint8Array, value: Uint8Array][] }[]
}

const BOUNDS = ['blockNumberMin', 'blockNumberMax', 'timestampMin', 'timestampMax'] as const

function parseConditional(value: unknown, index: number): Conditional {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, 'the conditional: an object (knownAccounts, blockNumberMin/Max, timestampMin/Max)')
  const fields = value as Record<string, unknown>
  const out: Conditional = { knownAccounts: [] }
  for (const key of Object.keys(fields)) {
    if (key !== 'knownAccounts' && !(BOUNDS as readonly string[]).includes(key)) throw invalidArgument(index, `unknown field ${describeValue(key)} in the conditional`)
  }
  for (const key of BOUNDS) if (fields[key] !== undefined && fields[key] !== null) out[key] = parseQuantity(fields[key], index)
  const known = fields.knownAccounts
  if (known === undefined || known === null) return out
  if (typeof known !== 'object' || Array.isArray(known)) throw invalidArgument(index, 'knownAccounts: an object mapping addresses to a storage root or to slots and values')
  for (const [key, entry] of Object.entries(known)) {
    const address = parseAddress(key, index)
    if (typeof entry === 'string') out.knownAccounts.push({ address, root: toHexRaw(parseFixedData(entry, index, 32, 'common.Hash')) })
    else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      const slots = Object.entries(entry).map(([slot, v]): [Uint8Array, Uint8Array] => [parseFixedData(slot, index, 32, 'common.Hash'), parseFixedData(v, index, 32, 'common.Hash')])
      out.knownAccounts.push({ address, slots })
    } else throw invalidArgument(index, `knownAccounts ${toHex(address)}: a storage root or an object of slots and values`)
  }
  return out
}

/** Why the conditional fails on the latest block and state, or `undefined` when it holds. */
function failure(ctx: RpcContext, c: Conditional): string | undefined {
  const chain = ctx.chain
  const number = BigInt(chain.height)
  const time = BigInt(chain.timestampAt(chain.height))
  if (c.blockNumberMin !== undefined && number < c.blockNumberMin) return `block number ${number} is below blockNumberMin ${c.blockNumberMin}`
  if (c.blockNumberMax !== undefined && number > c.blockNumberMax) return `block number ${number} is above blockNumberMax ${c.blockNumberMax}`
  if (c.timestampMin !== undefined && time < c.timestampMin) return `block timestamp ${time} is below timestampMin ${c.timestampMin}`
  if (c.timestampMax !== undefined && time > c.timestampMax) return `block timestamp ${time} is above timestampMax ${c.timestampMax}`
  for (const { address, root, slots } of c.knownAccounts) {
    if (root !== undefined) {
      const empty = chain.world.storageEntries(toHexRaw(address), chain.height).next().done === true && (chain.fork === undefined || chain.account(address).codeHash === undefined)
      if (!empty || root !== EMPTY_TRIE_ROOT.slice(2)) {
        throw invalidArgument(
          1,
          `knownAccounts ${toHex(address)}: a storage root other than the empty trie's needs the state trie, which the devnet does not compute; give the slots and their values instead`,
        )
      }
      continue
    }
    for (const [slot, expected] of slots ?? []) {
      const word = storageWord(chain.storage(address, slot))
      if (toHexRaw(word) !== toHexRaw(expected)) return `storage slot ${toHex(slot)} of ${toHex(address)} holds ${toHex(word)}, not ${toHex(expected)}`
    }
  }
  return undefined
}

/**
 * eth_sendRawTransactionConditional(raw, conditional): eth_sendRawTransaction if the
 * conditional (ERC-4337's, as op-geth and reth serve it: `blockNumberMin`/`Max`,
 * `timestampMin`/`Max`, and `knownAccounts`, each address's storage slots and their
 * values) holds on the latest block and state when the request arrives; otherwise the
 * transaction is refused with op-geth's code -32003 and the reason, and nothing is
 * submitted. A storage root can only be vouched for when it is the empty trie's (the
 * devnet keeps no state trie); any other root is refused (-32602), never ignored.
 * Anvil submits without checking.
 */
export const eth_sendRawTransactionConditional = defineMethod({
  name: 'eth_sendRawTransactionConditional',
  params: [data('raw'), param<RpcTransactionConditional, Conditional>('conditional', parseConditional)],
  fork: { kind: 'local' },
  handler: async (ctx, [raw, conditional]) => {
    const reason = failure(ctx, conditional)
    if (reason !== undefined) throw new RpcError(CONDITIONAL_REJECTED, `failed conditional: ${reason}`)
    return toHex(await ctx.chain.submitRawTransaction(raw))
  },
})
