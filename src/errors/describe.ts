/**
 * `value` as an error message shows it: JSON where it has a JSON form (bigints as
 * decimals), else its tag, cut to `max` characters. Never throws: `String(value)` does
 * on an object without a prototype or with a throwing `toString`, and a refusal must
 * not turn into a crash (the fuzz suites pass such objects in process).
 */
export function describeValue(value: unknown, max = 120): string {
  let text: string | undefined
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  } catch {
    text = undefined
  }
  text ??= typeof value === 'symbol' || typeof value === 'function' ? typeof value : Object.prototype.toString.call(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}
