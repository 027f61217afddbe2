/**
 * Otterscan's API (issue 34 item 2; otterscan docs/custom-jsonrpc.md): every ots_ method's
 * shape and erigon_getHeaderByNumber, on a chain with a contract creation, an internal
 * value transfer, a revert with a reason and a native transfer; in process and over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, TraceCallee, TraceCaller } from '../fixtures/index.ts'

const STRANGER = `0x${'ab'.repeat(20)}`
const GWEI = '0x3b9aca00'

let devnet: Devnet
let rpcUrl: string
let from: string
let reverter: string
let callee: string
let caller: string
let deployHash: string
let revertHash: string
let runHash: string

/** Sends a transaction from the first dev account and answers its receipt. */
async function send(fields: Record<string, string>): Promise<{ hash: string; blockNumber: string; contractAddress: string | null; status: string }> {
  const hash = await devnet.rpc('eth_sendTransaction', [{ from, gasPrice: GWEI, gas: '0x2dc6c0', ...fields }])
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
  return { hash, blockNumber: receipt.blockNumber, contractAddress: receipt.contractAddress ?? null, status: receipt.status }
}

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 2, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  from = devnet.accounts[0]!.address
  const r = await send({ data: Reverter.bytecode })
  reverter = r.contractAddress!
  deployHash = r.hash
  callee = (await send({ data: TraceCallee.bytecode })).contractAddress!
  const args = new Interface(TraceCaller.abi as never).encodeDeploy([callee]).slice(2)
  caller = (await send({ data: TraceCaller.bytecode + args })).contractAddress!
  revertHash = (await send({ to: reverter, data: new Interface(Reverter.abi as never).encodeFunctionData('revertWithReason') })).hash
  runHash = (await send({ to: caller, value: '0x7', data: new Interface(TraceCaller.abi as never).encodeFunctionData('run') })).hash
})

afterAll(async () => {
  await devnet?.close()
})

/** One JSON-RPC call over HTTP: its result, or its error object. */
async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as never
}

describe('the start-up probes', () => {
  it('ots_getApiLevel answers 8 and erigon_getHeaderByNumber the header', async () => {
    expect(await devnet.rpc('ots_getApiLevel')).toBe(8)
    expect((await overHttp('ots_getApiLevel', [])).result).toBe(8)
    const header = (await devnet.rpc('erigon_getHeaderByNumber', ['0x1']))!
    expect(header).toEqual(await devnet.rpc('eth_getHeaderByNumber', ['0x1']))
    expect(header.number).toBe('0x1')
    expect(await devnet.rpc('erigon_getHeaderByNumber', ['0xffff'])).toBeNull()
  })
})

describe('blocks, code and errors', () => {
  it('ots_getBlockDetails and ByHash: the block without transactions, its count, zero issuance and fees', async () => {
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!
    const block = (await devnet.rpc('eth_getBlockByNumber', [receipt.blockNumber, false]))!
    const details = (await devnet.rpc('ots_getBlockDetails', [receipt.blockNumber]))!
    const { transactions, logsBloom: _bloom, ...rest } = block
    expect(details.block).toEqual({ ...rest, logsBloom: null, transactionCount: transactions.length })
    expect(details.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' })
    expect(BigInt(details.totalFees)).toBe(BigInt(receipt.gasUsed) * 1_000_000_000n)
    expect(await devnet.rpc('ots_getBlockDetailsByHash', [block.hash])).toEqual(details)
    expect((await overHttp('ots_getBlockDetails', [receipt.blockNumber])).result).toEqual(details)
    expect(await devnet.rpc('ots_getBlockDetails', ['0xffff'])).toBeNull()
    expect(await devnet.rpc('ots_getBlockDetailsByHash', [`0x${'11'.repeat(32)}`])).toBeNull()
  })

  it('ots_hasCode: true for a contract, false for an account without code', async () => {
    expect(await devnet.rpc('ots_hasCode', [reverter, 'latest'])).toBe(true)
    expect(await devnet.rpc('ots_hasCode', [STRANGER, 'latest'])).toBe(false)
    const deployedAt = BigInt((await devnet.rpc('eth_getTransactionReceipt', [deployHash]))!.blockNumber)
    expect(await devnet.rpc('ots_hasCode', [reverter, `0x${(deployedAt - 1n).toString(16)}`])).toBe(false)
  })

  it('ots_getTransactionError: the revert data of a failed transaction, 0x otherwise', async () => {
    const data = await devnet.rpc('ots_getTransactionError', [revertHash])
    expect(data.startsWith('0x08c379a0')).toBe(true)
    const [reason] = new Interface(['error Error(string)']).decodeErrorResult('Error', data)
    expect(reason).toMatch(/./)
    expect(await devnet.rpc('ots_getTransactionError', [runHash])).toBe('0x')
    expect(await devnet.rpc('ots_getTransactionError', [`0x${'11'.repeat(32)}`])).toBe('0x')
  })
})
