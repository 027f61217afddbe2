/**
 * History before the fork against Anvil (docs/fork.md), the EVM view only: a fork of
 * an Anvil node with history (a deploy, a token transfer, a reverted call, two
 * transactions in one block) answers blocks, transactions, receipts, counts, logs and
 * traces at or below the fork block with Anvil's own results, and eth_getLogs across
 * the fork block joins Anvil's logs and the fork's. Run by `npm run test:tools`
 * (vitest.tools.config.ts): Anvil is Foundry's binary, installed once into a cache
 * directory (test/foundry-support.ts; `DUALNET_ANVIL_DIR` names a directory that has it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContractFactory, Interface, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, Token } from '../fixtures/index.ts'
import { rawRpc, rpcResult, STRANGER } from './fork-support.ts'
import { startAnvil, type Anvil } from './anvil-support.ts'
import { addressTopic, TRANSFER_TOPIC, word } from './support.ts'

/** Anvil's dev account 0 (the same mnemonic as dualnet's). */
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const GAS_PRICE = '0x2540be400' // 10 gwei, above Anvil's base fee
const tokenAbi = new Interface(Token.abi as InterfaceAbi)

let anvil: Anvil | undefined
let anvilUrl: string
let fork: Devnet
let forkUrl: string
let token: string
let reverter: string
const txs: Record<number, string[]> = {}
let forkBlock: number

