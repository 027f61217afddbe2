/**
 * Runs the Hardhat example projects (examples/hardhat2, examples/hardhat3) as a user
 * runs them: `npm test` in the project (`hardhat test --network dualnet`), with the
 * project's own dependencies and this checkout's build of dualnet. Not a test file
 * itself: test/examples.test.ts uses it.
 *
 * Installs are cached: npm installs a project only when its package.json or
 * lockfile changed since the last install (a hash in node_modules/). dualnet itself
 * is then replaced by this checkout's dist/ (rebuilt first when a file of src/ is
 * newer), so a run always tests the current code without reinstalling.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The outcome of a command: exit code and everything printed (stdout and stderr interleaved). */
export interface Run {
  code: number | null
  output: string
}

/** Runs `command args` in `cwd`; resolves when it exits. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output }))
  })
}

/** Latest modification time (ms) of the files under `dir`. */
async function newest(dir: string): Promise<number> {
  let latest = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
  }
  return latest
}

/** The npm package of the Node.js that Hardhat 3 needs (examples/hardhat3 has it as a devDependency too). */
const NODE_22 = 'node@22'

/** npm's own script (npm-cli.js), to run npm under another Node. */
function npmCli(): string {
  const running = process.env.npm_execpath
  if (running?.endsWith('npm-cli.js') === true) return running
  return join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm', 'bin', 'npm-cli.js')
}

let building: Promise<void> | undefined

/** Builds dist/ (`npm run build`) unless it is newer than every file of src/; once per process. */
export function ensureBuild(): Promise<void> {
  building ??= (async () => {
    const built = await stat(join(ROOT, 'dist/hardhat/hardhat3.d.ts')).then(
      (s) => s.mtimeMs,
      () => 0,
    )
    if (built > (await newest(join(ROOT, 'src')))) return
    const { code, output } = await run('npm', ['run', 'build'], ROOT)
    if (code !== 0) throw new Error(`npm run build failed:\n${output}`)
  })()
  return building
}

/**
 * Makes examples/`name` ready to run: installed when its manifest or lockfile changed
 * since the last install, then this checkout's dist/ and package.json as its
 * node_modules/dualnet. Resolves to the project's directory.
 */
export async function prepareExample(name: string, options: { node22?: boolean } = {}): Promise<string> {
  const dir = join(ROOT, 'examples', name)
  const hash = createHash('sha256')
  for (const file of ['package.json', 'package-lock.json']) hash.update(await readFile(join(dir, file)))
  const key = hash.digest('hex')
  const stamp = join(dir, 'node_modules', '.dualnet-example-install')
  if ((await readFile(stamp, 'utf8').catch(() => '')) !== key) {
    // npm skips optional dependencies whose engines do not match the Node running npm, and
    // Hardhat 3's EDR binary requires Node 22: on an older Node, npm itself runs on Node 22.
    // Both lockfiles record every platform's binary packages, so `npm ci` installs them anywhere.
    const node22 = options.node22 === true
    const install = ['ci', '--no-audit', '--no-fund']
    const { code, output } = node22 && Number(process.versions.node.split('.')[0]) < 22 ? await run('npx', ['-y', NODE_22, npmCli(), ...install], dir) : await run('npm', install, dir)
    if (code !== 0) throw new Error(`npm ${install[0]} in examples/${name} failed:\n${output}`)
    await writeFile(stamp, key)
  }
  await ensureBuild()
  const installed = join(dir, 'node_modules', 'dualnet')
  await rm(join(installed, 'dist'), { recursive: true, force: true })
  await cp(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true })
  await cp(join(ROOT, 'package.json'), join(installed, 'package.json'))
  return dir
}

/** What the `dualnet` task printed and answered before it was stopped. */
export interface Served {
  output: string
  chainId: unknown
  restHeight: unknown
  code: number | null
}

/**
 * Starts `hardhat dualnet --port 0 --rest-port 0` in `dir` with `node`, waits for both URLs, asks
 * each server one question (eth_chainId, REST block height), then stops it with
 * SIGINT as a user's Ctrl-C does.
 */
export function serveOnce(dir: string, node: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['node_modules/.bin/hardhat', 'dualnet', '--port', '0', '--rest-port', '0'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let asked = false
    const answers: Partial<Served> = {}
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const rpcUrl = /^JSON-RPC +(\S+)$/m.exec(output)?.[1]
      const restUrl = /^REST +(\S+)$/m.exec(output)?.[1]
      if (asked || rpcUrl === undefined || restUrl === undefined || !output.includes('Accounts\n')) return
      asked = true
      void (async () => {
        const rpc = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
        answers.chainId = ((await rpc.json()) as { result: unknown }).result
        answers.restHeight = ((await (await fetch(`${restUrl}/api/v1/block/height`)).json()) as { Result: unknown }).Result
      })()
        .catch((err: unknown) => (output += `\nrequest failed: ${String(err)}`))
        .finally(() => child.kill('SIGINT'))
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ output, chainId: answers.chainId, restHeight: answers.restHeight, code })
    })
  })
}
