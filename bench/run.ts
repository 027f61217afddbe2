/**
 * `npm run bench`: throughput and latency of the hot paths, in-process and over HTTP
 * (a benchmark, never a timed test). Prints one line per figure.
 *
 * - createDevnet() to the first answer (cold: first in the process; warm: median), and
 *   in a fresh process (cold imports, cold JIT) W7, one test file's work as the peer
 *   bench's W7 measures it: the process's start to the first answer, the ERC20
 *   fixture's deployment to its receipt, 100 transfers and 500 eth_calls; and the same
 *   over HTTP against the CLI as a user starts it, with its W1, spawn to first reply
 *   (bench/coldStart.ts).
 * - Automined ERC20 transfers/s, each awaited to its receipt, and the baseline of
 *   the same raw transactions decoded and run by @ethereumjs/vm's runTx directly.
 * - eth_call balanceOf/s and eth_blockNumber/s.
 */
import { createBlock } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Account, Address, hexToBytes } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { Interface, Wallet } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { nativeCrypto } from '../src/evm/nativeSecp256k1.ts'
import { benchLimit } from './limit.ts'
import { DEFAULT_DEV_KEYS } from '../src/chain/devAccounts.ts'
import { type ColdFile, COLD_CALLS, COLD_TRANSFERS, cliColdFile, coldEntry, coldFile, coldFileWork } from './coldStart.ts'

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 2000)
const CALLS = Number(process.env.BENCH_CALLS ?? 5000)
const token = new Interface(Token.abi as never)
const results: Array<[string, string]> = []

function report(name: string, value: string): void {
  results.push([name, value])
  console.log(`${name.padEnd(58)} ${value}`)
}

function perSecond(count: number, ms: number): string {
  return `${Math.round((count / ms) * 1000).toLocaleString('en-US')}/s`
}

async function time(fn: () => Promise<void>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** Signs `count` transfers of the Token at `tokenAddress` from dev account 0, nonces from `firstNonce`. */
async function signTransfers(devnet: Devnet, tokenAddress: string, firstNonce: number, count: number): Promise<string[]> {
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const data = token.encodeFunctionData('transfer', [devnet.accounts[1]!.address, 1n])
  const raws: string[] = []
  for (let i = 0; i < count; i++) {
    raws.push(await wallet.signTransaction({ type: 0, chainId: 12345, nonce: firstNonce + i, gasPrice: 1_000_000_000n, gasLimit: 100_000n, to: tokenAddress, data }))
  }
  return raws
}

async function deployToken(send: (method: string, params: unknown[]) => Promise<unknown>, devnet: Devnet): Promise<string> {
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const raw = await wallet.signTransaction({
    type: 0,
    chainId: 12345,
    nonce: 0,
    gasPrice: 1_000_000_000n,
    gasLimit: 3_000_000n,
    data: Token.bytecode + token.encodeDeploy(['Bench', 'BEN', 10n ** 30n]).slice(2),
  })
  const hash = await send('eth_sendRawTransaction', [raw])
  const receipt = (await send('eth_getTransactionReceipt', [hash])) as { contractAddress: string }
  return receipt.contractAddress
}

function httpSender(url: string): (method: string, params: unknown[]) => Promise<unknown> {
  let id = 0
  return async (method, params) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new Error(body.error.message)
    return body.result
  }
}

async function benchCreate(): Promise<void> {
  const cold = await time(async () => {
    const d = await createDevnet()
    await d.rpc('eth_blockNumber')
    await d.close()
  })
  report('createDevnet() + first call, cold (first in process)', `${cold.toFixed(1)} ms`)
  const samples: number[] = []
  for (let i = 0; i < 30; i++) {
    let d: Devnet | undefined
    samples.push(
      await time(async () => {
        d = await createDevnet()
        await d.rpc('eth_blockNumber')
      }),
    )
    await d!.close()
  }
  samples.sort((a, b) => a - b)
  report('createDevnet() + first call, warm (median of 30)', `${samples[15]!.toFixed(1)} ms`)
  const entry = coldEntry()
  const work = await coldFileWork(`0x${DEFAULT_DEV_KEYS[0]![0]}`)
  const runs: ColdFile[] = []
  for (let i = 0; i < 5; i++) runs.push(await coldFile(entry, work))
  report(`import + createDevnet() + ERC20 deploy + receipt, cold (${entry.label}, median of 5)`, `${median(runs, (r) => r.imported + r.deploy).toFixed(1)} ms`)
  reportColdFile(`in process, ${entry.label}`, runs)
  const cliRuns: ColdFile[] = []
  for (let i = 0; i < 5; i++) cliRuns.push(await cliColdFile(entry, work))
  report(`CLI W1: spawn to first reply over HTTP (${entry.label}, median of 5)`, `${median(cliRuns, (r) => r.imported).toFixed(0)} ms`)
  reportColdFile(`CLI over HTTP, ${entry.label}`, cliRuns)
}

