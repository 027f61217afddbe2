/**
 * Each CLI flag's effect, observed over JSON-RPC and REST on a running `dualnet`
 * (issue 19 item 4). Spawning is slow on a busy machine, so independent flags share
 * one process: a chain-and-accounts one, a clock-and-pricing one (which is also the
 * default-hardfork comparison) and a limits one. The last test checks that every flag
 * of the program is exercised here or in the file named for it.
 */
import { request } from 'node:http'
import { p256 } from '@noble/curves/nist.js'
import { HDNodeWallet, Interface } from 'ethers'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliProgram } from '../src/cli/flags.ts'
import { FLAG_ALIASES } from '../src/cli/flagAliases.ts'
import { freePort, rpcAnswer, rpcCall, started, stop, waitFor, type RunningCli } from './cli-support.ts'

const GWEI = 10n ** 9n
const ETHER = 10n ** 18n
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const BOOKKEEPER_KEY = '0x' + '11'.repeat(32)
/** Init code PUSH0 PUSH0 RETURN: deploys empty code from Shanghai on; an invalid opcode before. */
const PUSH0_INIT = '0x5f5ff3'
/** Creation code JUMPDEST PUSH1 0 JUMP: loops until its gas runs out. */
const LOOP = '0x5b600056'
/** hardhat/console.sol's address: a call to it is a console.log. */
const CONSOLE = '0x000000000000000000636F6e736F6c652e6c6f67'

type Block = { number: string; timestamp: string }
type Receipt = { status: string; blockNumber: string; contractAddress: string | null }
type Running = RunningCli & { rpcUrl: string; restUrl: string | undefined }

/** Creation code TIMESTAMP PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: eth_call of it answers the TIMESTAMP the call ran with. */
const READ_TIMESTAMP = '0x4260005260206000f3'

/** The TIMESTAMP an eth_call at `block` runs with, and that block's own timestamp. */
async function callTimestamp(url: string, block: string): Promise<{ call: number; block: number }> {
  const call = Number(await rpcCall(url, 'eth_call', [{ data: READ_TIMESTAMP }, block]))
  return { call, block: Number(((await rpcCall(url, 'eth_getBlockByNumber', [block, false])) as Block).timestamp) }
}

