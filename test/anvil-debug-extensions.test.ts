/**
 * reth's and Anvil's debug_ and trace_ extensions (issue 34, acceptance "Anvil's list
 * is all served"): trace_transactionOpcodeGas / trace_blockOpcodeGas,
 * debug_accountInfoAt, debug_getModifiedAccountsByNumber, debug_codeByHash,
 * debug_dbGet, debug_freeOSMemory, and eth_sendRawTransactionConditional honouring
 * its conditional; in process and over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContractFactory, Interface, keccak256, Wallet, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { rpcResult } from './fork-support.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const RECIPIENT = `0x${'ab'.repeat(20)}`
const OTHER = `0x${'cd'.repeat(20)}`
const tokenAbi = new Interface(Token.abi as InterfaceAbi)

let devnet: Devnet
let rpcUrl: string
let wallet: Wallet
let nonce = 0
let token: string
let deployBlock: number
let transferHash: string
let transferData: string
/** The block holding two value transfers (nonces n and n+1), and their hashes. */
let pair: { block: string; hashes: string[] }

async function send(fields: { to?: string; data?: string; value?: bigint; gasLimit: bigint }): Promise<string> {
  const raw = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: nonce++, gasPrice: GWEI, ...fields })
  return (await devnet.rpc('eth_sendRawTransaction', [raw])) as string
}

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const deploy = await send({ data: (await new ContractFactory(tokenAbi, Token.bytecode).getDeployTransaction('T', 'T', 1_000_000n)).data, gasLimit: 3_000_000n })
  const deployed = (await devnet.rpc('eth_getTransactionReceipt', [deploy]))!
  token = deployed.contractAddress!
  deployBlock = Number(deployed.blockNumber)
  transferData = tokenAbi.encodeFunctionData('transfer', [RECIPIENT, 250n])
  transferHash = await send({ to: token, data: transferData, gasLimit: 200_000n })
  await devnet.rpc('evm_setAutomine', [false])
  const hashes = [await send({ to: OTHER, value: 7n, gasLimit: 21_000n }), await send({ to: OTHER, value: 9n, gasLimit: 21_000n })]
  await devnet.rpc('evm_mine', [])
  await devnet.rpc('evm_setAutomine', [true])
  pair = { block: (await devnet.rpc('eth_getTransactionReceipt', [hashes[0]!]))!.blockNumber, hashes }
})

afterAll(async () => {
  await devnet?.close()
})

/** Istanbul's intrinsic gas of a call with `data` (EIP-2028: 16 per non-zero byte, 4 per zero byte). */
function intrinsic(data: string): bigint {
  const bytes = Buffer.from(data.slice(2), 'hex')
  return 21_000n + bytes.reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 0n)
}

describe('trace_transactionOpcodeGas / trace_blockOpcodeGas', () => {
  it("tallies each opcode's executions and gas; with the intrinsic gas they make up the receipt's gasUsed", async () => {
    const answer = (await devnet.rpc('trace_transactionOpcodeGas', [transferHash]))!
    expect(answer.transactionHash).toBe(transferHash)
    const names = answer.opcodeGas.map((o) => o.opcode)
    expect(names).toContain('SSTORE')
    expect(names).toContain('LOG3')
    expect(new Set(names).size).toBe(names.length)
    for (const o of answer.opcodeGas) expect(o.count).toBeGreaterThan(0)
    const push1 = answer.opcodeGas.find((o) => o.opcode === 'PUSH1')!
    expect(push1.gasUsed).toBe(3 * push1.count)
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [transferHash]))!
    const executed = answer.opcodeGas.reduce((sum, o) => sum + BigInt(o.gasUsed), 0n)
    expect(executed + intrinsic(transferData)).toBe(BigInt(receipt.gasUsed))
    expect(await rpcResult(rpcUrl, 'trace_transactionOpcodeGas', [`0x${'00'.repeat(32)}`])).toBeNull()
  })

  it("gives each transaction of a block, in order, as the transaction's own", async () => {
    const answer = (await devnet.rpc('trace_blockOpcodeGas', [pair.block]))!
    expect(answer.blockNumber).toBe(Number(pair.block))
    expect(answer.blockHash).toBe((await devnet.rpc('eth_getBlockByNumber', [pair.block, false]))!.hash)
    expect(answer.transactions.map((t) => t.transactionHash)).toEqual(pair.hashes)
    // A plain value transfer runs no code.
    expect(answer.transactions.map((t) => t.opcodeGas)).toEqual([[], []])
    const transferBlock = (await devnet.rpc('eth_getTransactionReceipt', [transferHash]))!.blockNumber
    expect((await rpcResult<{ transactions: unknown[] }>(rpcUrl, 'trace_blockOpcodeGas', [transferBlock])).transactions).toEqual([await devnet.rpc('trace_transactionOpcodeGas', [transferHash])])
    expect(await devnet.rpc('trace_blockOpcodeGas', ['0xffffff'])).toBeNull()
  })
})