/** Sends from Anvil's unlocked account 0 and waits for its receipt (Anvil's automine may answer the hash before the block is in). */
async function send(fields: Record<string, string>): Promise<{ hash: string; contractAddress: string | null }> {
  const hash = await rpcResult<string>(anvilUrl, 'eth_sendTransaction', [{ from: FROM, gasPrice: GAS_PRICE, gas: '0x2dc6c0', ...fields }])
  for (let i = 0; ; i++) {
    const receipt = await rpcResult<{ contractAddress: string | null } | null>(anvilUrl, 'eth_getTransactionReceipt', [hash])
    if (receipt !== null) return { hash, contractAddress: receipt.contractAddress }
    if (i > 300) throw new Error(`Anvil did not mine ${hash}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeAll(async () => {
  anvil = await startAnvil(['--chain-id', '31337'])
  anvilUrl = anvil.url
  // Block 1: Token; 2: a token transfer; 3: Reverter; 4: a call that reverts; 5: two transfers in one block; 6: after the fork.
  const deploy = (await new ContractFactory(tokenAbi, Token.bytecode).getDeployTransaction('Anvil', 'ANV', 1_000_000n)).data
  const deployed = await send({ data: deploy })
  token = deployed.contractAddress!
  txs[1] = [deployed.hash]
  txs[2] = [(await send({ to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER, 250n]) })).hash]
  const rev = await send({ data: Reverter.bytecode })
  reverter = rev.contractAddress!
  txs[3] = [rev.hash]
  txs[4] = [(await send({ to: reverter, data: new Interface(Reverter.abi as InterfaceAbi).encodeFunctionData('revertWithReason'), gas: '0x30d40' })).hash]
  await rpcResult(anvilUrl, 'evm_setAutomine', [false])
  const a = await rpcResult<string>(anvilUrl, 'eth_sendTransaction', [{ from: FROM, to: STRANGER, value: '0xde0b6b3a7640000', gasPrice: GAS_PRICE, gas: '0x5208' }])
  const b = await rpcResult<string>(anvilUrl, 'eth_sendTransaction', [{ from: FROM, to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER, 5n]), gasPrice: GAS_PRICE, gas: '0x30d40' }])
  await rpcResult(anvilUrl, 'evm_mine', [])
  await rpcResult(anvilUrl, 'evm_setAutomine', [true])
  txs[5] = [a, b]
  forkBlock = 5
  txs[6] = [(await send({ to: STRANGER, value: '0x1', gas: '0x5208' })).hash]
  fork = await createDevnet({ fork: { url: anvilUrl, blockNumber: forkBlock, cache: false }, console: false })
  forkUrl = (await fork.listen()).rpcUrl
}, 600_000)

afterAll(async () => {
  await fork?.close()
  anvil?.close()
})

/** Expects the fork's result to be Anvil's, as JSON (the envelopes' layout differs between the two servers). */
async function same(method: string, params: unknown[]): Promise<unknown> {
  const [mine, theirs] = await Promise.all([rawRpc(forkUrl, method, params), rawRpc(anvilUrl, method, params)])
  const result = (body: string) => JSON.stringify((JSON.parse(body) as { result?: unknown }).result ?? (JSON.parse(body) as { error?: unknown }).error)
  expect(result(mine), `${method}(${JSON.stringify(params)})`).toBe(result(theirs))
  return JSON.parse(theirs).result
}

const q = (n: number) => `0x${n.toString(16)}`

describe('a fork of Anvil', () => {
  it('answers blocks, transactions, receipts and counts at and below the fork block with Anvil’s results', async () => {
    for (let n = 0; n <= forkBlock; n++) {
      for (const full of [false, true]) {
        const block = (await same('eth_getBlockByNumber', [q(n), full])) as { hash: string }
        await same('eth_getBlockByHash', [block.hash, full])
        await same('eth_getBlockTransactionCountByHash', [block.hash])
        await same('eth_getTransactionByBlockHashAndIndex', [block.hash, '0x1'])
      }
      await same('eth_getBlockTransactionCountByNumber', [q(n)])
      await same('eth_getTransactionByBlockNumberAndIndex', [q(n), '0x0'])
      for (const tx of txs[n] ?? []) {
        await same('eth_getTransactionByHash', [tx])
        await same('eth_getTransactionReceipt', [tx])
      }
    }
    expect(await rpcResult(forkUrl, 'eth_getBlockTransactionCountByNumber', [q(forkBlock)])).toBe('0x2')
    expect(((await rpcResult(forkUrl, 'eth_getTransactionReceipt', [txs[4]![0]])) as { status: string }).status).toBe('0x0')
    // Unknown, and what Anvil mined after the fork block: null.
    expect(await same('eth_getTransactionByHash', [`0x${'5a'.repeat(32)}`])).toBeNull()
    expect(await rpcResult(forkUrl, 'eth_getTransactionByHash', [txs[6]![0]])).toBeNull()
    expect(await rpcResult(forkUrl, 'eth_getBlockByNumber', ['0x6', false])).toBeNull()
  })

  it('traces a transaction of Anvil’s with Anvil’s tracer', async () => {
    const trace = (await same('debug_traceTransaction', [txs[2]![0], { tracer: 'callTracer' }])) as { to: string }
    expect(trace.to).toBe(token)
  })

  it('says which remote call failed for a method Anvil does not serve', async () => {
    const answer = JSON.parse(await rawRpc(forkUrl, 'eth_getTransactionLogs', [txs[2]![0]]))
    expect(answer.error.code).toBe(-32000)
    expect(answer.error.message).toMatch(new RegExp(`^fork: the remote call eth_getTransactionLogs\\(${txs[2]![0]}\\) to ${anvilUrl} failed: the remote answered -32601 `))
  })

  it('joins Anvil’s logs up to the fork block and the fork’s after it', async () => {
    await fork.rpc('eth_sendTransaction', [{ from: FROM, to: token, data: tokenAbi.encodeFunctionData('transfer', [STRANGER, 1000n]), gas: '0x30d40' }])
    const filter = { address: token, topics: [TRANSFER_TOPIC, null, addressTopic(STRANGER)] }
    const anvilPart = await same('eth_getLogs', [{ fromBlock: '0x0', toBlock: q(forkBlock), ...filter }])
    const all = await rpcResult<{ blockNumber: string; data: string }[]>(forkUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', ...filter }])
    expect(JSON.stringify(all.slice(0, 2))).toBe(JSON.stringify(anvilPart))
    expect(all.map((l) => [l.blockNumber, l.data])).toEqual([
      ['0x2', word(250n)],
      ['0x5', word(5n)],
      ['0x6', word(1000n)],
    ])
  })
})
