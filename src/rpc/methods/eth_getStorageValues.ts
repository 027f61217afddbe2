import { defineMethod } from '../declare.ts'
import { optional, param, stateBlock } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import { parseAddress, parseFixedData } from '../params.ts'
import { storageWord, toHex, type Hex } from '../../util/hex.ts'

/** The most slots one call may read, over all its addresses (Anvil's and go-ethereum's bound). */
export const STORAGE_VALUES_LIMIT = 1024

/** The requested slots: per address (its bytes and lowercase 0x-hex), the 32-byte slot keys, in the order given. */
interface StorageRequest {
  readonly address: Uint8Array
  readonly key: Hex
  readonly slots: readonly Uint8Array[]
}

function parseRequests(value: unknown, index: number): StorageRequest[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, 'an object mapping each address to its list of storage slots')
  const requests: StorageRequest[] = []
  let total = 0
  for (const [key, slots] of Object.entries(value)) {
    const address = parseAddress(key, index)
    if (!Array.isArray(slots)) throw invalidArgument(index, `the slots of ${toHex(address)}: a list of 32-byte keys`)
    total += slots.length
    if (total > STORAGE_VALUES_LIMIT) break
    requests.push({ address, key: toHex(address), slots: slots.map((slot: unknown) => parseFixedData(slot, index, 32, 'common.Hash')) })
  }
  if (total > STORAGE_VALUES_LIMIT) throw invalidArgument(index, `total slot count ${total} exceeds limit ${STORAGE_VALUES_LIMIT}`)
  return requests
}

/** A stored value as a 32-byte word (the remote may answer an empty slot as "0x", as the real node does). */
function word(value: Uint8Array | string): Hex {
  return typeof value === 'string' ? `0x${value.slice(2).padStart(64, '0')}` : toHex(storageWord(value))
}

/**
 * eth_getStorageValues(requests, block): many storage slots in one call, as
 * go-ethereum (internal/ethapi/api.go GetStorageValues) and Anvil answer it: for each
 * address (lowercase 0x-hex key) the value of each slot asked, in order, each a 32-byte
 * word (an unset slot is 32 zero bytes: the real node has no such method, so its "0x"
 * for an empty slot does not apply). At most {@link STORAGE_VALUES_LIMIT} slots in all,
 * else -32602. Below a fork's block, composed of the remote's eth_getStorageAt answers
 * (one batch), which every remote serves. The block defaults to the latest.
 */
export const eth_getStorageValues = defineMethod({
  name: 'eth_getStorageValues',
  params: [
    param<Record<string, string[]>, StorageRequest[]>('requests', parseRequests, (requests) => Object.fromEntries(requests.map((r) => [r.key, r.slots.map((slot) => toHex(slot))]))),
    optional(stateBlock('block'), (ctx) => ctx.chain.height),
  ],
  fork: {
    kind: 'state',
    param: 1,
    from: {
      methods: ['eth_getStorageAt'],
      answer: (ask, [requests, block]) => {
        const asked = Object.entries(requests as Record<string, string[]>)
        const calls = asked.flatMap(([address, slots]) => slots.map((slot) => ({ method: 'eth_getStorageAt' as const, params: [address, slot, block] })))
        const values = ask(calls) as string[]
        let next = 0
        return Object.fromEntries(asked.map(([address, slots]) => [address.toLowerCase(), slots.map(() => word(values[next++]!))]))
      },
    },
  },
  handler: (ctx, [requests, height]) => {
    const out: Record<Hex, Hex[]> = {}
    for (const { address, key, slots } of requests) out[key] = slots.map((slot) => word(ctx.chain.storage(address, slot, height)))
    return out
  },
})
