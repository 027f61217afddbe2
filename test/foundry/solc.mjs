#!/usr/bin/env node
/**
 * A `solc` for forge (`forge build --use ./solc.mjs`) over solc-js, the npm `solc`
 * package, so that Foundry compiles offline: forge's `--use <path>` runs the path as a
 * solc binary and asks it two things, which this answers as solc does:
 * `--version` (forge reads the last line, `Version: <semver>`) and `--standard-json`
 * (Standard JSON input on stdin, output on stdout; forge passes every source's
 * content, and the import callback reads any file it left out). Other arguments
 * forge adds (`--allow-paths`, `--base-path`, `--include-path`) only widen where
 * imports may be read from. The compiler version is the npm package's.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

const solc = createRequire(import.meta.url)('solc')
const args = process.argv.slice(2)
const flagValue = (flag) => {
  const i = args.indexOf(flag)
  return i < 0 ? undefined : args[i + 1]
}

if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`)
} else if (args.includes('--standard-json')) {
  let input = ''
  process.stdin.setEncoding('utf8')
  for await (const chunk of process.stdin) input += chunk
  const base = flagValue('--base-path') ?? process.cwd()
  const findImports = (path) => {
    try {
      return { contents: readFileSync(resolve(base, path), 'utf8') }
    } catch {
      return { error: `File not found: ${path}` }
    }
  }
  process.stdout.write(solc.compile(input, { import: findImports }))
} else {
  process.stderr.write(`solc.mjs (solc-js ${solc.version()}) answers --version and --standard-json only, not: ${args.join(' ')}\n`)
  process.exit(1)
}
