/**
 * Persistence (issue 11): a chain on classic-level resumed in a new process exactly
 * as it was on both interfaces, and continued; databases of other chain-shaping
 * options, of an unknown schema version and corrupted ones refused (library and
 * CLI, exit code 1), nothing written; durability only for databases that outlive
 * the process; the pool's waiting transactions kept across a restart.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ClassicLevel } from 'classic-level'
import { MemoryLevel } from 'memory-level'
import { AbiCoder, getAddress, Interface, keccak256, Wallet } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import { BlockEnv, Store } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { ChainMismatchError, CorruptDatabaseError, UnsupportedVersionError } from '../src/persistence/errors.ts'
import { ledgerView, mineAndRead, nativeApprove, nativeTransfer, PERSISTENCE_OPTIONS, poolView, sendEvmTransfer, sendNative } from './persistence-support.ts'
import { chainOf } from '../src/devnet/provider.ts'

const SUPPORT = fileURLToPath(new URL('./persistence-support.ts', import.meta.url))
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const temporary: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dualnet-persistence-'))
  temporary.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

/** Runs `node --import tsx <args>`; resolves to its exit code and output. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Every file of a LevelDB directory with its SHA-256, LevelDB's LOG included: a refused database keeps every byte. */
function fingerprint(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  )
}

const store = new Interface(Store.abi as never)
const ALICE = '0x00000000000000000000000000000000000a11ce'
const BOB = '0x0000000000000000000000000000000000000b0b'
const RANDAO = `0x${'ab'.repeat(32)}`
const mappingSlot = (type: string, key: unknown, slot: number) => keccak256(AbiCoder.defaultAbiCoder().encode([type, 'uint256'], [key, slot]))

/** Fills `devnet` with a bit of everything: contract, EVM and native transactions, impersonation, setters, a revert, time moves, bulk empty blocks. */
async function fill(devnet: Devnet) {
  const [a, b] = devnet.accounts.map((x) => x.address) as [string, string]
  const deploy = (await devnet.rpc('eth_sendTransaction', [{ from: a, data: Store.bytecode, gas: '0x2dc6c0' }])) as string
  const contract = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
  const call = (data: string) => devnet.rpc('eth_sendTransaction', [{ from: a, to: contract, data, gas: '0x30d40' }])
  await call(store.encodeFunctionData('increment'))
  await call(store.encodeFunctionData('setBalance', [b, 123_456n]))
  await call(store.encodeFunctionData('setEntry', [7n, `0x${'ab'.repeat(32)}`]))
  await sendEvmTransfer(devnet, 10n ** 18n)
  await sendNative(devnet, nativeTransfer(devnet, 0, 1, 25))
  await sendNative(devnet, nativeApprove(devnet, 0, 1, 300n))
  // An impersonated sender: its transaction carries no real signature.
  const ghost = '0x00000000000000000000000000000000000000ee'
  await devnet.rpc('hardhat_setBalance', [ghost, '0x56bc75e2d63100000'])
  await devnet.rpc('hardhat_impersonateAccount', [ghost])
  await devnet.rpc('eth_sendTransaction', [{ from: ghost, to: b, value: '0x1', gas: '0x5208', gasPrice: '0x0' }])
  // State setters and a reverted stretch.
  await devnet.rpc('hardhat_setStorageAt', [contract, '0x5', `0x${'00'.repeat(31)}09`])
  await devnet.rpc('hardhat_setCode', ['0x00000000000000000000000000000000000000c0', '0x6001600055'])
  const snapshot = await devnet.rpc('evm_snapshot')
  await sendEvmTransfer(devnet, 5n)
  await devnet.rpc('hardhat_setNonce', [a, '0x99'])
  await devnet.rpc('hardhat_setStorageAt', [contract, '0x0', `0x${'00'.repeat(31)}77`])
  await devnet.rpc('hardhat_mine', ['0x10'])
  expect(await devnet.rpc('evm_revert', [snapshot])).toBe(true)
  await devnet.rpc('evm_increaseTime', [3600])
  await sendNative(devnet, nativeTransfer(devnet, 1, 0, 3))
  await devnet.rpc('hardhat_mine', ['0x20'])
  await devnet.rpc('anvil_setBlockTimestampInterval', [5])
  return {
    addresses: [a, b, ghost, contract, ...devnet.nativeAccounts.map((n) => n.address)],
    // count (slot 0), a set slot, balances[b] (mapping at slot 1), entries[7] (mapping at slot 2).
    slots: ['0x0', '0x5', mappingSlot('address', b, 1), mappingSlot('uint256', 7n, 2)].map((slot) => ({ address: contract, slot })),
  }
}

