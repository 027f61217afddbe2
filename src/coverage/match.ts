/**
 * Which compiled contract a code that ran is: runtime code against `deployedBytecode`,
 * init code against `bytecode` (its prefix: the constructor's arguments follow), the
 * bytes compared with the immutables and library addresses masked (they differ per
 * deployment) and the compiler's CBOR metadata trailer masked (it differs between two
 * builds of the same source, and the source maps do not depend on it), as the gas
 * reporters (hardhat-gas-reporter, Foundry's `find_matching_contract`) match.
 */
import type { CompiledBytecode, CompiledContract } from './buildInfo.ts'

/** A contract's bytecode that a code matched. */
export interface CodeMatch {
  readonly contract: CompiledContract
  readonly bytecode: CompiledBytecode
}

/** Looks codes up among `contracts`; built once per set of artifacts. */
export class BytecodeMatcher {
  /** Runtime bytecodes by length (a runtime code's length equals its bytecode's). */
  readonly #runtime = new Map<number, CodeMatch[]>()
  readonly #creation: CodeMatch[] = []

  constructor(contracts: readonly CompiledContract[]) {
    for (const contract of contracts) {
      if (contract.runtime !== undefined) {
        const list = this.#runtime.get(contract.runtime.object.length) ?? []
        list.push({ contract, bytecode: contract.runtime })
        this.#runtime.set(contract.runtime.object.length, list)
      }
      if (contract.creation !== undefined) this.#creation.push({ contract, bytecode: contract.creation })
    }
  }

  /** The contract whose runtime (or, with `creation`, creation) bytecode `code` is; undefined: none of the artifacts. */
  match(code: Uint8Array, creation: boolean): CodeMatch | undefined {
    const candidates = creation ? this.#creation : (this.#runtime.get(code.length) ?? [])
    for (const candidate of candidates) if (sameCode(code, candidate.bytecode)) return candidate
    return undefined
  }
}

/** Whether `code` starts with `bytecode`'s bytes outside its masked ranges and metadata. */
function sameCode(code: Uint8Array, bytecode: CompiledBytecode): boolean {
  const object = bytecode.object
  if (code.length < object.length) return false
  const [metaStart, metaEnd] = metadataRange(object)
  const masks = bytecode.masked
  for (let i = 0; i < object.length; i++) {
    if (code[i] === object[i] || (i >= metaStart && i < metaEnd)) continue
    if (!masks.some(([start, length]) => i >= start && i < start + length)) return false
  }
  return true
}

/**
 * The byte range of solc's CBOR metadata at the end of `object` (its length is the
 * last two bytes, big-endian; the map starts with 0xa1 to 0xbf), [0, 0] when it has none.
 */
function metadataRange(object: Uint8Array): [number, number] {
  if (object.length < 2) return [0, 0]
  const length = (object[object.length - 2]! << 8) | object[object.length - 1]!
  const start = object.length - 2 - length
  if (start < 0 || length === 0 || (object[start]! & 0xe0) !== 0xa0) return [0, 0]
  return [start, object.length]
}
