/**
 * eth_estimateGas when the gas a call used is not enough to run it: a call that
 * forwards all its gas to another contract (EIP-150 keeps 1/64 back, so the callee gets
 * too little at exactly the gas used), which the search finds by go-ethereum's
 * optimistic limit and bisection (the estimate must suffice, a limit 1/64 below it must
 * not: the search's precision); a call whose refund lowers its gas used below what it
 * spends, and one whose SSTORE needs EIP-2200's sentry left, which depend on nothing
 * else, so the least limit is known from one run (the estimate suffices, one gas less
 * does not). Contracts are placed with setCode (hand-assembled, Istanbul opcodes).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

const CALLEE = '0x00000000000000000000000000000000000c0de1'
const CALLER = '0x00000000000000000000000000000000000c0de2'
const CLEARER = '0x00000000000000000000000000000000000c0de3'

/** Callee: SSTORE 1 into slot 0 (a fresh slot: 20,000 gas on Istanbul), STOP. */
const CALLEE_CODE = '0x600160005500'
/**
 * Caller: CALL(GAS, CALLEE, 0, 0, 0, 0, 0), revert when it failed, else STOP:
 * 60 00 ×5, PUSH20 callee, GAS, CALL, ISZERO, PUSH1 0x26, JUMPI, STOP, JUMPDEST, PUSH1 0, DUP1, REVERT.
 */
const CALLER_CODE = `0x6000600060006000600073${CALLEE.slice(2)}5af115602657005b600080fd`
/** Clearer: SSTORE 0 into slot 0 (set to 1 beforehand: a 15,000 refund on Istanbul), STOP. */
const CLEARER_CODE = '0x600060005500'
const REWRITER = '0x00000000000000000000000000000000000c0de4'
/** Rewriter: SSTORE 1 into slot 0, which holds 1 already (800 gas on Istanbul, its last opcode but STOP), STOP. */
const REWRITER_CODE = '0x600160005500'

/** Runs `to` with `gas` by eth_call: true when it succeeds, false when it fails. */
async function succeeds(d: Devnet, from: string, to: string, gas: bigint): Promise<boolean> {
  try {
    await d.rpc('eth_call', [{ from, to, gas: `0x${gas.toString(16)}` }, 'latest'])
    return true
  } catch {
    return false
  }
}

describe('eth_estimateGas when the gas used does not suffice', () => {
  it("an SSTORE with less than EIP-2200's 2,300 sentry left at the gas used: the estimate leaves it 2,301", async () => {
    devnet = await createDevnet({ console: false })
    const from = devnet.accounts[0]!.address
    await devnet.setCode(REWRITER, REWRITER_CODE)
    await devnet.setStorageAt(REWRITER, '0x0', `0x${'1'.padStart(64, '0')}`)
    const estimate = BigInt((await devnet.rpc('eth_estimateGas', [{ from, to: REWRITER }])) as string)
    // 21,000 + 3 + 3 + 800 used; with only that, the SSTORE would see 800 left and fail.
    expect(await succeeds(devnet, from, REWRITER, 21_806n)).toBe(false)
    // The least limit: 21,006 before the SSTORE, which needs 2,301 left.
    expect(estimate).toBe(21_006n + 2_301n)
    expect(await succeeds(devnet, from, REWRITER, estimate)).toBe(true)
    expect(await succeeds(devnet, from, REWRITER, estimate - 1n)).toBe(false)
  })

  it('a transfer and a call that depends on nothing but its code: the gas used', async () => {
    devnet = await createDevnet({ console: false })
    const from = devnet.accounts[0]!.address
    const to = devnet.accounts[1]!.address
    expect(await devnet.rpc('eth_estimateGas', [{ from, to, value: '0x1' }])).toBe('0x5208')
    // A fresh slot: SSTORE 1 costs 20,000 and leaves far more than 2,300 before it at the gas used.
    await devnet.setCode(CALLEE, CALLEE_CODE)
    const estimate = BigInt((await devnet.rpc('eth_estimateGas', [{ from, to: CALLEE }])) as string)
    expect(estimate).toBe(21_000n + 3n + 3n + 20_000n)
    expect(await succeeds(devnet, from, CALLEE, estimate)).toBe(true)
    expect(await succeeds(devnet, from, CALLEE, estimate - 1n)).toBe(false)
  })

  it('a call forwarding all its gas: the estimate runs it, 1/64 less does not', async () => {
    devnet = await createDevnet({ console: false })
    const from = devnet.accounts[0]!.address
    await devnet.setCode(CALLEE, CALLEE_CODE)
    await devnet.setCode(CALLER, CALLER_CODE)
    const estimate = BigInt((await devnet.rpc('eth_estimateGas', [{ from, to: CALLER }])) as string)
    // What it uses when it has plenty (sent, then reverted: the callee's slot stays fresh):
    // less than the estimate, because of the 1/64 kept back.
    const snapshot = await devnet.snapshot()
    const receiptGas = await sendAndGasUsed(devnet, from, CALLER, 1_000_000n)
    await devnet.revert(snapshot)
    expect(estimate).toBeGreaterThan(receiptGas)
    expect(await succeeds(devnet, from, CALLER, receiptGas)).toBe(false)
    expect(await succeeds(devnet, from, CALLER, estimate)).toBe(true)
    expect(await succeeds(devnet, from, CALLER, estimate - estimate / 64n - 2n)).toBe(false)
  })

  it('a call with a refund: the estimate covers the gas spent before the refund', async () => {
    devnet = await createDevnet({ console: false })
    const from = devnet.accounts[0]!.address
    await devnet.setCode(CLEARER, CLEARER_CODE)
    await devnet.setStorageAt(CLEARER, '0x0', `0x${'1'.padStart(64, '0')}`)
    const estimate = BigInt((await devnet.rpc('eth_estimateGas', [{ from, to: CLEARER }])) as string)
    // The least limit: 21,000 + 3 + 3 + 5,000 spent before the 15,000 refund (capped at half).
    expect(estimate).toBe(26_006n)
    expect(await succeeds(devnet, from, CLEARER, estimate)).toBe(true)
    expect(await succeeds(devnet, from, CLEARER, estimate - 1n)).toBe(false)
    // Sent with the estimate, it is mined and its receipt shows the refund: gas used is 21,000 + 5,006 - 13,003.
    expect(await sendAndGasUsed(devnet, from, CLEARER, estimate)).toBe(13_003n)
  })
})

/** Sends a call to `to` with `gas` and resolves to its receipt's gasUsed (the transaction must succeed). */
async function sendAndGasUsed(d: Devnet, from: string, to: string, gas: bigint): Promise<bigint> {
  const hash = await d.rpc('eth_sendTransaction', [{ from, to, gas: `0x${gas.toString(16)}` }])
  const receipt = (await d.rpc('eth_getTransactionReceipt', [hash])) as { status: string; gasUsed: string }
  expect(receipt.status).toBe('0x1')
  return BigInt(receipt.gasUsed)
}
