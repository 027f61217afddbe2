/**
 * Runs the shell steps of examples/ci/github-actions.yml on this machine as a GitHub
 * runner would: each `run:` with `bash --noprofile --norc -eo pipefail`, in the
 * repository root, with `CI`, `RUNNER_TEMP` and `GITHUB_ENV` (lines `NAME=value` a step
 * appends there are in the environment of the later steps). `uses:` steps are the
 * runner's own (checkout, Node) and are skipped, and so is `npm ci`, which the
 * repository has already run. npm's cache is a new one in RUNNER_TEMP, as a fresh
 * runner's is. After a failed step only `if: always()` steps run.
 * Exit code 0 when every step passed. Run with `npm run example:ci`
 * (test/examples.test.ts does).
 *
 * The parser reads the subset of YAML this workflow uses (a `steps:` list of
 * `name`/`run`/`if`/`uses`/`with` keys, `run` as a plain or `|` block scalar); no YAML
 * library is among the project's dependencies.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** One step of the workflow's job. */
export interface WorkflowStep {
  name?: string
  run?: string
  uses?: string
  if?: string
}

/** The steps of the workflow's (single) job, in order. Throws on a line it cannot place. */
export function parseSteps(yaml: string): WorkflowStep[] {
  const lines = yaml.split('\n')
  const start = lines.findIndex((l) => /^\s+steps:\s*$/.test(l))
  if (start < 0) throw new Error('the workflow has no steps:')
  const steps: WorkflowStep[] = []
  let itemIndent = -1
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    const indent = line.length - line.trimStart().length
    const item = /^(\s*)- (\w[\w-]*):\s*(.*)$/.exec(line)
    if (item !== null && (itemIndent < 0 || indent === itemIndent)) {
      itemIndent = indent
      steps.push({})
    } else if (itemIndent < 0 || indent <= itemIndent) {
      break // the end of the steps list
    }
    const field = /^\s*(?:- )?(\w[\w-]*):\s*(.*)$/.exec(line)
    if (field === null) throw new Error(`workflow line ${i + 1}: ${line.trim()}`)
    const [, key, value] = field as unknown as [string, string, string]
    if (value === '|') {
      // A block scalar: the lines indented deeper than its key, their common indent removed.
      const keyIndent = line.length - line.replace(/^\s*(?:- )?/, '').length
      const body: string[] = []
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.length - lines[i + 1]!.trimStart().length > keyIndent)) body.push(lines[++i]!)
      const common = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length))
      steps[steps.length - 1]![key as keyof WorkflowStep] =
        body
          .map((l) => l.slice(common))
          .join('\n')
          .trimEnd() + '\n'
    } else if (['name', 'run', 'uses', 'if'].includes(key)) {
      steps[steps.length - 1]![key as keyof WorkflowStep] = value
    }
  }
  return steps
}

/** Reads `NAME=value` lines a step appended to GITHUB_ENV. */
function readEnvFile(path: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const eq = line.indexOf('=')
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1)
  }
  return env
}

/** Runs the workflow's shell steps; returns the number of failed steps. */
export function runWorkflow(workflowPath: string, cwd: string, log: (line: string) => void = console.log): number {
  const runnerTemp = mkdtempSync(join(tmpdir(), 'dualnet-ci-'))
  const githubEnv = join(runnerTemp, 'github_env')
  writeFileSync(githubEnv, '')
  let failed = 0
  try {
    for (const step of parseSteps(readFileSync(workflowPath, 'utf8'))) {
      const title = step.name ?? step.uses ?? step.run?.trim() ?? '(step)'
      if (step.run === undefined || step.run.trim() === 'npm ci') {
        log(`-- skip: ${title}`)
        continue
      }
      if (failed > 0 && !/always\(\)/.test(step.if ?? '')) {
        log(`-- skip after a failure: ${title}`)
        continue
      }
      log(`-- run: ${title}`)
      const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
        cwd,
        // npm's cache in the runner's temp, as on a fresh runner: in the dualnet repository
        // `npx dualnet` installs the repository itself into the cache's _npx folder, and an
        // entry left half-written by an earlier run that was killed breaks every later one.
        env: { ...process.env, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: runnerTemp, GITHUB_ENV: githubEnv, npm_config_cache: join(runnerTemp, 'npm-cache'), ...readEnvFile(githubEnv) },
        stdio: ['ignore', 'inherit', 'inherit'],
        timeout: 120_000,
      })
      if (result.status !== 0) {
        failed++
        log(`-- failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}): ${title}`)
      }
    }
  } finally {
    rmSync(runnerTemp, { recursive: true, force: true })
  }
  return failed
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const failed = runWorkflow(fileURLToPath(new URL('./github-actions.yml', import.meta.url)), root)
  console.log(failed === 0 ? 'workflow: every step passed' : `workflow: ${failed} step(s) failed`)
  process.exit(failed === 0 ? 0 : 1)
}
