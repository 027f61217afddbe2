/**
 * Every code block of README.md and docs/*.md runs as written, so the docs cannot show
 * code that no longer works.
 *
 * The convention (COMMON.md): a ```ts or ```js block is a complete program that imports
 * from 'dualnet' and exits; one that imports from 'vitest' is a test file and runs under
 * vitest; ```ts skip-test (or ```js skip-test) marks a block that cannot run here (it
 * needs a Hardhat project, a remote, …), and the paragraph before it says why. Other
 * languages (sh, json, text) are not run.
 *
 * How: the blocks are written into .docs-test/ in the repository (git-ignored), where
 * 'dualnet' and its subpaths resolve to src/ (a tsconfig `paths` alias for tsx, a
 * `resolve.alias` for vitest), and node_modules is the repository's. The programs run
 * one after another in one tsx process, which must then exit by itself (a block that
 * leaves a handle open hangs it); the test files run in one vitest process; tsc checks
 * the types of every ts block. Three processes instead of one per block keep the whole
 * run to seconds.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WORK = join(ROOT, '.docs-test')

/** The entry points a block may import, and the source each resolves to. */
const ENTRY_POINTS: Record<string, string> = {
  dualnet: 'src/index.ts',
  'dualnet/vitest': 'src/vitest.ts',
  'dualnet/viem': 'src/viem.ts',
  'dualnet/ethers': 'src/ethers.ts',
}

/** A fenced code block of a Markdown file. */
interface CodeBlock {
  /** `README.md` or `docs/<name>.md`. */
  readonly file: string
  /** 1-based line of the opening fence. */
  readonly line: number
  /** The info string's first word: `ts`, `js`, `sh`, … ('' when none). */
  readonly lang: string
  readonly skip: boolean
  readonly code: string
  /** The paragraph right before the fence (its lines joined), where a skip says why. */
  readonly before: string
}

/** The fenced blocks of one Markdown text, in order. */
function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!)
    if (open === null) continue
    const start = i
    const body: string[] = []
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!)
    const paragraph: string[] = []
    for (let j = start - 1; j >= 0 && (lines[j]!.trim() !== '' || paragraph.length === 0); j--) {
      if (lines[j]!.trim() !== '') paragraph.unshift(lines[j]!.trim())
    }
    blocks.push({ file, line: start + 1, lang: open[1]!, skip: /\bskip-test\b/.test(open[2]!), code: body.join('\n') + '\n', before: paragraph.join(' ') })
  }
  return blocks
}

const RUNNABLE = new Set(['ts', 'js', 'typescript', 'javascript'])

function markdownFiles(): { file: string; text: string }[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))
}

/** A block's file name in WORK: where it came from, so a failure names it. */
function fileName(block: CodeBlock, test: boolean): string {
  const base = `${block.file.replace(/\W+/g, '-')}-L${block.line}`
  return `${base}${test ? '.test' : ''}.${block.lang.startsWith('j') ? 'js' : 'ts'}`
}