describe('resume from classic-level', () => {
  it('a new process finds every block, receipt, REST rendering, balance, storage slot and the clock as they were, and the next transaction continues the chain', async () => {
    const dir = tempDir()
    const devnet = await createDevnet({ ...PERSISTENCE_OPTIONS, db: new ClassicLevel<string, string>(dir) })
    expect(devnet.resumed).toBe(false)
    const input = await fill(devnet)
    const before = JSON.parse(JSON.stringify(await ledgerView(devnet, input.addresses, input.slots))) as Awaited<ReturnType<typeof ledgerView>>
    await devnet.close()
    expect(before.height).toBe(4 + 1 + 2 + 1 + 1 + 32)
    // The view holds what it should: every transaction answered on both interfaces, the native approval.
    // Above genesis (which may carry the chain's own system transactions).
    const txs = before.blocks.slice(1).flatMap((b) => b.txs)
    expect(txs).toHaveLength(9)
    expect(txs.filter((t) => typeof t.receipt === 'object' && t.receipt !== null && t.byHash !== null)).toHaveLength(6)
    expect(txs.every((t) => t.events !== null && t.restTx !== null && t.proof !== null)).toBe(true)
    expect(before.allowances).toContain('300000000000')
    expect(before.storage).toEqual([1n, 9n, 123_456n, 0xabn].map((v, i) => (i === 3 ? `0x${'ab'.repeat(32)}` : `0x${v.toString(16).padStart(64, '0')}`)))

    const child = await run([SUPPORT, dir, '--continue'], { VIEW_INPUT: JSON.stringify(input) })
    expect(child.stderr).toBe('')
    expect(child.code).toBe(0)
    const after = JSON.parse(child.stdout) as { resumed: boolean; view: typeof before; next: { blockNumber: string; status: string }; nextBlock: { parentHash: string; timestamp: string } }
    expect(after.resumed).toBe(true)
    expect(after.view).toEqual(before)
    expect(after.next.status).toBe('0x1')
    expect(Number(after.next.blockNumber)).toBe(before.height + 1)
    expect(after.nextBlock.parentHash).toBe(before.blocks[before.height]!.block.hash)
    // The interval set before the restart still spaces the blocks.
    expect(Number(after.nextBlock.timestamp)).toBe(Number((before.blocks[before.height]!.block as unknown as { timestamp: string }).timestamp) + 5)
  })

  it('reopens in the same process too (memory-level), with the state at every height', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createDevnet({ ...PERSISTENCE_OPTIONS, db })
    const input = await fill(first)
    const before = await ledgerView(first, input.addresses, input.slots)
    await first.close()
    const second = await createDevnet({ ...PERSISTENCE_OPTIONS, db })
    expect(second.resumed).toBe(true)
    expect(await ledgerView(second, input.addresses, input.slots)).toEqual(before)
    await second.close()
  })
})

