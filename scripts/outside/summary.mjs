#!/usr/bin/env node
/**
 * Reads the mocha logs that scripts/outside/run.sh wrote (<work>/<target>.log) and prints,
 * as Markdown: one table of passing / failing / pending counts per target, then each
 * target's failing tests grouped by their error's first line (the cause), with a count.
 *
 * Usage: node summary.mjs <work-dir> <target>... [--reference <target>]
 * With --reference (e.g. hardhat-istanbul: Hardhat's own network on the chain's hardfork),
 * each failure is marked when the reference run failed the same test with the same
 * message (for a snapshot: the same figure), i.e. when the reference explains it.
 * Mocha's spec reporter closes with "N passing (time)", "N pending", "N failing", then
 * lists each failure as "  k) <suite lines>\n       <title>:\n     <Error>: <message>".
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const args = process.argv.slice(2)
const refAt = args.indexOf('--reference')
const reference = refAt >= 0 ? args.splice(refAt, 2)[1] : undefined
const [work, ...targets] = args
if (!work || targets.length === 0) {
  console.error('usage: node summary.mjs <work-dir> <target>...')
  process.exit(2)
}

/** ANSI colour codes, which mocha writes on a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this removes
const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/**
 * Counts and failures of one mocha log: `{ passing, failing, pending, failures }`, each
 * failure `{ title, cause }` (title: the suite path and test joined by " › "; cause: the
 * error's first line). Counts are null when the log has no closing lines (a crashed run).
 */
function parse(log) {
  const text = plain(log)
  const count = (word) => {
    const m = text.match(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm'))
    return m ? Number(m[1]) : null
  }
  const passing = count('passing')
  const failures = []
  const failingAt = text.search(/^\s*\d+ failing\s*$/m)
  if (failingAt >= 0) {
    const lines = text.slice(failingAt).split('\n').slice(1)
    for (let i = 0; i < lines.length; i++) {
      const head = lines[i].match(/^\s{2}(\d+)\) (.*)$/)
      if (!head) continue
      const title = [head[2].trim()]
      let j = i + 1
      // Suite and test lines up to the one ending in ':' (the test's title).
      while (j < lines.length && !title[title.length - 1].endsWith(':')) title.push(lines[j++].trim())
      while (j < lines.length && lines[j].trim() === '') j++
      let cause = (lines[j] ?? '').trim()
      let name = title.join(' › ').replace(/:$/, '')
      // mocha-chai-jest-snapshot: one cause for every snapshot mismatch, the figures go with the test.
      const snap = cause.match(/^AssertionError: Snapshot name: `.*`: expected (.*) to equal (.*)$/)
      if (snap) {
        cause = 'snapshot differs (AssertionError: Snapshot name: ...: expected <got> to equal <snapshot>)'
        name += ` (got ${snap[1]}, snapshot ${snap[2]})`
      }
      failures.push({ title: name, cause, key: `${title.join(' › ')}\n${(lines[j] ?? '').trim()}` })
      i = j
    }
  }
  return { passing, failing: count('failing') ?? (passing === null ? null : 0), pending: count('pending') ?? (passing === null ? null : 0), failures }
}

const results = targets.map((target) => {
  const file = join(work, `${target}.log`)
  const seconds = existsSync(join(work, `${target}.seconds`)) ? readFileSync(join(work, `${target}.seconds`), 'utf8').trim() : '?'
  return { target, seconds, ...(existsSync(file) ? parse(readFileSync(file, 'utf8')) : { passing: null, failing: null, pending: null, failures: [] }) }
})

const refRun = reference === undefined ? undefined : results.find((r) => r.target === reference)
if (reference !== undefined && !refRun) throw new Error(`--reference ${reference}: not among the targets`)
const refKeys = new Set(refRun?.failures.map((f) => f.key))

const show = (n) => (n === null ? 'no result' : String(n))
const out = []
const version = existsSync(join(work, 'dualnet.version')) ? readFileSync(join(work, 'dualnet.version'), 'utf8').trim() : ''
out.push('| target | passing | failing | pending | seconds |', '| --- | ---: | ---: | ---: | ---: |')
for (const r of results) {
  const name = r.target === 'dualnet' && version ? `dualnet (${version})` : r.target
  out.push(`| ${name} | ${show(r.passing)} | ${show(r.failing)} | ${show(r.pending)} | ${r.seconds} |`)
}
for (const r of results) {
  if (r.failures.length === 0) continue
  const shared = r === refRun ? 0 : r.failures.filter((f) => refKeys.has(f.key)).length
  out.push('', `### ${r.target}: ${r.failures.length} failing, by cause`)
  if (refRun && r !== refRun) out.push('', `${shared} of them fail the same way (same message, same figure) on ${reference}.`)
  const byCause = new Map()
  for (const f of r.failures) byCause.set(f.cause, [...(byCause.get(f.cause) ?? []), f])
  for (const [cause, titles] of [...byCause].sort((a, b) => b[1].length - a[1].length)) {
    const same = titles.filter((f) => refRun && r !== refRun && refKeys.has(f.key)).length
    out.push('', `- ${titles.length} × \`${cause}\`${same ? ` (${same} the same on ${reference})` : ''}`)
    for (const f of titles) out.push(`  - ${f.title}${refRun && r !== refRun && refKeys.has(f.key) ? ` = ${reference}` : ''}`)
  }
}
console.log(out.join('\n'))
