/**
 * eth_simulateV1 beside Anvil `--hardfork istanbul` (test/anvil-support.ts): the same
 * request on both, under state overrides so that the accounts do not matter, answered
 * alike per call (status, return data, gas used, the contract's logs, the revert's code
 * and data) and with the same error codes for the spec's refusals. Named differences,
 * from the chain's rules: dualnet's logs also carry the gas-token Transfer logs of
 * every value movement and fee (reference §6.4; removed before comparing), and the
 * block fields (chain id, gas limit, base fee, hashes) are not compared. Named
 * differences of Anvil 1.7.1's: a revert's error is code -3200 without data (go-ethereum's,
 * which dualnet answers: -32000 with the revert data); a call whose first touch of a
 * slot is an SSTORE uses 2,100 more gas on Anvil (its mined transactions too, under
 * `--hardfork istanbul`: EIP-2929's cold-slot charge, which Istanbul does not have);
 * under `validation` Anvil runs a call whose nonce is ahead (go-ethereum refuses it
 * with -38011, as dualnet does); an unfunded transfer is Anvil's -32003 where the spec
 * and go-ethereum answer -38014. In `npm run test:tools` (it runs Anvil).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, Store } from '../fixtures/index.ts'
import { startAnvil, type Anvil } from './anvil-support.ts'
import { GAS_TOKEN } from './support.ts'

const STORE = '0x0000000000000000000000000000000000005707'
const REVERTER = '0x000000000000000000000000000000000000dead'
const FRESH = '0x00000000000000000000000000000000000000aa'
const store = new Interface(Store.abi as never)
const reverter = new Interface(Reverter.abi as never)

let anvil: Anvil | undefined
let devnet: Devnet

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'istanbul'])
  devnet = await createDevnet({ console: false })
}, 120_000)
afterAll(async () => {
  anvil?.close()
  await devnet?.close()
})

/** Block 1, call 2: Reverter.setValue, an SSTORE to a slot not read before (the 2,100 gas named above). */
const BLIND_SSTORE = [1, 2]

type Call = { status: string; returnData: string; gasUsed: string; logs: { address: string; topics: string[]; data: string }[]; error?: { code: number; data?: string } }

/** What is compared of an answer: per block, per call, the fields the chain's rules leave alike. */
function comparable(answer: unknown): unknown {
  return (answer as { calls: Call[] }[]).map((block, b) =>
    block.calls.map((c, i) => ({
      status: c.status,
      returnData: c.returnData,
      gasUsed: b === BLIND_SSTORE[0] && i === BLIND_SSTORE[1] ? 'named' : c.gasUsed,
      logs: c.logs.filter((l) => l.address.toLowerCase() !== GAS_TOKEN).map((l) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data })),
      failed: c.error !== undefined,
    })),
  )
}

async function both(params: unknown[]): Promise<[unknown, unknown]> {
  const settle = (p: Promise<unknown>) =>
    p.then(
      (result) => ({ result }),
      (err: { code: number }) => ({ error: err.code }),
    )
  return Promise.all([settle(anvil!.rpc('eth_simulateV1', params)), settle(devnet.rpc('eth_simulateV1', params as never))])
}

describe('eth_simulateV1 beside Anvil', () => {
  it('answers the same calls alike, state carried across calls and blocks', async () => {
    const opts = {
      blockStateCalls: [
        {
          stateOverrides: { [STORE]: { code: Store.deployedBytecode }, [REVERTER]: { code: Reverter.deployedBytecode }, [FRESH]: { balance: '0xde0b6b3a7640000' } },
          calls: [
            { from: FRESH, to: STORE, data: store.encodeFunctionData('increment') },
            { from: FRESH, to: STORE, data: store.encodeFunctionData('deposit'), value: '0x64' },
            { from: FRESH, to: STORE, data: store.encodeFunctionData('balances', [FRESH]) },
          ],
        },
        {
          calls: [
            { from: FRESH, to: STORE, data: store.encodeFunctionData('count') },
            { from: FRESH, to: REVERTER, data: reverter.encodeFunctionData('revertWithReason') },
            { from: FRESH, to: REVERTER, data: reverter.encodeFunctionData('setValue', [7]) },
          ],
        },
      ],
    }
    const [ofAnvil, ofDualnet] = await both([opts, 'latest'])
    expect((ofDualnet as { result?: unknown }).result, JSON.stringify(ofDualnet)).toBeDefined()
    const mine = (ofDualnet as { result: { calls: Call[] }[] }).result
    const theirs = (ofAnvil as { result: { calls: Call[] }[] }).result
    expect(comparable(mine)).toEqual(comparable(theirs))
    // The named differences, held to what they are.
    const [b, i] = BLIND_SSTORE as [number, number]
    expect(BigInt(theirs[b]!.calls[i]!.gasUsed) - BigInt(mine[b]!.calls[i]!.gasUsed)).toBe(2100n)
    const reverted = mine[1]!.calls[1]!
    expect(reverted.error).toEqual({ code: -32000, message: 'execution reverted: Reverter: always fails', data: reverted.returnData })
  })

  it('refuses an unfunded value transfer as Anvil does (with the spec code, -38014); a nonce ahead under validation as go-ethereum does (-38011)', async () => {
    const [ofAnvil, ofDualnet] = await both([{ blockStateCalls: [{ calls: [{ from: FRESH, to: STORE, value: '0x1' }] }] }, 'latest'])
    // Both refuse it; Anvil with its code for a transaction it would not take (-32003), dualnet with the spec's (-38014, go-ethereum's).
    expect(ofAnvil).toHaveProperty('error')
    expect(ofDualnet).toEqual({ error: -38014 })
    const [, ahead] = await both([{ validation: true, blockStateCalls: [{ calls: [{ from: FRESH, to: STORE, nonce: '0x5' }] }] }, 'latest'])
    expect(ahead).toEqual({ error: -38011 })
  })
})