describe('the pool', () => {
  it('waiting transactions (EVM, impersonated, native; a replaced, a dropped and a reverted one gone) come back in a new process, and the next block mines them as it would have', async () => {
    const dir = tempDir()
    const devnet = await createDevnet({ ...PERSISTENCE_OPTIONS, automine: false, db: new ClassicLevel<string, string>(dir) })
    const [w0, w1] = devnet.accounts.map((a) => new Wallet(a.privateKey)) as [Wallet, Wallet]
    const send = async (wallet: Wallet, nonce: number, gwei: bigint) =>
      (await devnet.rpc('eth_sendRawTransaction', [
        await wallet.signTransaction({ type: 0, chainId: devnet.chainId, nonce, to: `0x${'00'.repeat(19)}bb`, value: 1n, gasLimit: 21_000n, gasPrice: gwei * 10n ** 9n }),
      ])) as string
    const a0 = await send(w0, 0, 1n)
    const replaced = await send(w0, 1, 1n)
    const a1 = await send(w0, 1, 2n)
    const b0 = await send(w1, 0, 3n)
    // Queued behind a nonce gap.
    const gap = await send(w1, 5, 1n)
    const dropped = await send(w1, 1, 1n)
    expect(await devnet.rpc('hardhat_dropTransaction', [dropped])).toBe(true)
    const ghost = '0x00000000000000000000000000000000000000ee'
    await devnet.rpc('hardhat_setBalance', [ghost, '0x56bc75e2d63100000'])
    await devnet.rpc('hardhat_impersonateAccount', [ghost])
    const g0 = (await devnet.rpc('eth_sendTransaction', [{ from: ghost, to: w1.address, value: '0x1', gas: '0x5208', gasPrice: '0x3b9aca00' }])) as string
    const n0 = await sendNative(devnet, nativeTransfer(devnet, 0, 1, 25))
    const n1 = await sendNative(devnet, nativeApprove(devnet, 0, 1, 300n))
    // What enters after a snapshot leaves the pool, and the database, with the revert.
    const snapshot = await devnet.rpc('evm_snapshot')
    const reverted = await send(w0, 2, 1n)
    const revertedNative = await sendNative(devnet, nativeTransfer(devnet, 1, 0, 3))
    expect(await devnet.rpc('evm_revert', [snapshot])).toBe(true)
    const hashes = { evm: [a0, a1, b0, gap, g0, replaced, dropped, reverted], native: [n0, n1, revertedNative] }
    const pool = JSON.parse(JSON.stringify(await poolView(devnet, hashes))) as Awaited<ReturnType<typeof poolView>>
    expect(pool.status).toEqual({ pending: '0x4', queued: '0x1' })
    expect(pool.evm.map((tx) => tx !== null)).toEqual([true, true, true, true, true, false, false, false])
    expect(pool.count).toEqual([7, 0])
    // The next block as it would have been: mined under a snapshot, undone.
    const before = await devnet.rpc('evm_snapshot')
    const mined = JSON.parse(JSON.stringify(await mineAndRead(devnet, hashes))) as Awaited<ReturnType<typeof mineAndRead>>
    expect(await devnet.rpc('evm_revert', [before])).toBe(true)
    expect(mined.receipts.map((r) => (r as { status: string } | null)?.status ?? null)).toEqual(['0x1', '0x1', '0x1', null, '0x1', null, null, null])
    expect(mined.events.map((e) => (e as { State?: number }).State ?? e)).toEqual([1, 1, ''])
    await devnet.close()

    const child = await run([SUPPORT, dir, '--pool'], { VIEW_INPUT: JSON.stringify(hashes) })
    expect(child.stderr).toBe('')
    expect(child.code).toBe(0)
    const after = JSON.parse(child.stdout) as { resumed: boolean; pool: typeof pool; mined: typeof mined }
    expect(after.resumed).toBe(true)
    expect(after.pool).toEqual(pool)
    expect(after.mined).toEqual(mined)
  })

  it('a version-1 database opens; its first batch marks it version 3; a pool entry (memory-level: written behind, at the latest on close) is deleted in the batch of the block that mines it', async () => {
    const db = new MemoryLevel<string, string>()
    const entries = async () => {
      await db.open()
      const all = await db.iterator().all()
      await db.close()
      return all
    }
    const first = await createDevnet({ accounts: 1, console: false, db })
    await sendEvmTransfer(first, 1n)
    await first.close()
    await db.open()
    await db.put('m:schema', '1')
    await db.close()
    const v1 = await entries()
    const second = await createDevnet({ accounts: 1, console: false, automine: false, db })
    expect(second.resumed).toBe(true)
    await second.close()
    // Nothing changed: still version 1, untouched.
    expect(await entries()).toEqual(v1)
    const third = await createDevnet({ accounts: 1, console: false, automine: false, db })
    const hash = await sendEvmTransfer(third, 2n)
    await third.close()
    const pooled = await entries()
    expect(pooled.find(([k]) => k === 'm:schema')).toEqual(['m:schema', '3'])
    const pool = pooled.filter(([k]) => k.startsWith('p:'))
    expect(pool.map(([k]) => k)).toEqual([`p:0000000000:${hash.slice(2)}`])
    expect(Object.keys(JSON.parse(pool[0]![1]) as object)).toEqual(['evm', 'from'])
    const fourth = await createDevnet({ accounts: 1, console: false, automine: false, db })
    expect(((await fourth.rpc('eth_getTransactionByHash', [hash])) as { blockNumber: string | null }).blockNumber).toBeNull()
    await fourth.rpc('evm_mine')
    await fourth.close()
    const mined = await entries()
    expect(mined.filter(([k]) => k.startsWith('p:'))).toEqual([])
    expect(JSON.parse(mined.find(([k]) => k === 'b:0000000002')![1]).transactions[0].evm).toBeDefined()
  })
})