/** The HTTP status of eth_chainId sent to `url` with the Host header `host` (fetch cannot set it). */
function statusWithHost(url: string, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const consoleLog = (text: string) => new Interface(['function log(string)']).encodeFunctionData('log', [text])

/** Keys m/44'/60'/0'/0/i of `mnemonic`, derived by ethers (not by dualnet's code). */
const addressesOf = (mnemonic: string, n: number) => Array.from({ length: n }, (_, i) => HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${i}`).address.toLowerCase())

async function receiptOf(url: string, hash: unknown): Promise<Receipt | null> {
  return (await rpcCall(url, 'eth_getTransactionReceipt', [hash])) as Receipt | null
}

async function rest(url: string, path: string): Promise<Record<string, unknown>> {
  return ((await (await fetch(`${url}${path}`)).json()) as { Result: Record<string, unknown> }).Result
}

describe('CLI flags: chain and accounts', () => {
  // --hardfork shanghai --mnemonic --balance --accounts --native-accounts --timestamp --clock frozen --no-mining --min-gas-price --chain-id -p --rest --restport
  let cli: Running
  let port: number
  beforeAll(async () => {
    port = await freePort()
    cli = await started([
      '--hardfork',
      'shanghai',
      '--mnemonic',
      MNEMONIC,
      '--balance',
      '500',
      '--accounts',
      '2',
      '--native-accounts',
      '1',
      '--timestamp',
      '1700000000',
      '--clock',
      'frozen',
      '--no-mining',
      '--min-gas-price',
      '2',
      '--chain-id',
      '31337',
      '-p',
      String(port),
      '--rest',
      '--restport',
      '0',
      '--quiet',
    ])
  }, 120_000)
  afterAll(async () => {
    if (cli !== undefined) expect(await stop(cli)).toBe(0)
  })

  it('-p is the JSON-RPC port; --chain-id; --rest --restport 0 serves REST', async () => {
    expect(cli.rpcUrl).toBe(`http://127.0.0.1:${port}`)
    expect(await rpcCall(cli.rpcUrl, 'eth_chainId')).toBe('0x7a69')
    expect(cli.restUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await rest(cli.restUrl!, '/api/v1/block/height')).toBe(0)
  })

  it("--mnemonic and --accounts: the dev accounts are the mnemonic's first two; --native-accounts 1", async () => {
    expect(await rpcCall(cli.rpcUrl, 'eth_accounts')).toEqual(addressesOf(MNEMONIC, 2))
    expect(addressesOf(MNEMONIC, 1)[0]).toBe('0x9858effd232b4033e47d90003d41ec34ecaeda94')
    expect(cli.output().match(/^\(\d+\) A\w{33} {2}0x[0-9a-f]{40}$/gm)).toHaveLength(1)
  })

  it('--balance 500: 500 gas tokens (eth_getBalance, wei) and 500 main tokens (REST, 1e-9 units) per dev account', async () => {
    expect(cli.output()).toContain('Dev accounts (500 main and 500 gas each):')
    const [first] = addressesOf(MNEMONIC, 1)
    expect(BigInt((await rpcCall(cli.rpcUrl, 'eth_getBalance', [first, 'latest'])) as string)).toBe(500n * ETHER)
    const base58 = /^\(0\) 0x[0-9a-fA-F]{40} {2}(A\w{33})$/m.exec(cli.output())![1]
    expect(await rest(cli.restUrl!, `/api/v1/balancev2/${base58}`)).toMatchObject({ main: String(500n * GWEI), gas: String(500n * ETHER) })
  })

  it('--min-gas-price 2: eth_gasPrice is 2 gwei and 1 gwei is refused; --no-mining leaves a transaction pending; --hardfork shanghai runs PUSH0; --timestamp and --clock frozen stamp the blocks', async () => {
    const [from, to] = addressesOf(MNEMONIC, 2)
    expect(await rpcCall(cli.rpcUrl, 'eth_gasPrice')).toBe('0x77359400')
    const low = await rpcAnswer(cli.rpcUrl, 'eth_sendTransaction', [{ from, to, value: '0x1', gas: '0x5208', gasPrice: `0x${GWEI.toString(16)}` }])
    expect(low.error?.message).toContain('gasPrice >= 2')

    const transfer = await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, to, value: '0x1', gas: '0x5208', gasPrice: '0x77359400' }])
    const create = await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, data: PUSH0_INIT, gas: '0x186a0', gasPrice: '0x77359400' }])
    expect(await receiptOf(cli.rpcUrl, transfer)).toBeNull()
    expect(await rpcCall(cli.rpcUrl, 'eth_blockNumber')).toBe('0x0')
    expect(await rpcCall(cli.rpcUrl, 'txpool_status')).toEqual({ pending: '0x2', queued: '0x0' })

    await rpcCall(cli.rpcUrl, 'evm_mine')
    expect((await receiptOf(cli.rpcUrl, transfer))?.status).toBe('0x1')
    expect(await receiptOf(cli.rpcUrl, create)).toMatchObject({ status: '0x1', blockNumber: '0x1' })
    const [genesis, first] = (await Promise.all(['0x0', '0x1'].map((n) => rpcCall(cli.rpcUrl, 'eth_getBlockByNumber', [n, false])))) as Block[]
    expect(Number(genesis!.timestamp)).toBe(1_700_000_000)
    expect(Number(first!.timestamp)).toBe(1_700_000_001)
  })

  it("defaults: --client-version hardhat, --block-context node (a call at block N runs at N's timestamp + 1), --vhosts localhost", async () => {
    expect(await rpcCall(cli.rpcUrl, 'web3_clientVersion')).toMatch(/^HardhatNetwork\/dualnet\/v\d/)
    const { call, block } = await callTimestamp(cli.rpcUrl, '0x1')
    expect(call).toBe(block + 1)
    expect(await statusWithHost(cli.rpcUrl, `localhost:${port}`)).toBe(200)
    expect(await statusWithHost(cli.rpcUrl, 'rebinding.example')).toBe(403)
  })

  it('unbound gas stays off without --unbound-gas; console.log lines print without --disable-console-log', async () => {
    await rpcCall(cli.rpcUrl, 'evm_increaseTime', [1000])
    await rpcCall(cli.rpcUrl, 'evm_mine')
    const base58 = /^\(0\) 0x[0-9a-fA-F]{40} {2}(A\w{33})$/m.exec(cli.output())![1]
    expect(await rest(cli.restUrl!, `/api/v1/grantgas/${base58}`)).toBe('0')
    await rpcCall(cli.rpcUrl, 'eth_call', [{ to: CONSOLE, data: consoleLog('console on') }, 'latest'])
    await waitFor(() => cli.output().includes('console on\n'))
  })
})

