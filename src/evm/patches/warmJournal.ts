/**
 * The warm-address and warm-slot bookkeeping of EIP-2929 (Berlin and later) with flat hex keys.
 *
 * @ethereumjs/evm 10.1.3's `Journal` keys warm addresses and slots by their hex, made
 * on every access with @ethereumjs/util's `bytesToUnprefixedHex` (@noble/hashes'
 * `bytesToHex`: a string built a character pair at a time, which every Map or Set
 * lookup then flattens and hashes): `isWarmedStorage` alone was 1.5% of an
 * estimate-and-send loop's samples on Prague. These are ethereumjs' four methods with
 * the hex made by Node's Buffer codec (the same lower-case unprefixed string, flat),
 * installed on one EVM's journal (not the prototype: EVMs built with the patches off
 * keep ethereumjs' own).
 */
import { toHexRaw } from '../../util/hex.ts'

/** The journal state the four methods read and write, as @ethereumjs/evm 10.1.3 keeps it. */
interface JournalLike {
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  journalDiff: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
  accessList?: Map<string, Set<string>>
  isWarmedAddress(address: Uint8Array): boolean
  addWarmedAddress(address: Uint8Array): void
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void
}

const METHODS = ['isWarmedAddress', 'addWarmedAddress', 'isWarmedStorage', 'addWarmedStorage'] as const

const fast: Pick<JournalLike, (typeof METHODS)[number]> = {
  isWarmedAddress(this: JournalLike, address) {
    const addressHex = toHexRaw(address)
    return this.journal.has(addressHex) || this.alwaysWarmJournal.has(addressHex)
  },
  addWarmedAddress(this: JournalLike, addressArr) {
    const address = toHexRaw(addressArr)
    if (!this.journal.has(address)) {
      this.journal.set(address, new Set())
      this.journalDiff[this.journalDiff.length - 1]![1][0].add(address)
    }
    if (this.accessList !== undefined && !this.accessList.has(address)) this.accessList.set(address, new Set())
  },
  isWarmedStorage(this: JournalLike, address, slot) {
    const addressHex = toHexRaw(address)
    const slotHex = toHexRaw(slot)
    if (this.journal.get(addressHex)?.has(slotHex) === true) return true
    return this.alwaysWarmJournal.get(addressHex)?.has(slotHex) ?? false
  },
  addWarmedStorage(this: JournalLike, address, slot) {
    const addressHex = toHexRaw(address)
    let slots = this.journal.get(addressHex)
    if (slots === undefined) {
      this.addWarmedAddress(address)
      slots = this.journal.get(addressHex)!
    }
    const slotStr = toHexRaw(slot)
    if (!slots.has(slotStr)) {
      slots.add(slotStr)
      const addressSlotMap = this.journalDiff[this.journalDiff.length - 1]![1][1]
      let slotsSet = addressSlotMap.get(addressHex)
      if (slotsSet === undefined) {
        slotsSet = new Set()
        addressSlotMap.set(addressHex, slotsSet)
      }
      slotsSet.add(slotStr)
    }
    // As ethereumjs: `addWarmedAddress` above made the address's entry.
    if (this.accessList !== undefined) this.accessList.get(addressHex)!.add(slotStr)
  },
}

/**
 * Gives `journal` (an EVM's `journal`) the four methods with flat hex keys. Returns
 * false, changing nothing, when it lacks the Maps and methods of @ethereumjs/evm
 * 10.1.3's `Journal`.
 */
export function installWarmJournal(journal: Partial<JournalLike> | undefined): boolean {
  if (journal === undefined || !(journal.journal instanceof Map) || !(journal.alwaysWarmJournal instanceof Map) || !Array.isArray(journal.journalDiff)) return false
  if (METHODS.some((name) => typeof journal[name] !== 'function')) return false
  for (const name of METHODS) Object.defineProperty(journal, name, { value: fast[name], writable: true, configurable: true })
  return true
}