describe('the clock', () => {
  it('a time control answered on a durable database survives kill -9', async () => {
    const dir = tempDir()
    const child = await run([SUPPORT, dir, '--time-then-die'])
    expect(child.code).toBe(null)
    const clock = JSON.parse(child.stdout) as { offset: number; interval: number }
    expect(clock).toMatchObject({ offset: 1234, interval: 7 })
    const devnet = await createDevnet({ ...PERSISTENCE_OPTIONS, db: new ClassicLevel<string, string>(dir) })
    expect(chainOf(devnet).clock.capture()).toEqual(clock)
    await devnet.close()
  })
})

describe('the block settings', () => {
  it('the coinbase, the block gas limit and a one-shot base fee and PREVRANDAO not used yet come back, and each mined block keeps the environment it was mined in', async () => {
    const db = new MemoryLevel<string, string>()
    const options = { ...PERSISTENCE_OPTIONS, hardfork: 'shanghai' as const }
    const env = new Interface(BlockEnv.abi as never)
    const first = await createDevnet({ ...options, db })
    const from = first.accounts[0]!.address
    const deploy = (await first.rpc('eth_sendTransaction', [{ from, data: BlockEnv.bytecode }])) as string
    const address = ((await first.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
    await first.setCoinbase(ALICE)
    await first.setBlockGasLimit(5_000_000)
    await first.setNextBlockBaseFeePerGas(7n)
    await first.setPrevRandao(RANDAO)
    const recorded = (await first.rpc('eth_sendTransaction', [{ from, to: address, data: env.encodeFunctionData('record'), gasPrice: '0x3b9aca00', gas: '0x30d40' }])) as string
    const minedIn = ((await first.rpc('eth_getTransactionReceipt', [recorded])) as { blockNumber: string }).blockNumber
    await first.mine()
    // Set after those blocks and not used yet when the devnet closes.
    await first.setCoinbase(BOB)
    await first.setBlockGasLimit(4_000_000)
    await first.setNextBlockBaseFeePerGas(9n)
    const read = async (devnet: Devnet, block: string) =>
      [...env.decodeFunctionResult('read', (await devnet.rpc('eth_call', [{ to: address, data: env.encodeFunctionData('read') }, block])) as string)].map(String)
    const observe = async (devnet: Devnet) => ({
      coinbase: await devnet.rpc('eth_coinbase'),
      next: await read(devnet, 'pending'),
      // A call at the block the record was mined in (the node's rule: as the block after it).
      atMined: await read(devnet, minedIn),
      trace: await devnet.rpc('debug_traceTransaction', [recorded, { disableStack: true }]),
    })
    const before = await observe(first)
    expect(before.next).toEqual([getAddress(BOB), '4000000', '9', '0'])
    expect(before.atMined).toEqual([getAddress(ALICE), '5000000', '7', BigInt(RANDAO).toString()])
    await first.close()
    const second = await createDevnet({ ...options, db })
    expect(second.resumed).toBe(true)
    expect(await observe(second)).toEqual(before)
    await second.close()
  })
})

describe('reset', () => {
  it('devnet.reset() starts a new chain over the database: reopened, it is the new one', async () => {
    const db = new MemoryLevel<string, string>()
    const devnet = await createDevnet({ ...PERSISTENCE_OPTIONS, db })
    await sendEvmTransfer(devnet, 1n)
    await devnet.mine(5)
    // A transaction waiting in the pool goes with the old chain.
    await devnet.rpc('evm_setAutomine', [false])
    const waiting = await sendEvmTransfer(devnet, 3n)
    // A state setter's batch carries the pool entry (memory-level writes it behind).
    await devnet.rpc('hardhat_setBalance', [devnet.accounts[0]!.address, '0x1'])
    await devnet.reset()
    const hash = await sendEvmTransfer(devnet, 2n)
    const head = await devnet.rpc('eth_getBlockByNumber', ['latest', false])
    await devnet.close()
    const reopened = await createDevnet({ ...PERSISTENCE_OPTIONS, db })
    expect(reopened.resumed).toBe(true)
    expect(await reopened.rpc('eth_getBlockByNumber', ['latest', false])).toEqual(head)
    expect(((await reopened.rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string }).blockNumber).toBe('0x1')
    expect(await reopened.rpc('eth_getBlockByNumber', ['0x2', false])).toBeNull()
    expect(await reopened.rpc('eth_getTransactionByHash', [waiting])).toBeNull()
    expect(await reopened.rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
    await reopened.close()
  })
})

describe('refusals', () => {
  async function madeWith(options: Parameters<typeof createDevnet>[0] = {}) {
    const db = new MemoryLevel<string, string>()
    const devnet = await createDevnet({ accounts: 1, console: false, ...options, db })
    await sendEvmTransfer(devnet, 1n)
    await devnet.close()
    return db
  }
  const entries = async (db: MemoryLevel<string, string>) => {
    await db.open()
    const all = await db.iterator().all()
    await db.close()
    return all
  }

  it('a database of other chain-shaping options: ChainMismatchError naming each difference, nothing written', async () => {
    const db = await madeWith({ chainId: 777 })
    const before = await entries(db)
    await expect(createDevnet({ accounts: 1, db })).rejects.toThrow(ChainMismatchError)
    await expect(createDevnet({ accounts: 1, db, hardfork: 'berlin', bookkeeperKey: `0x${'11'.repeat(32)}` })).rejects.toThrow(
      /^the database holds a chain with chain id 777 \(asked for 12345\), hardfork istanbul \(asked for berlin\), bookkeeper key 0x[0-9a-f]{66} \(asked for 0x[0-9a-f]{66}\); refusing to mix them/,
    )
    await expect(createDevnet({ accounts: 1, db, chainId: 777, unboundGas: {} })).rejects.toThrow('unbound gas off (asked for deadline 567648000)')
    expect(await entries(db)).toEqual(before)
    // The same options resume it.
    const resumed = await createDevnet({ accounts: 1, db, chainId: 777 })
    expect(resumed.resumed).toBe(true)
    expect(await resumed.rpc('eth_blockNumber')).toBe('0x1')
    await resumed.close()
  })

  it('an unknown schema version, a database of something else and a corrupted block: clear errors, nothing written', async () => {
    const future = await madeWith()
    await future.open()
    await future.put('m:schema', '99')
    await future.close()
    await expect(createDevnet({ accounts: 1, db: future })).rejects.toThrow(new UnsupportedVersionError('the database has schema version 99; this dualnet reads versions 1, 2 and 3 only'))

    const other = new MemoryLevel<string, string>()
    await other.open()
    await other.put('users:1', 'alice')
    await other.close()
    await expect(createDevnet({ db: other })).rejects.toThrow(CorruptDatabaseError)
    expect(await entries(other)).toEqual([['users:1', 'alice']])

    const corrupt = await madeWith()
    await corrupt.open()
    const block = JSON.parse((await corrupt.get('b:0000000001'))!) as { records: { gasUsed: string }[]; header: string }
    block.header = block.header.replace(/^00000000/, '01000000')
    await corrupt.put('b:0000000001', JSON.stringify(block))
    await corrupt.close()
    const before = await entries(corrupt)
    await expect(createDevnet({ accounts: 1, db: corrupt })).rejects.toThrow('block 1 in the database is corrupt: its header does not hash to the stored hash')
    expect(await entries(corrupt)).toEqual(before)
  })

  // Four CLI processes start at once (each loads tsx): on a busy machine that alone can take half a minute.
  it('the CLI: another chain id, a corrupted database, a state document of an unknown version and classic-level missing each exit 1 with one line, overwriting nothing', async () => {
    const [mismatch, corrupt] = [tempDir(), tempDir()]
    for (const dir of [mismatch, corrupt]) {
      const devnet = await createDevnet({ accounts: 1, console: false, chainId: dir === mismatch ? 99 : 12345, db: new ClassicLevel<string, string>(dir) })
      await sendEvmTransfer(devnet, 1n)
      await devnet.close()
    }
    // LevelDB's CURRENT names the manifest; garbage there makes the database unopenable.
    writeFileSync(join(corrupt, 'CURRENT'), 'garbage\n')
    const stateFile = join(tempDir(), 'state.json')
    const future = JSON.stringify({ format: 'dualnet-state', version: 99, chainId: 12345, head: { number: 0, timestamp: 0, hash: '0x' }, accounts: {}, allowances: [] })
    writeFileSync(stateFile, future)
    const [kept, print] = [fingerprint(mismatch), fingerprint(corrupt)]
    // classic-level is an optional dependency: a module hook makes it missing.
    const missing = `data:text/javascript,import { register } from "node:module"; register(${JSON.stringify(
      'data:text/javascript,export async function resolve(s, c, n) { if (s === "classic-level") throw new Error("Cannot find package classic-level"); return n(s, c) }',
    )})`
    const nowhere = join(tempDir(), 'db')
    const [a, b, c, d] = await Promise.all([
      run([CLI, '--db', mismatch, '--rpcport', '0', '--quiet']),
      run([CLI, '--db', corrupt, '--rpcport', '0', '--quiet']),
      run([CLI, '--state', stateFile, '--rpcport', '0', '--quiet']),
      run(['--import', missing, CLI, '--db', nowhere, '--rpcport', '0', '--quiet']),
    ])
    expect([a.code, b.code, c.code, d.code]).toEqual([1, 1, 1, 1])
    expect(d.stderr).toBe('dualnet: --db needs the optional package classic-level, which could not be loaded (npm install classic-level): Cannot find package classic-level\n')
    expect(readdirSync(join(nowhere, '..'))).toEqual([])
    expect(a.stderr).toBe('dualnet: the database holds a chain with chain id 99 (asked for 12345); refusing to mix them (use another database, or the same options)\n')
    expect(b.stderr).toBe(
      `dualnet: the database in ${corrupt} is refused, and left as it was: its CURRENT file does not name a MANIFEST (it reads "garbage\\n"). LevelDB's repair may salvage it: copy the directory, run node -e "require('classic-level').ClassicLevel.repair(process.argv[1])" <copy> and start with --db <copy>; or start a new chain with a new --db directory\n`,
    )
    expect(c.stderr).toBe('dualnet: state document version 99 is not supported; this dualnet reads version 1\n')
    expect(fingerprint(mismatch)).toEqual(kept)
    expect(fingerprint(corrupt)).toEqual(print)
    expect(readFileSync(stateFile, 'utf8')).toBe(future)
  }, 120_000)
})

describe('durability', () => {
  it('answers wait for writes only with a database that outlives the process', async () => {
    const memory = await createDevnet({ accounts: 1, console: false, db: new MemoryLevel<string, string>() })
    await sendEvmTransfer(memory, 1n)
    expect(chainOf(memory).flushed()).toBeUndefined()
    await memory.close()
    const dir = tempDir()
    const disk = await createDevnet({ accounts: 1, console: false, db: new ClassicLevel<string, string>(dir) })
    const hash = await sendEvmTransfer(disk, 1n)
    // The answer came after the block's batch: nothing is in flight.
    expect(chainOf(disk).flushed()).toBeUndefined()
    await disk.close()
    const db = new ClassicLevel<string, string>(dir)
    await db.open()
    expect(JSON.parse((await db.get('b:0000000001'))!).transactions[0].evm).toBeDefined()
    expect(JSON.parse((await db.get('m:tip'))!).height).toBe(1)
    await db.close()
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
