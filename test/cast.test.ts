/**
 * Foundry's `cast` (1.7.1, the @foundry-rs/cast binary; alloy underneath) against the
 * CLI's JSON-RPC port (issue 15): legacy sends, contract creation and calls, receipts
 * and transactions alloy can parse (`type`, `effectiveGasPrice`), logs, `cast run`
 * replaying a mined transaction, `cast rpc` controls, and the refusal of EIP-1559
 * sends. One CLI process serves the whole file; each step builds on the previous one.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AbiCoder, getCreateAddress, id } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { CHAIN_ID, GAS_TOKEN, GWEI } from './support.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const CAST = fileURLToPath(new URL('../node_modules/.bin/cast', import.meta.url))
/** Dev accounts 0 and 1 of the default mnemonic. */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

type Obj = Record<string, unknown>

describe('cast against the CLI', () => {
  let cli: ChildProcessWithoutNullStreams
  let rpcUrl: string
  let token: string
  let transferHash: string

  beforeAll(async () => {
    cli = spawn(process.execPath, ['--import', 'tsx', CLI, '--rpcport', '0', '--accounts', '2'], { stdio: 'pipe' })
    let output = ''
    rpcUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the CLI did not start:\n${output}`)), 20_000)
      cli.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const url = /^JSON-RPC {2}(http:\S+)$/m.exec(output)?.[1]
        if (url !== undefined) {
          clearTimeout(timer)
          resolve(url)
        }
      })
    })
  })
  afterAll(() => {
    cli?.kill('SIGTERM')
  })

  /** Runs cast with `args` against the CLI; resolves to its exit code, stdout and stderr. */
  function cast(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(CAST, args, { env: { ...process.env, ETH_RPC_URL: rpcUrl, NO_COLOR: '1' } }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout: stdout.trim(), stderr: stderr.trim() })
      })
    })
  }

  /** cast's stdout for a command that must succeed. */
  async function ok(...args: string[]): Promise<string> {
    const run = await cast(...args)
    expect(run.stderr === '' || run.code === 0, `cast ${args.join(' ')}: ${run.stderr}`).toBe(true)
    expect(run.code, `cast ${args.join(' ')}: ${run.stderr}`).toBe(0)
    return run.stdout
  }

  async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
    const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return ((await response.json()) as { result: unknown }).result
  }

  it('cast send --legacy of a value transfer: the receipt parses (type 0x0, effectiveGasPrice)', async () => {
    const receipt = JSON.parse(await ok('send', '--legacy', '--private-key', KEY, TO, '--value', '1000', '--json')) as Obj
    expect(receipt).toMatchObject({ type: '0x0', status: '0x1', from: FROM, to: TO, gasUsed: '0x5208', effectiveGasPrice: '0x0', blockNumber: '0x1' })
    expect(await rpc('eth_getTransactionReceipt', [receipt.transactionHash])).toMatchObject({ type: '0x0', effectiveGasPrice: '0x0' })
  })

  it('cast send --legacy --create deploys the ERC20 fixture at the CREATE address', async () => {
    const receipt = JSON.parse(
      await ok('send', '--legacy', '--private-key', KEY, '--gas-price', '1gwei', '--create', Token.bytecode, 'constructor(string,string,uint256)', 'Token', 'TOK', '1000000', '--json'),
    ) as Obj
    token = getCreateAddress({ from: FROM, nonce: 1 }).toLowerCase()
    expect(receipt).toMatchObject({ type: '0x0', status: '0x1', contractAddress: token, to: null, effectiveGasPrice: `0x${GWEI.toString(16)}` })
    expect(await ok('code', token)).toBe(Token.deployedBytecode)
  })

  it('cast send --legacy of a contract call, then cast receipt, cast tx and cast call read it', async () => {
    const receipt = JSON.parse(await ok('send', '--legacy', '--private-key', KEY, token, 'transfer(address,uint256)', TO, '5', '--json')) as Obj
    transferHash = receipt.transactionHash as string
    expect(receipt).toMatchObject({ type: '0x0', status: '0x1', to: token })
    const logs = receipt.logs as Obj[]
    // The token's Transfer, then the fee's synthetic Transfer from the gas token (gas price 1 gwei from eth_gasPrice).
    expect(logs.map((l) => l.address)).toEqual([token, GAS_TOKEN])
    expect(logs[0]).toMatchObject({ topics: [id('Transfer(address,address,uint256)'), `0x${FROM.slice(2).padStart(64, '0')}`, `0x${TO.slice(2).padStart(64, '0')}`] })

    // Independent reads, run side by side.
    const [readJson, status, txJson, balance] = await Promise.all([
      ok('receipt', transferHash, '--json'),
      ok('receipt', transferHash, 'status'),
      ok('tx', transferHash, '--json'),
      ok('call', token, 'balanceOf(address)(uint256)', TO),
    ])
    expect(JSON.parse(readJson)).toMatchObject({ type: '0x0', status: '0x1', transactionHash: transferHash, gasUsed: receipt.gasUsed, effectiveGasPrice: `0x${GWEI.toString(16)}` })
    expect(status).toBe('true')
    expect(JSON.parse(txJson)).toMatchObject({ type: '0x0', hash: transferHash, from: FROM, to: token, nonce: '0x2', gasPrice: `0x${GWEI.toString(16)}`, chainId: `0x${CHAIN_ID.toString(16)}` })
    expect(balance).toBe('5')
  })

  it("cast logs finds the token's Transfer events", async () => {
    const logs = JSON.parse(await ok('logs', '--from-block', '0', '--address', token, 'Transfer(address indexed,address indexed,uint256)', '--json')) as Obj[]
    expect(logs.map((l) => l.data)).toEqual([1_000_000n, 5n].map((v) => AbiCoder.defaultAbiCoder().encode(['uint256'], [v])))
    expect(logs[1]).toMatchObject({ transactionHash: transferHash, blockNumber: '0x3' })
  })

  it('cast run --evm-version istanbul replays the mined transfer; the trace names the function', async () => {
    const out = await ok('run', '--evm-version', 'istanbul', transferHash)
    expect(out).toMatch(new RegExp(`::transfer\\(${TO}, 5\\)`, 'i'))
    expect(out).toContain('emit Transfer(')
    expect(out).toContain('Transaction successfully executed.')
    const gasUsed = BigInt(((await rpc('eth_getTransactionReceipt', [transferHash])) as Obj).gasUsed as string)
    expect(out).toContain(`Gas used: ${gasUsed}`)
  })

  it('cast rpc evm_snapshot / evm_revert undo a transfer', async () => {
    const height = await rpc('eth_blockNumber')
    const snapshot = JSON.parse(await ok('rpc', 'evm_snapshot')) as string
    expect(snapshot).toMatch(/^0x[0-9a-f]+$/)
    await ok('send', '--legacy', '--async', '--private-key', KEY, TO, '--value', '1')
    expect(BigInt((await rpc('eth_blockNumber')) as string)).toBe(BigInt(height as string) + 1n)
    expect(await ok('rpc', 'evm_revert', snapshot)).toBe('true')
    expect(await rpc('eth_blockNumber')).toBe(height)
  })

  it("cast send without --legacy fails: cast itself on plain defaults, the node's message naming --legacy once it sends", async () => {
    // Fee estimation: eth_feeHistory answers zero base fees, alloy then reads the latest
    // block, finds no baseFeePerGas and stops before sending (nothing reaches the pool).
    const height = await rpc('eth_blockNumber')
    const fees = ['--gas-price', '1gwei', '--priority-gas-price', '0']
    const [plain, typed, estimate] = await Promise.all([
      cast('send', '--private-key', KEY, TO, '--value', '1'),
      cast('send', '--private-key', KEY, ...fees, '--gas-limit', '21000', TO, '--value', '1'),
      cast('send', '--private-key', KEY, ...fees, TO, '--value', '1'),
    ])
    // cast 1.7.1 exits with 0 after a failed send: the error is on stderr and no receipt on stdout.
    expect(plain.stdout).toBe('')
    expect(plain.stderr).toBe('Error: unsupported feature: eip1559')
    // With the EIP-1559 fees given, cast sends a type-2 transaction: the node refuses it
    // and says what to do.
    expect(typed.stdout).toBe('')
    expect(typed.stderr).toBe(
      "Error: server returned an error response: error code -32000: rlp: expected input list for types.txdata: typed transaction (type 2) not supported; the chain takes legacy (type 0) transactions only: send with cast --legacy, ethers { type: 0 }, viem { type: 'legacy' }",
    )
    // Without a gas limit, its estimate carries the fee fields and is refused the same way.
    expect(estimate.stderr).toContain('EIP-1559 fee fields are not supported: the chain takes legacy (type 0) transactions only: send with cast --legacy')
    expect(await rpc('eth_blockNumber')).toBe(height)
  })
})

describe('eth_feeHistory and eth_maxPriorityFeePerGas: a chain without base fee (go-ethereum shapes)', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 1 })
    const from = devnet.accounts[0]!.address
    await devnet.rpc('eth_sendTransaction', [{ from, to: from, value: '0x1', gas: '0x5208', gasPrice: '0x3b9aca00' }])
    await devnet.mine(2)
  })
  afterAll(async () => {
    await devnet.close()
  })

  it('zero base fees (one more than the blocks), gas used / 6,000,000 per block, zero rewards per percentile', async () => {
    expect(await devnet.rpc('eth_feeHistory', ['0x2', 'latest', [25, 75]])).toEqual({
      oldestBlock: '0x2',
      baseFeePerGas: ['0x0', '0x0', '0x0'],
      gasUsedRatio: [0, 0],
      reward: [
        ['0x0', '0x0'],
        ['0x0', '0x0'],
      ],
    })
    expect(await devnet.rpc('eth_feeHistory', [10, '0x1'])).toEqual({
      oldestBlock: '0x0',
      baseFeePerGas: ['0x0', '0x0', '0x0'],
      gasUsedRatio: [0, 21_000 / 6_000_000],
    })
    expect(await devnet.rpc('eth_feeHistory', ['0x0', 'latest'])).toEqual({ oldestBlock: '0x0' })
    expect(await devnet.rpc('eth_maxPriorityFeePerGas')).toBe('0x0')
  })

  it('refuses bad percentiles, a block above the tip and malformed arguments', async () => {
    const fails = (params: unknown[]) =>
      devnet.rpcUntyped('eth_feeHistory', params).then(
        () => undefined,
        (e: { code: number; message: string }) => [e.code, e.message],
      )
    expect(await fails(['0x1', 'latest', [101]])).toEqual([-32000, 'invalid reward percentile: 101'])
    expect(await fails(['0x1', 'latest', [50, 10]])).toEqual([-32000, 'invalid reward percentile: #0:50 > #1:10'])
    expect(await fails(['0x1', '0x64'])).toEqual([-32000, 'request beyond head block: requested 100, head 3'])
    expect(await fails(['0x1', 'latest', ['50']])).toEqual([-32602, 'invalid argument 2: json: cannot unmarshal into Go value of type []float64'])
    expect(await fails(['0x1'])).toEqual([-32602, 'missing value for required argument 1'])
    expect(await fails([])).toEqual([-32602, 'missing value for required argument 0'])
  })
})
