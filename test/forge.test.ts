/**
 * Foundry's forge (1.7.1, the @foundry-rs/forge binary) against the CLI (issue 19
 * item 5), offline: solc is the npm `solc` package behind test/foundry/solc.mjs
 * (`--use`), forge-std 1.9.7 comes from npm (@layerzerolabs/toolbox-foundry ships it).
 * The project in test/foundry is laid out as `forge init` lays one out and compiled
 * for Istanbul, the chain's EVM. `forge script --broadcast --legacy` deploys Counter
 * and calls it (three legacy transactions, checked over JSON-RPC), then
 * `forge test --fork-url` reads that state from dualnet. A contract compiled for
 * Shanghai (PUSH0) is refused by the default devnet with the error naming the opcode,
 * and deploys on `--hardfork shanghai`. out/, cache/ and broadcast/ go to a temporary
 * directory. Compiling forge-std with solc-js takes half a minute or more.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getCreateAddress } from 'ethers'
import { rpcCall, started, stop } from './cli-support.ts'
import { foundryBinary } from './foundry-support.ts'

const PROJECT = fileURLToPath(new URL('./foundry/', import.meta.url))
const SOLC = join(PROJECT, 'solc.mjs')
/** Dev account 0 of the default mnemonic. */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
/** Compiling forge-std with solc-js on a busy machine. */
const COMPILE_MS = 400_000

type Running = Awaited<ReturnType<typeof started>>
type Receipt = { status: string; type: string; contractAddress: string | null; to: string | null }

let FORGE = ''

describe('forge against the CLI', () => {
  let istanbul: Running
  let shanghai: Running
  let scratch: string

  /** Runs forge in the project with out/, cache/, broadcast/ under `scratch/<dirs>`; resolves to its exit code and output. */
  function forge(args: string[], env: Record<string, string> = {}, dirs = 'istanbul'): Promise<{ code: number; stdout: string; stderr: string }> {
    const paths = { FOUNDRY_OUT: join(scratch, dirs, 'out'), FOUNDRY_CACHE_PATH: join(scratch, dirs, 'cache'), FOUNDRY_BROADCAST: join(scratch, dirs, 'broadcast') }
    return new Promise((resolve) => {
      execFile(FORGE, [...args, '--use', SOLC], { cwd: PROJECT, env: { ...process.env, ...paths, ...env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr })
      })
    })
  }

  beforeAll(async () => {
    FORGE = await foundryBinary('forge')
    scratch = mkdtempSync(join(tmpdir(), 'dualnet-forge-'))
    ;[istanbul, shanghai] = await Promise.all([started(['--rpcport', '0', '--accounts', '2', '--quiet']), started(['--rpcport', '0', '--accounts', '1', '--hardfork', 'shanghai', '--quiet'])])
    const build = await forge(['build'])
    expect(build.code, build.stdout + build.stderr).toBe(0)
    expect(build.stdout).toContain('Compiler run successful!')
  }, COMPILE_MS)
  afterAll(async () => {
    await Promise.all([istanbul, shanghai].filter((cli) => cli !== undefined).map(stop))
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
  })

  it(
    'forge script --broadcast --legacy deploys Counter and calls it: three legacy transactions on dualnet',
    async () => {
      const run = await forge(['script', 'script/Counter.s.sol:CounterScript', '--broadcast', '--legacy', '--rpc-url', istanbul.rpcUrl, '--private-key', KEY])
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).toContain('ONCHAIN EXECUTION COMPLETE & SUCCESSFUL.')
      const counter = getCreateAddress({ from: DEPLOYER, nonce: 0 }).toLowerCase()
      expect(run.stdout.toLowerCase()).toContain(`counter deployed at ${counter}`)

      // forge's record of the broadcast, and the receipts dualnet gives for it.
      const record = JSON.parse(readFileSync(join(scratch, 'istanbul', 'broadcast', 'Counter.s.sol', '12345', 'run-latest.json'), 'utf8')) as { receipts: { transactionHash: string }[] }
      expect(record.receipts).toHaveLength(3)
      const receipts = (await Promise.all(record.receipts.map((r) => rpcCall(istanbul.rpcUrl, 'eth_getTransactionReceipt', [r.transactionHash])))) as Receipt[]
      expect(receipts.map((r) => [r.status, r.type])).toEqual([
        ['0x1', '0x0'],
        ['0x1', '0x0'],
        ['0x1', '0x0'],
      ])
      expect(receipts[0]!.contractAddress).toBe(counter)
      expect(receipts.slice(1).map((r) => r.to)).toEqual([counter, counter])
      // number() is 43: setNumber(42), then increment().
      expect(await rpcCall(istanbul.rpcUrl, 'eth_call', [{ to: counter, data: '0x8381f58a' }, 'latest'])).toBe(`0x${'0'.repeat(62)}2b`)
      expect(await rpcCall(istanbul.rpcUrl, 'eth_getTransactionCount', [DEPLOYER, 'latest'])).toBe('0x3')
    },
    COMPILE_MS,
  )

  it(
    "forge test --fork-url reads the deployed Counter, the deployer's balance and nonce from dualnet",
    async () => {
      const counter = getCreateAddress({ from: DEPLOYER, nonce: 0 })
      const run = await forge(['test', '--fork-url', istanbul.rpcUrl, '--json'], { COUNTER: counter, DEPLOYER })
      expect(run.code, run.stdout + run.stderr).toBe(0)
      const suites = JSON.parse(run.stdout) as Record<string, { test_results: Record<string, { status: string; reason: string | null }> }>
      const results = suites['test/Fork.t.sol:ForkTest']!.test_results
      expect(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.status]))).toEqual({
        'test_readsDualnetState()': 'Success',
        'test_writesOnTheFork()': 'Success',
      })
      // The fork's writes stayed in forge: dualnet still reads 43.
      expect(await rpcCall(istanbul.rpcUrl, 'eth_call', [{ to: counter, data: '0x8381f58a' }, 'latest'])).toBe(`0x${'0'.repeat(62)}2b`)
    },
    COMPILE_MS,
  )

  it(
    'a contract compiled for Shanghai (PUSH0): refused on the default devnet with the opcode named, deployed with --hardfork shanghai',
    async () => {
      const create = (cli: Running) =>
        forge(['create', 'src/Counter.sol:Counter', '--broadcast', '--legacy', '--rpc-url', cli.rpcUrl, '--private-key', KEY], { FOUNDRY_EVM_VERSION: 'shanghai' }, 'shanghai')
      // One compile first, then the two deploys from its cache.
      const refused = await create(istanbul)
      expect(refused.code).not.toBe(0)
      expect(refused.stderr).toContain("invalid opcode: PUSH0 (0x5f) is not available on this chain's EVM (istanbul); it came with shanghai.")
      const deployed = await create(shanghai)
      expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0)
      const address = getCreateAddress({ from: DEPLOYER, nonce: 0 })
      expect(deployed.stdout).toContain(`Deployed to: ${address}`)
      const code = (await rpcCall(shanghai.rpcUrl, 'eth_getCode', [address, 'latest'])) as string
      expect(code.length).toBeGreaterThan(2)
      expect(await rpcCall(shanghai.rpcUrl, 'eth_call', [{ to: address, data: '0x8381f58a' }, 'latest'])).toBe(`0x${'0'.repeat(64)}`)
    },
    COMPILE_MS,
  )
})