describe('debug_accountInfoAt', () => {
  it('reads an account inside a block: after the first of two transfers, then after the second', async () => {
    const first = await devnet.rpc('debug_accountInfoAt', [pair.block, 0, OTHER])
    expect(first).toEqual({ balance: '0x7', nonce: '0x0', code: '0x' })
    expect(await rpcResult(rpcUrl, 'debug_accountInfoAt', [pair.block, '0x1', OTHER])).toEqual({ balance: '0x10', nonce: '0x0', code: '0x' })
    const sender = await devnet.rpc('debug_accountInfoAt', [pair.block, 0, wallet.address])
    expect(BigInt(sender.nonce)).toBe(BigInt(nonce - 1))
    const deployed = await devnet.rpc('debug_accountInfoAt', [`0x${deployBlock.toString(16)}`, 0, token])
    expect(deployed.code).toBe(await devnet.rpc('eth_getCode', [token, 'latest']))
  })

  it('refuses an index past the block with -32602 and an unknown block with -32000', async () => {
    await expect(devnet.rpc('debug_accountInfoAt', [pair.block, 2, OTHER])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('tx_index 2 out of bounds for block with 2 transactions'),
    })
    await expect(devnet.rpc('debug_accountInfoAt', ['0xffffff', 0, OTHER])).rejects.toMatchObject({ code: -32000 })
  })
})