describe('CLI flags: clock and pricing, the default hardfork', () => {
  // --gas-price --clock <step> --timestamp --block-time --bookkeeper-key --unbound-gas <deadline> --disable-console-log --native-accounts 0 --block-context --profile --empty-storage --client-version --trace-timeout --batch-trace-timeout --state-limit
  let cli: Running
  beforeAll(async () => {
    cli = await started([
      // An ephemeral port: the default 20339 may be taken (a node, another checkout's tests).
      '--rpcport',
      '0',
      '--accounts',
      '1',
      '--native-accounts',
      '0',
      '--gas-price',
      '3000000000',
      '--clock',
      '5',
      '--timestamp',
      '1600000000',
      '--block-time',
      '1',
      '--bookkeeper-key',
      BOOKKEEPER_KEY,
      '--unbound-gas',
      '100',
      '--disable-console-log',
      '--rest',
      '--restport',
      '0',
      '--quiet',
      '--block-context',
      'ethereum',
      '--profile',
      'ethereum',
      '--empty-storage',
      'node',
      '--client-version',
      'node',
      '--trace-timeout',
      '200',
      '--batch-trace-timeout',
      '300',
      '--state-limit',
      '100',
    ])
  }, 120_000)
  afterAll(async () => {
    if (cli !== undefined) expect(await stop(cli)).toBe(0)
  })

  it('--block-time 1 mines without requests; --clock 5 puts each block 5 s after its parent from --timestamp', async () => {
    const until = Date.now() + 30_000
    while (Number(await rpcCall(cli.rpcUrl, 'eth_blockNumber')) < 2) {
      if (Date.now() > until) throw new Error('no interval-mined block')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const head = (await rpcCall(cli.rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as Block
    expect(Number(head.timestamp)).toBe(1_600_000_000 + 5 * Number(head.number))
  })

  it('--gas-price 3000000000 (wei): eth_gasPrice is 3 gwei and 2 gwei is refused; --native-accounts 0', async () => {
    const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    expect(await rpcCall(cli.rpcUrl, 'eth_gasPrice')).toBe('0xb2d05e00')
    const low = await rpcAnswer(cli.rpcUrl, 'eth_sendTransaction', [{ from, to: from, value: '0x1', gas: '0x5208', gasPrice: '0x77359400' }])
    expect(low.error?.message).toContain('gasPrice >= 3')
    expect(cli.output()).not.toMatch(/^\(\d+\) A\w{33} {2}0x/m)
  })

  it('without --hardfork, istanbul: PUSH0 is an invalid opcode (status 0)', async () => {
    const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    const hash = await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, data: PUSH0_INIT, gas: '0x186a0', gasPrice: '0xb2d05e00' }])
    expect((await receiptOf(cli.rpcUrl, hash))?.status).toBe('0x0')
  })

  it("--client-version node: the real node's string; --block-context ethereum: a call at block N runs at N's own timestamp", async () => {
    expect(await rpcCall(cli.rpcUrl, 'web3_clientVersion')).toMatch(/^Ontology-v\d/)
    const { call, block } = await callTimestamp(cli.rpcUrl, '0x1')
    expect(call).toBe(block)
  })

  it('--profile ethereum with --empty-storage node: the switch wins, an empty slot answers the node\'s "0x"', async () => {
    expect(await rpcCall(cli.rpcUrl, 'eth_getStorageAt', ['0x00000000000000000000000000000000000c0de1', '0x0', 'latest'])).toBe('0x')
  })

  it('--bookkeeper-key: blocks are signed by that key', async () => {
    const block = (await rest(cli.restUrl!, '/api/v1/block/details/height/1')) as { Header: { Bookkeepers: string[] } }
    expect(block.Header.Bookkeepers).toEqual([Buffer.from(p256.getPublicKey(Buffer.from(BOOKKEEPER_KEY.slice(2), 'hex'))).toString('hex')])
  })

  it('--unbound-gas 100: grant gas accrues, and stops 100 s after genesis', async () => {
    const [address] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    const base58 = /^\(0\) 0x[0-9a-fA-F]{40} {2}(A\w{33})$/m.exec(cli.output())![1]
    expect(address).toBeDefined()
    await rpcCall(cli.rpcUrl, 'evm_increaseTime', [1000])
    await rpcCall(cli.rpcUrl, 'evm_mine')
    const granted = await rest(cli.restUrl!, `/api/v1/grantgas/${base58}`)
    expect(BigInt(granted as unknown as string)).toBeGreaterThan(0n)
    await rpcCall(cli.rpcUrl, 'evm_increaseTime', [1000])
    await rpcCall(cli.rpcUrl, 'evm_mine')
    expect(await rest(cli.restUrl!, `/api/v1/grantgas/${base58}`)).toBe(granted)
  })

  it('--trace-timeout 200 stops one trace; --batch-trace-timeout 300 stops the traces of a batch, even those with a longer tracer timeout', async () => {
    const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    const loop = { from, data: LOOP, gas: '0x5b8d80' }
    expect((await rpcAnswer(cli.rpcUrl, 'debug_traceCall', [loop, 'latest', { disableStack: true }])).error).toEqual({
      code: -32000,
      message: 'execution timeout: the trace ran past 200 ms (option traceTimeout, or the tracer option timeout)',
    })
    const trace = (id: number) => ({ jsonrpc: '2.0', id, method: 'debug_traceCall', params: [loop, 'latest', { disableStack: true, timeout: '10s' }] })
    const response = await fetch(cli.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([trace(1), trace(2)]) })
    const byBatch = { code: -32000, message: 'execution timeout: the trace calls of this batch ran past 300 ms in all (option batchTraceTimeout)' }
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, error: byBatch },
      { jsonrpc: '2.0', id: 2, error: byBatch },
    ])
  })

  it('--state-limit 100: anvil_loadState of a longer document is -32602', async () => {
    const document = Buffer.from(JSON.stringify({ accounts: {}, note: 'x'.repeat(100) }))
    expect((await rpcAnswer(cli.rpcUrl, 'anvil_loadState', [`0x${document.toString('hex')}`])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: state document larger than 100 bytes of JSON (option stateLimit)',
    })
  })

  it('--disable-console-log: a console.log call prints nothing', async () => {
    await rpcCall(cli.rpcUrl, 'eth_call', [{ to: CONSOLE, data: consoleLog('console off') }, 'latest'])
    // The same call prints at once in the other process; give this one time to have printed it.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(cli.output()).not.toContain('console off')
  })
})