/** The median of `pick` over five runs. */
function median(runs: ColdFile[], pick: (r: ColdFile) => number): number {
  return runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!
}

/** W7 and its parts, medians of `runs`. */
function reportColdFile(label: string, runs: ColdFile[]): void {
  report(
    `W7 fresh process: start to first answer, deploy, ${COLD_TRANSFERS} transfers, ${COLD_CALLS} calls (${label}, median of ${runs.length})`,
    `${median(runs, (r) => r.ready + r.deploy + r.transfers + r.calls).toFixed(0)} ms`,
  )
  report(
    `W7 parts (${label}): start to first answer / deploy / transfers / calls (medians)`,
    [median(runs, (r) => r.ready), median(runs, (r) => r.deploy), median(runs, (r) => r.transfers), median(runs, (r) => r.calls)].map((ms) => ms.toFixed(0)).join(' / ') + ' ms',
  )
}

async function benchTransfers(label: string, makeSender: (d: Devnet) => Promise<(m: string, p: unknown[]) => Promise<unknown>>): Promise<number> {
  const devnet = await createDevnet()
  try {
    const send = await makeSender(devnet)
    const tokenAddress = await deployToken(send, devnet)
    const raws = await signTransfers(devnet, tokenAddress, 1, TRANSFERS)
    const ms = await time(async () => {
      for (const raw of raws) {
        const hash = await send('eth_sendRawTransaction', [raw])
        await send('eth_getTransactionReceipt', [hash])
      }
    })
    report(`${label}: automined ERC20 transfers, awaited to receipt`, perSecond(TRANSFERS, ms))
    const balanceOf = token.encodeFunctionData('balanceOf', [devnet.accounts[1]!.address])
    const callMs = await time(async () => {
      for (let i = 0; i < CALLS; i++) await send('eth_call', [{ to: tokenAddress, data: balanceOf }, 'latest'])
    })
    report(`${label}: eth_call balanceOf`, perSecond(CALLS, callMs))
    const numberMs = await time(async () => {
      for (let i = 0; i < CALLS; i++) await send('eth_blockNumber', [])
    })
    report(`${label}: eth_blockNumber`, perSecond(CALLS, numberMs))
    return (TRANSFERS / ms) * 1000
  } finally {
    await devnet.close()
  }
}

/**
 * The same raw transfers, decoded and run by @ethereumjs/vm's runTx directly: its
 * default state manager, one block object for all, and the same native ecrecover the
 * devnet uses, so the difference is the devnet's own work (pool checks, blocks,
 * records, persistence, JSON-RPC rendering).
 */
async function benchBaseline(): Promise<number> {
  const devnet = await createDevnet()
  const common = createCustomCommon({ chainId: 12345 }, Mainnet, { hardfork: 'istanbul', customCrypto: nativeCrypto })
  const vm = await createVM({ common })
  const sender = new Address(hexToBytes(devnet.accounts[0]!.address as `0x${string}`))
  await vm.stateManager.putAccount(sender, new Account(0n, 10n ** 22n))
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const deploy = await wallet.signTransaction({
    type: 0,
    chainId: 12345,
    nonce: 0,
    gasPrice: 1_000_000_000n,
    gasLimit: 3_000_000n,
    data: Token.bytecode + token.encodeDeploy(['Bench', 'BEN', 10n ** 30n]).slice(2),
  })
  const block = createBlock({ header: { number: 1n, timestamp: 1_700_000_000n, gasLimit: 2n ** 64n - 1n } }, { common })
  const created = await runTx(vm, { tx: createTxFromRLP(hexToBytes(deploy as `0x${string}`), { common }), block, skipHardForkValidation: true })
  const raws = await signTransfers(devnet, created.createdAddress!.toString(), 1, TRANSFERS)
  const bytes = raws.map((r) => hexToBytes(r as `0x${string}`))
  const ms = await time(async () => {
    for (let i = 0; i < bytes.length; i++) {
      await runTx(vm, { tx: createTxFromRLP(bytes[i]!, { common }), block, skipHardForkValidation: true })
    }
  })
  await devnet.close()
  report('baseline: @ethereumjs/vm runTx on the same raw transfers', perSecond(TRANSFERS, ms))
  return (TRANSFERS / ms) * 1000
}

