/**
 * What the artifacts say of a transaction's contracts, calls, logs and reverts, for the
 * page (the `--artifacts` option): each address's contract (`/explorer/api/contract`),
 * else for an item of a contract the artifacts do not name, the item of any artifact
 * with that selector (`/explorer/api/signature`); ERC-20's events and Solidity's
 * built-in errors are known without artifacts. Each answer is asked once per instance: the page makes
 * one per transaction it shows.
 */
import type { ExplorerAbiItem, ExplorerContract, SignatureMatch } from '../api/contractTypes.ts'
import { type Decoded, decodeBuiltinError, decodeCall, decodeCustomError, decodeLog } from './abi.ts'

/** Where a decoding's ABI item came from: the address's own contract, another artifact with the selector, the ERC-20 standard, or Solidity's built-in errors. */
export type DecodedVia = 'contract' | 'selector' | 'standard' | 'builtin'

/** A decoding, and whose item decoded it (`from`: the `source:Name` of the contract, for `contract` and `selector`). */
export interface NamedDecoding extends Decoded {
  readonly via: DecodedVia
  readonly from?: string
  /** The ABI item that decoded it (none for the built-in errors): a function's outputs decode its frame's return data. */
  readonly item?: ExplorerAbiItem
}

/** How the answers are read: the explorer API in the page, the server's artifacts in tests. */
export interface ArtifactLookup {
  contract(address: string): Promise<ExplorerContract | null>
  signatures(selector: string): Promise<readonly SignatureMatch[]>
}

/** An ERC-20 event (EIP-20): two indexed addresses and a value. */
function erc20Event(name: string, from: string, to: string, selector: string): ExplorerAbiItem {
  const inputs = [
    { name: from, type: 'address', indexed: true },
    { name: to, type: 'address', indexed: true },
    { name: 'value', type: 'uint256' },
  ]
  return { type: 'event', name, signature: `${name}(address,address,uint256)`, selector, inputs }
}

/** ERC-20's events, decoded without artifacts. */
const STANDARD_EVENTS: readonly ExplorerAbiItem[] = [
  erc20Event('Transfer', 'from', 'to', '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'),
  erc20Event('Approval', 'owner', 'spender', '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'),
]

/** The names and decodings of one transaction's contracts, each answer asked once. */
export class ContractNames {
  readonly #lookup: ArtifactLookup
  readonly #contracts = new Map<string, Promise<ExplorerContract | null>>()
  readonly #signatures = new Map<string, Promise<readonly SignatureMatch[]>>()

  constructor(lookup: ArtifactLookup) {
    this.#lookup = lookup
  }

  /** The contract at `address` (0x-hex, any case), or null; a failed read counts as none. */
  contract(address: string | null | undefined): Promise<ExplorerContract | null> {
    if (address === null || address === undefined) return Promise.resolve(null)
    const key = address.toLowerCase()
    let answer = this.#contracts.get(key)
    if (answer === undefined) this.#contracts.set(key, (answer = this.#lookup.contract(key).catch(() => null)))
    return answer
  }

  #bySelector(selector: string): Promise<readonly SignatureMatch[]> {
    const key = selector.toLowerCase()
    let answer = this.#signatures.get(key)
    if (answer === undefined) this.#signatures.set(key, (answer = this.#lookup.signatures(key).catch(() => [])))
    return answer
  }

  /** The first decoding of the own contract's items of `type`, then (with `index`) any artifact's with `selector`. */
  async #decode(
    address: string | null | undefined,
    selector: string,
    type: ExplorerAbiItem['type'],
    decode: (item: ExplorerAbiItem) => Decoded | undefined,
    index = true,
  ): Promise<NamedDecoding | undefined> {
    const own = await this.contract(address)
    for (const item of own?.abi ?? []) {
      if (item.type !== type || item.selector !== selector) continue
      const decoded = decode(item)
      if (decoded !== undefined) return { ...decoded, via: 'contract', from: own!.name, item }
    }
    if (!index || !/^0x(?:[0-9a-f]{8}|[0-9a-f]{64})$/.test(selector)) return undefined
    for (const { contract, item } of await this.#bySelector(selector)) {
      if (item.type !== type) continue
      const decoded = decode(item)
      if (decoded !== undefined) return { ...decoded, via: 'selector', from: contract, item }
    }
    return undefined
  }

  /** A call of `to` with `input` (0x-hex) as its function and arguments; undefined without 4 bytes or a match. */
  call(to: string | null | undefined, input: string | undefined): Promise<NamedDecoding | undefined> {
    if (input === undefined || input.length < 10) return Promise.resolve(undefined)
    return this.#decode(to, input.slice(0, 10).toLowerCase(), 'function', (item) => decodeCall(item, input))
  }

  /**
   * A log of `address` as its event: the emitter's own, else ERC-20's Transfer or
   * Approval, else any artifact's with its topic. ERC-20's come before the index: the
   * chain's token contracts (their value-transfer logs) and others the artifacts do not
   * name emit them, and the index would credit them to whichever artifact declares one.
   */
  async log(address: string, topics: readonly string[], data: string): Promise<NamedDecoding | undefined> {
    const topic = topics[0]?.toLowerCase()
    if (topic === undefined) return undefined
    const decode = (item: ExplorerAbiItem) => decodeLog(item, topics, data)
    const own = await this.#decode(address, topic, 'event', decode, false)
    if (own !== undefined) return own
    for (const item of STANDARD_EVENTS) {
      const decoded = decode(item)
      if (decoded !== undefined) return { ...decoded, via: 'standard', item }
    }
    return this.#decode(address, topic, 'event', decode)
  }

  /** Revert data of a frame of `address`: its contract's custom error, any artifact's, else Error(string) or Panic(uint256). */
  async revert(address: string | null | undefined, data: string | undefined): Promise<NamedDecoding | undefined> {
    if (data === undefined || data.length < 10) return undefined
    const builtin = decodeBuiltinError(data)
    if (builtin !== undefined) return { ...builtin, via: 'builtin' }
    return this.#decode(address, data.slice(0, 10).toLowerCase(), 'error', (item) => decodeCustomError(item, data))
  }
}
