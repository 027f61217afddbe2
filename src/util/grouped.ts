/**
 * Whole numbers in messages with thousands separators, without `toLocaleString`: the
 * first `toLocaleString('en-US')` in a process loads ICU's locale data, about 30 ms of
 * CPU, and the option tables format their bounds when they load, on every start
 * (docs/performance.md, "CLI start").
 */

/** `n` in digits grouped by three with commas, as `toLocaleString('en-US')` writes a whole number: `9,007,199,254,740,991`, `-1,000`. */
export function grouped(n: number | bigint): string {
  const text = String(n)
  const [whole = text, fraction] = text.split('.')
  const sign = whole.startsWith('-') ? '-' : ''
  const digits = sign === '' ? whole : whole.slice(1)
  if (!/^\d+$/.test(digits)) return text
  const withCommas = digits.replace(/\B(?=(\d{3})+$)/g, ',')
  return `${sign}${withCommas}${fraction === undefined ? '' : `.${fraction}`}`
}
