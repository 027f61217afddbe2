/**
 * `Common.isActivatedEIP` answered from a table instead of a list scan.
 *
 * @ethereumjs/common 10.1 answers `isActivatedEIP(eip)` with
 * `_activatedEIPsCache.includes(eip)`, a scan of every EIP the hardfork activates
 * (about 70 on Prague), and @ethereumjs/evm asks it on every PUSH (EIPs 6800 and 7864),
 * every SLOAD, SSTORE and call frame: on Prague a missed EIP costs a full scan each
 * time (1.5% of an estimate-and-send loop's samples, 0.7% of an OpenZeppelin suite's).
 * This replaces the method on one EVM's Common instance (not the prototype: other
 * Commons, and EVMs built with the patches off, keep ethereumjs' own) with a lookup
 * in a byte table built from the same list. The list is rebuilt (a new array) when
 * the Common's hardfork or EIPs change; the table follows it by identity, so the
 * answers stay those of `includes`.
 */

/** The parts of a Common the lookup reads. */
interface CommonLike {
  _activatedEIPsCache?: unknown
  isActivatedEIP(eip: number): boolean
}

const INSTALLED = Symbol.for('dualnet.activatedEips')

/**
 * Gives `common` the table lookup. Returns false, changing nothing, when the Common
 * lacks the `_activatedEIPsCache` list of @ethereumjs/common 10.1 (another version);
 * true when installed (or already installed).
 */
export function installActivatedEips(common: CommonLike): boolean {
  if (INSTALLED in common) return true
  if (!Array.isArray(common._activatedEIPsCache)) return false
  let source: unknown
  let table = new Uint8Array(0)
  const isActivatedEIP = function (this: CommonLike, eip: number): boolean {
    const list = this._activatedEIPsCache as number[]
    if (list !== source) {
      let size = 0
      for (const e of list) if (Number.isSafeInteger(e) && e >= size) size = e + 1
      table = new Uint8Array(size)
      for (const e of list) if (Number.isSafeInteger(e) && e >= 0) table[e] = 1
      source = list
    }
    // `includes` uses SameValueZero: only a number in the list can match (the list holds integers).
    return typeof eip === 'number' && table[eip] === 1
  }
  // Not enumerable: `Common.copy()` (an Object.assign of own enumerable properties) gives the copy ethereumjs' own method.
  Object.defineProperty(common, INSTALLED, { value: true })
  Object.defineProperty(common, 'isActivatedEIP', { value: isActivatedEIP, writable: true, configurable: true })
  return true
}