describe('debug_getModifiedAccountsByNumber', () => {
  it('lists the accounts a block changed, or a range of blocks changed, as go-ethereum counts a change', async () => {
    const height = Number(pair.block)
    const inBlock = await devnet.rpc('debug_getModifiedAccountsByNumber', [height])
    expect(inBlock).toEqual(expect.arrayContaining([wallet.address.toLowerCase(), OTHER]))
    expect(inBlock).not.toContain(RECIPIENT)
    const range = await rpcResult<string[]>(rpcUrl, 'debug_getModifiedAccountsByNumber', [deployBlock - 1, height])
    expect(range).toEqual(expect.arrayContaining([wallet.address.toLowerCase(), OTHER, token]))
  })

  it("refuses what go-ethereum refuses: an empty or backward range, a block the chain does not have, block 0's parent", async () => {
    await expect(devnet.rpc('debug_getModifiedAccountsByNumber', [3, 3])).rejects.toMatchObject({ code: -32000, message: 'start block height (3) must be less than end block height (3)' })
    await expect(devnet.rpc('debug_getModifiedAccountsByNumber', [0xffffff])).rejects.toMatchObject({ code: -32000 })
    await expect(devnet.rpc('debug_getModifiedAccountsByNumber', [0])).rejects.toMatchObject({ code: -32000, message: 'block 0 has no parent' })
    await expect(devnet.rpc('debug_getModifiedAccountsByNumber', [-1])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('debug_codeByHash and debug_dbGet', () => {
  it('find code by its keccak256: any the devnet holds, or as of a block; the empty hash is the empty code', async () => {
    const code = (await devnet.rpc('eth_getCode', [token, 'latest'])) as string
    const codeHash = keccak256(code)
    expect(await devnet.rpc('debug_codeByHash', [codeHash])).toBe(code)
    expect(await rpcResult(rpcUrl, 'debug_codeByHash', [codeHash, 'latest'])).toBe(code)
    expect(await devnet.rpc('debug_codeByHash', [codeHash, `0x${(deployBlock - 1).toString(16)}`])).toBeNull()
    expect(await devnet.rpc('debug_codeByHash', [keccak256('0x')])).toBe('0x')
    expect(await devnet.rpc('debug_codeByHash', [`0x${'11'.repeat(32)}`])).toBeNull()
    expect(await devnet.rpc('debug_dbGet', [`0x63${codeHash.slice(2)}`])).toBe(code)
  })

  it('debug_dbGet refuses any key but a code key, in reth and Anvil words', async () => {
    await expect(devnet.rpc('debug_dbGet', ['0x6311'])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Invalid key length: expected 33 bytes, got 2') })
    await expect(devnet.rpc('debug_dbGet', [`0x62${'11'.repeat(32)}`])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Key prefix must be 0x63') })
    await expect(devnet.rpc('debug_dbGet', ['0xz'])).rejects.toMatchObject({ code: -32602 })
  })

  it('debug_freeOSMemory answers null', async () => {
    expect(await devnet.rpc('debug_freeOSMemory', [])).toBeNull()
  })
})

describe('eth_sendRawTransactionConditional', () => {
  const sign = (n: number) => wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: n, gasPrice: GWEI, gasLimit: 21_000n, to: OTHER, value: 1n })

  it('submits when the conditional holds on the latest block and state', async () => {
    const height = BigInt(await devnet.rpc('eth_blockNumber', []))
    const slotOfBalance = await devnet.rpc('eth_getStorageAt', [token, `0x${'00'.repeat(32)}`, 'latest'])
    const conditional = {
      blockNumberMin: `0x${height.toString(16)}`,
      blockNumberMax: `0x${(height + 5n).toString(16)}`,
      timestampMax: '0xffffffffff',
      knownAccounts: {
        [OTHER]: `0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421`,
        [token]: { [`0x${'00'.repeat(32)}`]: `0x${(slotOfBalance === '0x' ? '' : slotOfBalance.slice(2)).padStart(64, '0')}` },
      },
    }
    const hash = await devnet.rpc('eth_sendRawTransactionConditional', [await sign(nonce), conditional])
    nonce++
    expect((await devnet.rpc('eth_getTransactionReceipt', [hash]))!.status).toBe('0x1')
  })

  it('refuses with -32003 and submits nothing when it does not hold; refuses a storage root it cannot vouch for with -32602', async () => {
    const before = await devnet.rpc('eth_getTransactionCount', [wallet.address, 'latest'])
    const raw = await sign(nonce)
    await expect(devnet.rpc('eth_sendRawTransactionConditional', [raw, { blockNumberMax: '0x1' }])).rejects.toMatchObject({ code: -32003, message: expect.stringContaining('above blockNumberMax 1') })
    await expect(devnet.rpc('eth_sendRawTransactionConditional', [raw, { knownAccounts: { [token]: { [`0x${'00'.repeat(32)}`]: `0x${'99'.repeat(32)}` } } }])).rejects.toMatchObject({ code: -32003 })
    await expect(devnet.rpc('eth_sendRawTransactionConditional', [raw, { knownAccounts: { [token]: `0x${'12'.repeat(32)}` } }])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('eth_sendRawTransactionConditional', [raw, { blockNumberMinimum: '0x1' }] as never)).rejects.toMatchObject({ code: -32602 })
    expect(await devnet.rpc('eth_getTransactionCount', [wallet.address, 'latest'])).toBe(before)
  })
})

describe('eth_resend', () => {
  it('replaces a pending transaction of a dev account with a new gas price and limit; the old one is gone', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const from = wallet.address
      const n = `0x${nonce.toString(16)}`
      const request = { from, to: OTHER, value: '0x1', nonce: n, gasPrice: `0x${GWEI.toString(16)}`, gas: '0x5208' }
      const first = await devnet.rpc('eth_sendTransaction', [request])
      const second = await rpcResult<string>(rpcUrl, 'eth_resend', [request, `0x${(2n * GWEI).toString(16)}`, '0x7530'])
      expect(second).not.toBe(first)
      const pending = (await devnet.rpc('eth_getTransactionByHash', [second]))!
      expect({ gasPrice: pending.gasPrice, gas: pending.gas, nonce: pending.nonce }).toEqual({ gasPrice: `0x${(2n * GWEI).toString(16)}`, gas: '0x7530', nonce: n })
      expect(await devnet.rpc('eth_getTransactionByHash', [first])).toBeNull()
      await devnet.rpc('evm_mine', [])
      nonce++
      expect((await devnet.rpc('eth_getTransactionReceipt', [second]))!.status).toBe('0x1')
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })

  it('refuses what it cannot resend: no nonce, nothing pending with it, too small a price bump', async () => {
    const request = { from: wallet.address, to: OTHER, value: '0x1' }
    await expect(devnet.rpc('eth_resend', [request])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('missing transaction nonce') })
    await expect(devnet.rpc('eth_resend', [{ ...request, nonce: '0x0' }, '0x1'])).rejects.toMatchObject({ code: -32000, message: 'transaction not found' })
    await devnet.rpc('evm_setAutomine', [false])
    try {
      const pendingRequest = { ...request, nonce: `0x${nonce.toString(16)}`, gasPrice: `0x${(100n * GWEI).toString(16)}`, gas: '0x5208' }
      await devnet.rpc('eth_sendTransaction', [pendingRequest])
      // 101 gwei over 100 is a 1 % bump, not more (gas prices are whole gwei on this chain).
      await expect(devnet.rpc('eth_resend', [pendingRequest, `0x${(101n * GWEI).toString(16)}`])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringContaining('a transaction with the same nonce exists in the pool'),
      })
      await devnet.rpc('anvil_dropAllTransactions', [])
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })
})

describe('eth_callBundle', () => {
  const COINBASE = `0x${'c0'.repeat(20)}`
  const sign = (n: number, fields: { to: string; data?: string; value?: bigint; gasLimit?: bigint }) =>
    wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: n, gasPrice: GWEI, gasLimit: 200_000n, ...fields })

  it('runs signed transactions in order on the state after a block, in the block asked for, and commits nothing', async () => {
    const height = await devnet.rpc('eth_blockNumber', [])
    const count = await devnet.rpc('eth_getTransactionCount', [wallet.address, 'latest'])
    const txs = [
      await sign(nonce, { to: COINBASE, value: 1_000n, gasLimit: 21_000n }),
      await sign(nonce + 1, { to: token, data: tokenAbi.encodeFunctionData('transfer', [RECIPIENT, 1n]) }),
      await sign(nonce + 2, { to: token, data: tokenAbi.encodeFunctionData('transfer', [RECIPIENT, 10n ** 30n]) }),
    ]
    const answer = await devnet.rpc('eth_callBundle', [{ txs, blockNumber: `0x${(BigInt(height) + 1n).toString(16)}`, stateBlockNumber: 'latest', coinbase: COINBASE }])
    expect(answer.stateBlockNumber).toBe(Number(height))
    expect(answer.results.map((r) => r.txHash)).toEqual(txs.map((raw) => keccak256(raw)))
    expect(answer.bundleHash).toBe(keccak256(`0x${txs.map((raw) => keccak256(raw).slice(2)).join('')}`))
    const [pay, transfer, failed] = answer.results
    expect(pay).toMatchObject({ coinbaseDiff: '1000', ethSentToCoinbase: '1000', gasUsed: 21_000, gasPrice: GWEI.toString(), gasFees: (21_000n * GWEI).toString(), value: '0x', toAddress: COINBASE })
    expect(transfer!.value).toBe(`0x${'0'.repeat(63)}1`)
    expect(transfer!.coinbaseDiff).toBe('0')
    expect(failed!.error).toBeDefined()
    expect(failed!.revert).toMatch(/^0x/)
    expect(failed!.value).toBeUndefined()
    const total = answer.results.reduce((sum, r) => sum + r.gasUsed, 0)
    expect(answer.totalGasUsed).toBe(total)
    expect(answer.gasFees).toBe((BigInt(total) * GWEI).toString())
    expect(answer.bundleGasPrice).toBe(((BigInt(total) * GWEI + 1_000n) / BigInt(total)).toString())
    expect(await rpcResult(rpcUrl, 'eth_callBundle', [{ txs: txs.slice(0, 1), blockNumber: '0x99', coinbase: COINBASE }])).toMatchObject({ coinbaseDiff: '1000' })
    expect(await devnet.rpc('eth_blockNumber', [])).toBe(height)
    expect(await devnet.rpc('eth_getTransactionCount', [wallet.address, 'latest'])).toBe(count)
  })

  it('refuses a bundle a block would not take, and fields it cannot honour', async () => {
    const ahead = await sign(nonce + 1, { to: OTHER, value: 1n, gasLimit: 21_000n })
    await expect(devnet.rpc('eth_callBundle', [{ txs: [ahead], blockNumber: '0x99' }])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('nonce too high') })
    await expect(devnet.rpc('eth_callBundle', [{ txs: [], blockNumber: '0x99' }])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('bundle missing txs') })
    await expect(devnet.rpc('eth_callBundle', [{ txs: [ahead] } as never])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('bundle missing blockNumber') })
    await expect(devnet.rpc('eth_callBundle', [{ txs: [ahead], blockNumber: '0x99', transactionIndex: 0 } as never])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('eth_callBundle', [{ txs: ['0x1234'], blockNumber: '0x99' }])).rejects.toMatchObject({ code: -32602 })
  })
})
