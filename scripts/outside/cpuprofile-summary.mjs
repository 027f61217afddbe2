#!/usr/bin/env node
/**
 * Where a `hardhat test` run's main-thread time goes, from a V8 CPU profile
 * (`node --cpu-prof`): self time summed by the package whose code ran (dualnet, EDR's
 * JavaScript side, ethers, Hardhat, mocha, chai, solc output handling, …), plus V8's own
 * buckets ((garbage collector), (program), (idle)). Native code a function calls (EDR's
 * Rust, Node's crypto) counts as that function's self time.
 *
 * Usage: node scripts/outside/cpuprofile-summary.mjs <file.cpuprofile>...
 * Prints one markdown table per file: bucket, milliseconds, share of the profile.
 */
import { readFileSync } from 'node:fs'

/** The bucket of a call frame: V8's own names, else the package its URL is in, else the file's area. */
function bucket({ functionName, url }) {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native or V8 builtin)'
  const path = url.replace(/^file:\/\//, '')
  const packages = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].map((m) => m[1])
  // The innermost package (a dependency of dualnet counts as dualnet's: the devnet's work).
  const first = packages[0]
  if (first === 'dualnet') return 'dualnet (the devnet, its EVM and dependencies)'
  if (first !== undefined) {
    if (first.startsWith('@nomicfoundation/edr')) return 'EDR (Hardhat network)'
    if (first === 'hardhat' || first.startsWith('@nomicfoundation/hardhat')) return `Hardhat runtime and plugins (${first})`
    return first
  }
  if (path.startsWith('node:')) return 'Node.js internals'
  return 'the project (tests, config)'
}

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map()
  // Each sample hits one node; timeDeltas[i] is the time before sample i.
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    const key = bucket(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  console.log(`\n${file}: ${(total / 1000).toFixed(1)} s profiled\n`)
  console.log('| where | ms | share |\n|---|--:|--:|')
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) {
    console.log(`| ${key} | ${ms.toFixed(0)} | ${((100 * ms) / total).toFixed(1)}% |`)
  }
}
