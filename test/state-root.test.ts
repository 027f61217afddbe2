/**
 * Option stateRoot 'merkle' beyond eth_getProof's own test (test/get-proof.test.ts):
 * the root is derived, so a devnet resumed from its --db serves the same roots; a
 * block's root holds across later setters, mining and a revert below it; and with
 * stateRoot 'zero' the blocks keep the node's zero hash.
 */
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { cliProgram, devnetOptionsOf, parseFlags } from '../src/cli/flags.ts'

type Hex = `0x${string}`
const rootOf = async (d: Devnet, block: Hex | 'latest') => (await d.rpc('eth_getBlockByNumber', [block, false]))!.stateRoot as Hex

async function transfer(d: Devnet, nonce: number, value: bigint): Promise<void> {
  const wallet = new Wallet(d.accounts[0]!.privateKey)
  await d.rpc('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: 12345, nonce, to: d.accounts[1]!.address, value, gasLimit: 21_000n, gasPrice: 0n })])
}

describe("stateRoot 'merkle'", () => {
  it('serves the same roots after resuming from the database (derived, not stored)', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createDevnet({ accounts: 2, db, stateRoot: 'merkle', console: false })
    await transfer(first, 0, 5n)
    await transfer(first, 1, 7n)
    const roots = [await rootOf(first, '0x0'), await rootOf(first, '0x1'), await rootOf(first, '0x2')]
    expect(new Set(roots).size).toBe(3)
    await first.close()
    await db.open()
    const resumed = await createDevnet({ accounts: 2, db, stateRoot: 'merkle', console: false })
    try {
      // Newest first: the resumed devnet builds the latest root from the whole state, then the older ones.
      expect([await rootOf(resumed, '0x2'), await rootOf(resumed, '0x1'), await rootOf(resumed, '0x0')]).toEqual(roots.slice().reverse())
    } finally {
      await resumed.close()
    }
  })

  it('keeps each block its root through setters on later blocks, and follows a revert', async () => {
    const d = await createDevnet({ accounts: 2, stateRoot: 'merkle', console: false })
    try {
      await transfer(d, 0, 1n)
      const one = await rootOf(d, '0x1')
      const id = await d.snapshot()
      // A setter writes at the latest block (1): its root changes, and is then asked while block 2 exists.
      await d.rpc('anvil_setBalance', [d.accounts[1]!.address, '0x5'])
      const oneAfterSetter = await rootOf(d, '0x1')
      expect(oneAfterSetter).not.toBe(one)
      await transfer(d, 1, 1n)
      expect(await rootOf(d, '0x1')).toBe(oneAfterSetter)
      const two = await rootOf(d, '0x2')
      // The revert undoes the setter at block 1 and drops block 2: block 1's root is the first one again.
      await d.revert(id)
      expect(await rootOf(d, '0x1')).toBe(one)
      // The same transfer mined again on the reverted state makes a different block 2 state (no setter).
      await transfer(d, 1, 1n)
      expect(await rootOf(d, '0x2')).not.toBe(two)
      const proof = (await d.rpc('eth_getProof', [d.accounts[1]!.address, [], '0x2'])) as { balance: Hex }
      expect(proof.balance).toBe(await d.rpc('eth_getBalance', [d.accounts[1]!.address, '0x2']))
    } finally {
      await d.close()
    }
  })

  it("keeps the node's zero hash without the option", async () => {
    const d = await createDevnet({ accounts: 2, console: false })
    try {
      await transfer(d, 0, 1n)
      expect(await rootOf(d, 'latest')).toBe(`0x${'0'.repeat(64)}`)
    } finally {
      await d.close()
    }
  })
})

describe('--state-root', () => {
  const parse = (args: string[]) =>
    parseFlags(
      cliProgram()
        .exitOverride()
        .configureOutput({ writeErr: () => {} }),
      args,
    )

  it("is 'zero' by default and sets option stateRoot", async () => {
    expect((await devnetOptionsOf(parse([]))).stateRoot).toBe('zero')
    expect((await devnetOptionsOf(parse(['--state-root', 'merkle']))).stateRoot).toBe('merkle')
  })

  it("refuses another value with the rule's message", () => {
    expect(() => parse(['--state-root', 'full'])).toThrow("option '--state-root <mode>' argument 'full' is invalid. Allowed: 'zero' or 'merkle'.")
  })
})
