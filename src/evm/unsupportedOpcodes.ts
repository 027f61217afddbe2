/**
 * Opcodes that later hardforks added and the chain's EVM (Istanbul, reference §6.3)
 * lacks. Code compiled for a newer EVM fails on them with "invalid opcode"; we name
 * the opcode and say how to fix the build instead.
 */

/** Opcode byte -> [mnemonic, hardfork that introduced it]. */
const LATER_OPCODES: ReadonlyMap<number, readonly [string, string]> = new Map([
  [0x1e, ['CLZ', 'osaka']],
  [0x48, ['BASEFEE', 'london']],
  [0x49, ['BLOBHASH', 'cancun']],
  [0x4a, ['BLOBBASEFEE', 'cancun']],
  [0x5c, ['TLOAD', 'cancun']],
  [0x5d, ['TSTORE', 'cancun']],
  [0x5e, ['MCOPY', 'cancun']],
  [0x5f, ['PUSH0', 'shanghai']],
])

/**
 * The error text for executing `opcode` on `hardfork`, or `undefined` when the opcode
 * is not one a newer hardfork added (a plain invalid opcode such as 0xfe).
 */
export function unsupportedOpcodeMessage(opcode: number, hardfork: string): string | undefined {
  const known = LATER_OPCODES.get(opcode)
  if (known === undefined) return undefined
  const [name, since] = known
  const hex = `0x${opcode.toString(16).padStart(2, '0')}`
  return (
    `invalid opcode: ${name} (${hex}) is not available on this chain's EVM (${hardfork}); it came with ${since}. ` +
    `Compile the contract for the chain's EVM version (solc --evm-version ${hardfork}, or evmVersion: "${hardfork}" in the compiler settings)`
  )
}
