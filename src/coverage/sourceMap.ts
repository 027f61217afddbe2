/**
 * solc's source maps (docs.soliditylang.org, "Source Mappings"): one element per
 * instruction of the bytecode, `s:l:f:j:m` (byte offset and length in the source,
 * source index, jump type `i` into a function / `o` out of one / `-` a plain jump,
 * modifier depth), compressed so that an empty field repeats the previous element's
 * value and trailing fields may be left off. Source index -1 marks code not from any
 * source (the compiler's own); an index past the user sources names one of the
 * compiler's generated sources (`generatedSources` of the output).
 *
 * The n-th element belongs to the n-th instruction, not the n-th byte: a PUSHn's
 * immediate bytes are no instructions (see {@link instructionIndexes}).
 */

/** One instruction's place in the sources. */
export interface SourceMapEntry {
  /** Byte offset in the source. */
  readonly start: number
  /** Length in bytes. */
  readonly length: number
  /** Source index (`output.sources[path].id`); -1: no source. */
  readonly file: number
  /** Jump type: `i` into a function, `o` out of one, `-` neither. */
  readonly jump: 'i' | 'o' | '-'
}

/**
 * The entries of a compressed source map, one per instruction. Throws `Error` naming
 * the element for a field that is not a whole number (or a jump type other than i, o, -).
 */
export function parseSourceMap(compressed: string): SourceMapEntry[] {
  const entries: SourceMapEntry[] = []
  if (compressed === '') return entries
  let start = -1
  let length = -1
  let file = -1
  let jump: SourceMapEntry['jump'] = '-'
  const elements = compressed.split(';')
  for (let i = 0; i < elements.length; i++) {
    const fields = elements[i]!.split(':')
    if (fields[0] !== undefined && fields[0] !== '') start = whole(fields[0], i)
    if (fields[1] !== undefined && fields[1] !== '') length = whole(fields[1], i)
    if (fields[2] !== undefined && fields[2] !== '') file = whole(fields[2], i)
    if (fields[3] !== undefined && fields[3] !== '') {
      const j = fields[3]
      if (j !== 'i' && j !== 'o' && j !== '-') throw new Error(`source map element ${i}: jump type ${JSON.stringify(j)} is not i, o or -`)
      jump = j
    }
    entries.push({ start, length, file, jump })
  }
  return entries
}

function whole(field: string, element: number): number {
  if (!/^-?\d+$/.test(field)) throw new Error(`source map element ${element}: ${JSON.stringify(field.slice(0, 20))} is not a whole number`)
  return Number(field)
}

/** PUSH1 (0x60) to PUSH32 (0x7f) carry 1 to 32 immediate bytes; PUSH0 (0x5f) none. */
const PUSH1 = 0x60
const PUSH32 = 0x7f

/**
 * Per byte of `code`, the index of the instruction that starts there, -1 for the
 * immediate bytes of a PUSHn (which are data, not instructions). A PUSH whose
 * immediate runs past the end takes the rest of the code, as the EVM reads it.
 */
export function instructionIndexes(code: Uint8Array): Int32Array {
  const indexes = new Int32Array(code.length).fill(-1)
  let n = 0
  for (let pc = 0; pc < code.length; pc++) {
    indexes[pc] = n++
    const op = code[pc]!
    if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1
  }
  return indexes
}
