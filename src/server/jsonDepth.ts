/**
 * A nesting check for request bodies, run by the servers before JSON.parse.
 */

/**
 * Whether JSON `text` nests arrays and objects deeper than `limit`, found without
 * parsing it: one pass over the characters (strings skipped), so a body of a million
 * `[` is refused in milliseconds instead of stalling the event loop in JSON.parse
 * and overflowing the stack in anything recursive after it.
 */
export function jsonTooDeep(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}