/**
 * Snapshot and revert with `accounts` funded accounts in state: each round takes a
 * snapshot (timed), sends one transfer (not timed), reverts (timed).
 */
async function benchSnapshots(accounts: number): Promise<{ snapshot: number; revert: number }> {
  const devnet = await createDevnet({ accounts: 2 })
  for (let i = 0; i < accounts; i++) {
    await devnet.setBalance(`0x${(i + 1).toString(16).padStart(40, '0')}`, { gas: 10n ** 18n, main: 10n ** 9n })
  }
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const raw = await wallet.signTransaction({ type: 0, chainId: 12345, nonce: 0, to: devnet.accounts[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 1_000_000_000n })
  const rounds = 2000
  let snapshotMs = 0
  let revertMs = 0
  for (let i = 0; i < rounds + 200; i++) {
    let t = performance.now()
    const id = await devnet.snapshot()
    const took = performance.now() - t
    await devnet.rpc('eth_sendRawTransaction', [raw])
    t = performance.now()
    await devnet.revert(id)
    const reverted = performance.now() - t
    // The first 200 rounds warm the JIT up.
    if (i >= 200) {
      snapshotMs += took
      revertMs += reverted
    }
  }
  await devnet.close()
  const perOp = (ms: number) => (ms / rounds) * 1000
  report(`snapshot with ${accounts.toLocaleString('en-US')} funded accounts`, `${perOp(snapshotMs).toFixed(1)} µs`)
  report(`revert (one transfer since) with ${accounts.toLocaleString('en-US')} funded accounts`, `${perOp(revertMs).toFixed(1)} µs`)
  return { snapshot: perOp(snapshotMs), revert: perOp(revertMs) }
}

/** REST reads per second: get_blk_by_height and get_balance, in-process and over HTTP. */
async function benchRest(): Promise<void> {
  const devnet = await createDevnet({ accounts: 2 })
  await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: '0x1' }])
  const { restUrl } = await devnet.listen()
  const paths = { get_blk_by_height: '/api/v1/block/details/height/1', get_balance: `/api/v1/balance/${devnet.accounts[0]!.base58}` }
  for (const [name, path] of Object.entries(paths)) {
    const inProcess = await time(async () => {
      for (let i = 0; i < CALLS; i++) await devnet.rest.get(path)
    })
    report(`in-process: REST ${name}`, perSecond(CALLS, inProcess))
    const http = await time(async () => {
      for (let i = 0; i < CALLS; i++) await (await fetch(`${restUrl}${path}`)).json()
    })
    report(`HTTP: REST ${name}`, perSecond(CALLS, http))
  }
  await devnet.close()
}

async function benchMine(): Promise<void> {
  const devnet = await createDevnet({ accounts: 2 })
  const ms = await time(() => devnet.mine(100_000))
  report('mine(100,000) empty blocks', `${ms.toFixed(0)} ms`)
  await devnet.close()
}

console.log(`dualnet bench: ${TRANSFERS} transfers, ${CALLS} calls per figure, Node ${process.version}`)
await benchCreate()
const baseline = await benchBaseline()
const inProcess = await benchTransfers('in-process', async (d) => (m, p) => d.rpcUntyped(m, p))
await benchTransfers('HTTP', async (d) => httpSender((await d.listen()).rpcUrl))
await benchRest()
report('in-process transfer cost relative to the runTx baseline', `${(baseline / inProcess).toFixed(2)}x`)
const small = await benchSnapshots(2_000)
const large = await benchSnapshots(20_000)
report('snapshot cost, 20,000 vs 2,000 accounts', `${(large.snapshot / small.snapshot).toFixed(2)}x`)
report('revert cost, 20,000 vs 2,000 accounts', `${(large.revert / small.revert).toFixed(2)}x`)
await benchMine()
await benchLimit(TRANSFERS, inProcess, report)