describe('CLI flags: limits and CORS', () => {
  let cli: Running
  beforeAll(async () => {
    cli = await started([
      '--rpcport',
      '0',
      '--accounts',
      '1',
      '--body-limit',
      '2000',
      '--batch-limit',
      '2',
      '--batch-response-limit',
      '300',
      '--hex-limit',
      '64',
      '--json-depth-limit',
      '4',
      '--logs-block-range',
      '2',
      '--logs-result-limit',
      '1',
      '--filter-limit',
      '1',
      '--subscription-limit',
      '1',
      '--trace-size-limit',
      '100',
      '--mine-limit',
      '3',
      '--cors',
      'https://a.example, https://b.example',
      '--vhosts',
      'dualnet.test,Other.Example',
      '--quiet',
    ])
  }, 120_000)
  afterAll(async () => {
    if (cli !== undefined) expect(await stop(cli)).toBe(0)
  })

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(cli.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const call = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params })

  it('--body-limit 2000 and --batch-limit 2', async () => {
    expect((await post(call(1, 'eth_call', [{ data: `0x${'00'.repeat(1000)}` }]))).status).toBe(413)
    const batch = (await (await post([call(1, 'eth_chainId'), call(2, 'eth_chainId'), call(3, 'eth_chainId')])).json()) as { error: { message: string } }[]
    expect(batch[0]!.error.message).toBe('batch too large: the limit is 2 requests (option batchLimit)')
  })

  it('--batch-response-limit 300: the second answer of a batch past 300 bytes is -32003', async () => {
    const answers = (await (await post([call(1, 'eth_getBlockByNumber', ['0x0', true]), call(2, 'eth_chainId')])).json()) as { id: number; error?: { code: number } }[]
    expect(answers.find((a) => a.id === 2)?.error?.code).toBe(-32003)
  })

  it('--hex-limit 64: -32602; --json-depth-limit 4: -32700', async () => {
    expect((await rpcAnswer(cli.rpcUrl, 'eth_call', [{ data: `0x${'00'.repeat(33)}` }, 'latest'])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: string of 68 characters, longer than the limit of 64 hex digits (option hexLimit)',
    })
    expect((await rpcAnswer(cli.rpcUrl, 'eth_call', [{ data: [[[['0x']]]] }, 'latest'])).error).toEqual({
      code: -32700,
      message: 'parse error: JSON nested deeper than 4 levels (option jsonDepthLimit)',
    })
  })

  it('--mine-limit 3, --logs-block-range 2, --logs-result-limit 1', async () => {
    await rpcCall(cli.rpcUrl, 'hardhat_mine', ['0x3'])
    expect((await rpcAnswer(cli.rpcUrl, 'hardhat_mine', ['0x4'])).error?.message).toContain('cannot mine 4 blocks in one call')
    expect((await rpcAnswer(cli.rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }])).error?.message).toBe('the span between fromBlock and toBlock must be less than or equal to 2')
    const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    // Each fee pays governance with a gas-token Transfer log: two transactions, two logs.
    for (let i = 0; i < 2; i++) await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, to: from, gas: '0x5208', gasPrice: '0x3b9aca00' }])
    expect((await rpcAnswer(cli.rpcUrl, 'eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x5' }])).error?.message).toBe('query returned more than 1 results (option logsResultLimit)')
  })

  it('--filter-limit 1 and --subscription-limit 1', async () => {
    await rpcCall(cli.rpcUrl, 'eth_newBlockFilter')
    expect((await rpcAnswer(cli.rpcUrl, 'eth_newBlockFilter')).error?.message).toContain('too many filters')
    const socket = new WebSocket(cli.rpcUrl.replace(/^http/, 'ws'))
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    const answers: { id: number; result?: string; error?: { message: string } }[] = []
    socket.on('message', (data: Buffer) => answers.push(JSON.parse(data.toString())))
    socket.send(JSON.stringify(call(1, 'eth_subscribe', ['newHeads'])))
    socket.send(JSON.stringify(call(2, 'eth_subscribe', ['newHeads'])))
    await waitFor(() => answers.length >= 2)
    socket.close()
    expect(answers.find((a) => a.id === 1)?.result).toMatch(/^0x/)
    expect(answers.find((a) => a.id === 2)?.error?.message).toContain('too many subscriptions')
  })

  it('--trace-size-limit 100: a struct-log trace past 100 bytes is refused', async () => {
    const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
    const answer = await rpcAnswer(cli.rpcUrl, 'debug_traceCall', [{ from, data: PUSH0_INIT.replace('5f5f', '60006000') }, 'latest'])
    expect(answer.error?.message).toContain('trace larger than 100 bytes')
  })

  it('--vhosts: the listed names (any case, any port) and IP addresses are answered, other names get 403', async () => {
    expect(await statusWithHost(cli.rpcUrl, 'other.example:8545')).toBe(200)
    expect(await statusWithHost(cli.rpcUrl, 'dualnet.test')).toBe(200)
    expect(await statusWithHost(cli.rpcUrl, '127.0.0.1')).toBe(200)
    expect(await statusWithHost(cli.rpcUrl, 'localhost')).toBe(403)
  })

  it('--cors: listed origins are allowed, others get no CORS header', async () => {
    const allowed = await post(call(1, 'eth_chainId'), { origin: 'https://b.example' })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://b.example')
    const other = await post(call(1, 'eth_chainId'), { origin: 'https://c.example' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

/** Flags whose effects other files test, and where. */
const TESTED_ELSEWHERE: Record<string, string> = {
  '--version': 'test/cli-flag-values.test.ts',
  '--help': 'test/cli-flag-values.test.ts',
  '--rpcport': 'test/cli.test.ts',
  '--host': 'test/limits.test.ts (0.0.0.0 and its warning)',
  '--quiet': 'test/cli.test.ts',
  '--db': 'test/persistence.test.ts',
  '--gas-snapshot': 'test/cli-gas-snapshot.test.ts',
  '--gas-snapshot-check': 'test/cli-gas-snapshot.test.ts',
  '--gas-snapshot-tolerance': 'test/cli-gas-snapshot.test.ts',
  '--coverage': 'test/coverage-cli.test.ts',
  '--artifacts': 'test/explorer.test.ts',
  '--coverage-dir': 'test/coverage-cli.test.ts',
  '--gas-report': 'test/coverage-cli.test.ts',
  '--gas-report-dir': 'test/coverage-cli.test.ts',
  '--load-state': 'test/dump-state.test.ts',
  '--dump-state': 'test/dump-state.test.ts',
  '--state': 'test/dump-state.test.ts',
  '--fork-url': 'test/fork-options.test.ts, test/fork-state.test.ts',
  '--fork-block-number': 'test/fork-options.test.ts',
  '--fork-rest-url': 'test/fork-options.test.ts, test/fork-native.test.ts',
  '--fork-cache': 'test/fork-options.test.ts',
  '--no-fork-cache': 'test/fork-options.test.ts',
  '--ws-buffer-limit': 'test/websocket-backpressure.test.ts',
  '--state-root': 'test/state-root.test.ts (the default, merkle roots, the refusal)',
  '--explorer': 'test/cli-flag-values.test.ts, test/explorer.test.ts (the banner and the page)',
  // Each alias sets what the flag it stands for sets.
  ...Object.fromEntries(FLAG_ALIASES.map(({ alias }) => [alias, 'test/cli-flag-values.test.ts (aliases)'])),
}

it('every flag of the program is exercised here or in the file named for it', async () => {
  const source = await import('node:fs').then((fs) => fs.readFileSync(new URL(import.meta.url), 'utf8'))
  const here = source.slice(0, source.indexOf('/** Flags whose effects other files test'))
  const flags = cliProgram().options.map((o) => o.long!)
  const untested = flags.filter((flag) => TESTED_ELSEWHERE[flag] === undefined && !here.includes(`'${flag === '--port' ? '-p' : flag}'`))
  expect(untested).toEqual([])
})
