/**
 * The rest of Anvil's read and pool names (issue 34, acceptance "Anvil's list is all
 * served"): eth_getAccountInfo, eth_getStorageValues, eth_baseFee,
 * debug_getRawTransactions and the aliases eth_networkId, eth_requestAccounts,
 * tenderly_setBalance / tenderly_addBalance and debug_clearTxpool; in process, over
 * HTTP, and below a fork's block (composed of standard reads of the remote).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { historyRemote, rpcResult, STRANGER, type HistoryRemote } from './fork-support.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const OTHER = `0x${'ab'.repeat(20)}`
const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`

let devnet: Devnet
let rpcUrl: string
let wallet: Wallet
let raw: string
let blockNumber: string

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
  wallet = new Wallet(devnet.accounts[0]!.privateKey)
  raw = await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, gasPrice: GWEI, gasLimit: 21_000n, to: OTHER, value: 5n })
  const hash = (await devnet.rpc('eth_sendRawTransaction', [raw])) as string
  blockNumber = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!.blockNumber
})

afterAll(async () => {
  await devnet?.close()
})

describe('eth_getAccountInfo', () => {
  it('answers balance (wei), nonce and code as eth_getBalance, eth_getTransactionCount and eth_getCode do, at latest by default and at a past block', async () => {
    const latest = await devnet.rpc('eth_getAccountInfo', [wallet.address])
    expect(latest).toEqual({
      balance: await devnet.rpc('eth_getBalance', [wallet.address, 'latest']),
      nonce: '0x1',
      code: '0x',
    })
    const before = await devnet.rpc('eth_getAccountInfo', [wallet.address, '0x0'])
    expect(before.nonce).toBe('0x0')
    expect(BigInt(before.balance)).toBeGreaterThan(BigInt(latest.balance))
    expect(await rpcResult(rpcUrl, 'eth_getAccountInfo', [OTHER, blockNumber])).toEqual({ balance: '0x5', nonce: '0x0', code: '0x' })
  })

  it('refuses a malformed address with -32602', async () => {
    await expect(devnet.rpc('eth_getAccountInfo', ['0x12'])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('eth_getStorageValues', () => {
  it('answers each asked slot as a 32-byte word, per lowercase address, in the order asked', async () => {
    const contract = `0x${'cd'.repeat(20)}`
    await devnet.rpc('anvil_setStorageAt', [contract, word(1n), word(0xbeefn)])
    const answer = await devnet.rpc('eth_getStorageValues', [{ [contract.toUpperCase().replace('0X', '0x')]: [word(1n), word(2n)], [OTHER]: [word(0n)] }])
    expect(answer).toEqual({ [contract]: [word(0xbeefn), word(0n)], [OTHER]: [word(0n)] })
    expect(await rpcResult(rpcUrl, 'eth_getStorageValues', [{ [contract]: [word(1n)] }, '0x0'])).toEqual({ [contract]: [word(0n)] })
  })

  it('refuses more than 1,024 slots, and malformed slots, with -32602, as Anvil does', async () => {
    const many = Array.from({ length: 1025 }, (_, i) => word(BigInt(i)))
    await expect(devnet.rpc('eth_getStorageValues', [{ [OTHER]: many }])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('total slot count 1025 exceeds limit 1024') })
    await expect(devnet.rpc('eth_getStorageValues', [{ [OTHER]: ['0x1'] }])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('eth_getStorageValues', [[OTHER]] as never)).rejects.toMatchObject({ code: -32602 })
  })
})

describe('eth_baseFee', () => {
  it('is null where EIP-1559 is not active (istanbul, the default), as Anvil answers before London', async () => {
    expect(await devnet.rpc('eth_baseFee', [])).toBeNull()
  })

  it('is the next block base fee on london: 0, or what hardhat_setNextBlockBaseFeePerGas set', async () => {
    const london = await createDevnet({ hardfork: 'london', console: false })
    try {
      expect(await london.rpc('eth_baseFee', [])).toBe('0x0')
      await london.rpc('hardhat_setNextBlockBaseFeePerGas', ['0x3b9aca00'])
      expect(await london.rpc('eth_baseFee', [])).toBe('0x3b9aca00')
    } finally {
      await london.close()
    }
  })
})

describe('debug_getRawTransactions', () => {
  it("lists the block's signed transactions, and nothing for an unknown block", async () => {
    expect(await devnet.rpc('debug_getRawTransactions', [blockNumber])).toEqual([raw])
    expect(await rpcResult(rpcUrl, 'debug_getRawTransactions', ['0x0'])).toEqual([])
    expect(await devnet.rpc('debug_getRawTransactions', ['0xffffff'])).toEqual([])
  })
})

describe('aliases Anvil answers', () => {
  it('eth_networkId is net_version; eth_requestAccounts is eth_accounts', async () => {
    expect(await devnet.rpc('eth_networkId', [])).toBe(await devnet.rpc('net_version', []))
    expect(await rpcResult(rpcUrl, 'eth_requestAccounts', [])).toEqual(await devnet.rpc('eth_accounts', []))
  })

  it('tenderly_setBalance and tenderly_addBalance change the balance; debug_clearTxpool empties the pool', async () => {
    const who = `0x${'ef'.repeat(20)}`
    expect(await devnet.rpc('tenderly_setBalance', [who, '0x10'])).toBe(true)
    expect(await devnet.rpc('tenderly_addBalance', [who, '0x5'])).toBeNull()
    expect(await devnet.rpc('eth_getBalance', [who, 'latest'])).toBe('0x15')
    await devnet.rpc('evm_setAutomine', [false])
    try {
      await devnet.rpc('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 1, gasPrice: GWEI, gasLimit: 21_000n, to: OTHER, value: 1n })])
      expect((await devnet.rpc('txpool_status', [])).pending).toBe('0x1')
      expect(await devnet.rpc('debug_clearTxpool', [])).toBeNull()
      expect((await devnet.rpc('txpool_status', [])).pending).toBe('0x0')
    } finally {
      await devnet.rpc('evm_setAutomine', [true])
    }
  })
})

describe('below a fork block', () => {
  let history: HistoryRemote
  let fork: Devnet

  beforeAll(async () => {
    history = await historyRemote()
    fork = await createDevnet({ fork: { url: history.url, blockNumber: history.forkBlock }, console: false })
  })

  afterAll(async () => {
    await fork?.close()
    await history?.remote.close()
  })

  it("composes the remote's standard reads: eth_getAccountInfo and eth_getStorageValues answer what the remote holds at that block", async () => {
    const at = '0x2'
    expect(await fork.rpc('eth_getAccountInfo', [history.token, at])).toEqual({
      balance: await history.remote.rpc('eth_getBalance', [history.token, at]),
      nonce: await history.remote.rpc('eth_getTransactionCount', [history.token, at]),
      code: await history.remote.rpc('eth_getCode', [history.token, at]),
    })
    const slots = [word(0n), word(1n), word(2n)]
    const expected = await Promise.all(slots.map(async (slot) => word(BigInt((await history.remote.rpc('eth_getStorageAt', [history.token, slot, at])) || '0x0'))))
    expect(await fork.rpc('eth_getStorageValues', [{ [history.token]: slots, [STRANGER]: [word(0n)] }, at])).toEqual({ [history.token]: expected, [STRANGER]: [word(0n)] })
  })
})

describe('eth_config (EIP-7910)', () => {
  it('describes the hardfork the devnet runs: Istanbul precompiles, no blobs, the chain id, the genesis fork hash', async () => {
    const { current, next, last } = await devnet.rpc('eth_config', [])
    expect({ next, last }).toEqual({ next: null, last: null })
    expect(current.activationTime).toBe(0)
    expect(current.blobSchedule).toBeNull()
    expect(current.chainId).toBe(`0x${CHAIN_ID.toString(16)}`)
    expect(current.forkId).toMatch(/^0x[0-9a-f]{8}$/)
    expect(Object.keys(current.precompiles)).toEqual(['ECREC', 'SHA256', 'RIPEMD160', 'ID', 'MODEXP', 'BN254_ADD', 'BN254_MUL', 'BN254_PAIRING', 'BLAKE2F'])
    expect(current.systemContracts).toEqual({})
    expect(await rpcResult(rpcUrl, 'eth_config', [])).toEqual({ current, next, last })
  })

  it('on prague: the blob schedule of EIP-7691 and the BLS12-381 precompiles', async () => {
    const prague = await createDevnet({ hardfork: 'prague', console: false })
    try {
      const { current } = await prague.rpc('eth_config', [])
      expect(current.blobSchedule).toEqual({ target: 6, max: 9, baseFeeUpdateFraction: 5_007_716 })
      expect(current.precompiles.KZG_POINT_EVALUATION).toBe('0x000000000000000000000000000000000000000a')
      expect(current.precompiles.BLS12_MAP_FP2_TO_G2).toBe('0x0000000000000000000000000000000000000011')
    } finally {
      await prague.close()
    }
  })
})

describe('anvil_getLastBlockWallTime', () => {
  it('is the wall clock (ms) when the head was mined: it moves with mining, not with time controls or a revert', async () => {
    const before = Date.now()
    await devnet.rpc('evm_mine', [])
    const mined = await devnet.rpc('anvil_getLastBlockWallTime', [])
    expect(mined).toBeGreaterThanOrEqual(before)
    expect(mined).toBeLessThanOrEqual(Date.now())
    const snapshot = await devnet.rpc('evm_snapshot', [])
    await devnet.rpc('evm_increaseTime', [3600])
    expect(await devnet.rpc('anvil_getLastBlockWallTime', [])).toBe(mined)
    await devnet.rpc('hardhat_mine', ['0x3'])
    const afterMine = await rpcResult<number>(rpcUrl, 'anvil_getLastBlockWallTime', [])
    expect(afterMine).toBeGreaterThanOrEqual(mined)
    await devnet.rpc('evm_revert', [snapshot])
    expect(await devnet.rpc('anvil_getLastBlockWallTime', [])).toBe(afterMine)
  })
})