interface Run {
  code: number | null
  output: string
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      output += `\n[docs test: killed after ${timeoutMs} ms: it did not exit]`
      child.kill('SIGKILL')
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

const blocks = markdownFiles().flatMap(({ file, text }) => codeBlocks(file, text))
const runnable = blocks.filter((b) => RUNNABLE.has(b.lang) && !b.skip)
const programs = runnable.filter((b) => !/from ['"]vitest['"]/.test(b.code))
const testFiles = runnable.filter((b) => /from ['"]vitest['"]/.test(b.code))
const skipped = blocks.filter((b) => RUNNABLE.has(b.lang) && b.skip)

let programRun: Promise<Run>
let vitestRun: Promise<Run>
let typeRun: Promise<Run>

beforeAll(() => {
  rmSync(WORK, { recursive: true, force: true })
  mkdirSync(WORK, { recursive: true })
  const paths = Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, source]) => [name, [`../${source}`]]))
  writeFileSync(join(WORK, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { baseUrl: '.', paths }, include: ['*.ts'] }, null, 2))
  for (const block of programs) writeFileSync(join(WORK, fileName(block, false)), block.code)
  for (const block of testFiles) writeFileSync(join(WORK, fileName(block, true)), block.code)
  // One process for every program, one after another; each start and end is marked,
  // so a failure or a hang names its block.
  const runner = [
    'let failed = 0',
    `for (const file of ${JSON.stringify(programs.map((b) => `./${fileName(b, false)}`))}) {`,
    "  console.log('@@ start ' + file)",
    '  try {',
    '    await import(file)',
    "    console.log('@@ end ' + file)",
    '  } catch (error) {',
    '    failed++',
    "    console.log('@@ failed ' + file + ': ' + (error instanceof Error ? error.stack : String(error)))",
    '  }',
    '}',
    'process.exitCode = failed === 0 ? 0 : 1',
    '',
  ].join('\n')
  writeFileSync(join(WORK, 'run-programs.ts'), runner)
  const aliases = Object.entries(ENTRY_POINTS).map(([name, source]) => `{ find: /^${name.replace('/', '\\/')}$/, replacement: ${JSON.stringify(join(ROOT, source))} }`)
  writeFileSync(
    join(WORK, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config'\nexport default defineConfig({ resolve: { alias: [${aliases.join(', ')}] }, test: { include: ['*.test.ts', '*.test.js'], testTimeout: 60_000, hookTimeout: 60_000 } })\n`,
  )
  const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)
  programRun = programs.length === 0 ? Promise.resolve({ code: 0, output: '' }) : run(bin('tsx'), ['run-programs.ts'], WORK, 240_000)
  // tsc over the ts blocks as a user's project sees them (strict, the repository's tsconfig).
  typeRun = run(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], WORK, 240_000)
  vitestRun = testFiles.length === 0 ? Promise.resolve({ code: 0, output: '' }) : run(bin('vitest'), ['run', '--config', 'vitest.config.ts', '--root', '.', '--reporter', 'verbose'], WORK, 240_000)
})

describe('code blocks of README.md and docs/', () => {
  it('are found, and the README has a program and a test file among them', () => {
    expect(programs.some((b) => b.file === 'README.md')).toBe(true)
    expect(testFiles.some((b) => b.file === 'README.md')).toBe(true)
  })

  it('run as complete programs in one process, which then exits by itself', { timeout: 300_000 }, async () => {
    const { code, output } = await programRun
    const ended = output.split('\n').filter((l) => l.startsWith('@@ end ')).length
    expect({ code, ended, failures: output.split('\n').filter((l) => l.startsWith('@@ failed')) }, output).toEqual({ code: 0, ended: programs.length, failures: [] })
  })

  it('that import vitest pass as test files', { timeout: 300_000 }, async () => {
    const { code, output } = await vitestRun
    expect(code, output).toBe(0)
    expect(output).toMatch(new RegExp(`Test Files\\s+${testFiles.length} passed`))
  })

  it('type-check as written', { timeout: 300_000 }, async () => {
    const { code, output } = await typeRun
    expect(code, output).toBe(0)
  })

  it('skipped with skip-test say why in the paragraph before them', () => {
    const unexplained = skipped.filter((b) => !/\b(not run|needs?|requires?|runs? under|only)\b/i.test(b.before)).map((b) => `${b.file}:${b.line}`)
    expect(unexplained).toEqual([])
    // The count is printed so that a run shows how much is not executed.
    console.log(`docs test: ${programs.length} programs, ${testFiles.length} test files, ${skipped.length} skipped (${skipped.map((b) => `${b.file}:${b.line}`).join(', ')})`)
  })

  it('parse fences, info strings and the paragraph before each', () => {
    const text = ['Intro.', '', 'Why: it needs a', 'Hardhat project.', '```ts skip-test', 'x()', '```', '', '```sh', 'ls', '```'].join('\n')
    const [skip, shell] = codeBlocks('a.md', text)
    expect(skip).toEqual({ file: 'a.md', line: 5, lang: 'ts', skip: true, code: 'x()\n', before: 'Why: it needs a Hardhat project.' })
    expect(shell).toMatchObject({ line: 9, lang: 'sh', skip: false, code: 'ls\n' })
  })
})
