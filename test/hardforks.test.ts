/**
 * The `hardfork` option from Istanbul (the chain's, reference §6.3) up to Prague: the
 * chosen fork's opcodes run (PUSH0 on Shanghai, TSTORE/TLOAD and MCOPY on Cancun),
 * while the chain keeps its own fee rules on every fork: no base fee (blocks carry
 * none, BASEFEE reads 0), the whole fee gas used × gas price to governance 0x…07 with
 * its Transfer log (§6.4, §6.5), typed transactions refused. An opcode a fork lacks
 * keeps failing with the error that names it. Snapshots, REST balances and receipts
 * agree. Fixtures: Token (Istanbul), TokenShanghai (PUSH0), Transient (Cancun).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, Wallet, id } from 'ethers'
import { SelfDestruct, Token, TokenShanghai, Transient } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { CHAIN_ID, GAS_TOKEN, GOVERNANCE, GWEI, SUPPLY, TRANSFER_TOPIC, addressTopic, word } from './support.ts'

const token = new Interface(Token.abi as never)
const transient = new Interface(Transient.abi as never)
const selfDestruct = new Interface(SelfDestruct.abi as never)
const FORKS = ['istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague'] as const
type Fork = (typeof FORKS)[number]
const AT_LEAST_SHANGHAI: readonly Fork[] = ['shanghai', 'cancun', 'prague']
const AT_LEAST_CANCUN: readonly Fork[] = ['cancun', 'prague']

type Log = { address: string; topics: string[]; data: string }
type Receipt = { status: string; gasUsed: string; logs: Log[]; contractAddress: string | null; effectiveGasPrice: string }

/** Base58 of governance 0x…07 (reference §0). */
const GOVERNANCE_BASE58 = 'AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK'

/** Balances of an account: wei by JSON-RPC (0x address), and the REST v2 gas balance (1e-18 units, §1.4.3; Base58). */
async function balances(devnet: Devnet, address: string, base58: string): Promise<{ rpc: bigint; rest: bigint }> {
  const rpc = BigInt(await devnet.rpc('eth_getBalance', [address, 'latest']))
  const rest = (await devnet.rest.get(`/api/v1/balancev2/${base58}`)).Result
  return { rpc, rest: BigInt(rest.gas) }
}

async function send(devnet: Devnet, tx: { from: string; to?: string; data?: string; gasPrice?: bigint; gas?: number }): Promise<Receipt> {
  const hash = (await devnet.rpc('eth_sendTransaction', [
    {
      from: tx.from,
      ...(tx.to === undefined ? {} : { to: tx.to }),
      data: tx.data ?? '0x',
      gasPrice: `0x${(tx.gasPrice ?? GWEI).toString(16)}`,
      ...(tx.gas === undefined ? {} : { gas: `0x${tx.gas.toString(16)}` }),
    },
  ])) as string
  return (await devnet.rpc('eth_getTransactionReceipt', [hash])) as Receipt
}

/** The fee log every EVM transaction with a non-zero fee ends with (§6.4). */
const feeLog = (from: string, fee: bigint): Log => ({ address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(GOVERNANCE)], data: word(fee) })
const shape = (logs: Log[]) => logs.map(({ address, topics, data }) => ({ address, topics, data }))

describe.each(FORKS)('hardfork %s', (hardfork) => {
  let devnet: Devnet
  let a: string
  let b: string

  beforeAll(async () => {
    devnet = await createDevnet({ hardfork, accounts: 2, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000 })
    a = devnet.accounts[0]!.address
    b = devnet.accounts[1]!.address
  })
  afterAll(() => devnet.close())

  const artifact = AT_LEAST_SHANGHAI.includes(hardfork) ? TokenShanghai : Token
  const transfers = AT_LEAST_SHANGHAI.includes(hardfork) ? 100 : 5

  it(`runs ${artifact.contractName} for ${transfers} transfers; every fee is gas used × gas price, to governance, and balances agree on both surfaces`, async () => {
    const governance0 = await balances(devnet, GOVERNANCE, GOVERNANCE_BASE58)
    const a0 = await balances(devnet, a, devnet.accounts[0]!.base58)
    const snapshot = await devnet.snapshot()
    const deployed = await send(devnet, { from: a, data: artifact.bytecode + token.encodeDeploy(['T', 'T', SUPPLY]).slice(2), gasPrice: 2n * GWEI })
    expect(deployed.status).toBe('0x1')
    const address = deployed.contractAddress!
    let fees = BigInt(deployed.gasUsed) * 2n * GWEI
    expect(shape(deployed.logs).at(-1)).toEqual(feeLog(a, fees))
    for (let i = 1; i <= transfers; i++) {
      const gasPrice = BigInt(i % 3) * GWEI
      const r = await send(devnet, { from: a, to: address, data: token.encodeFunctionData('transfer', [b, BigInt(i)]), gasPrice })
      expect(r.status).toBe('0x1')
      expect(BigInt(r.effectiveGasPrice)).toBe(gasPrice)
      const fee = BigInt(r.gasUsed) * gasPrice
      fees += fee
      const transfer = { address, topics: [id('Transfer(address,address,uint256)'), addressTopic(a), addressTopic(b)], data: word(BigInt(i)) }
      expect(shape(r.logs)).toEqual(fee === 0n ? [transfer] : [transfer, feeLog(a, fee)])
    }
    const sum = BigInt((transfers * (transfers + 1)) / 2)
    const call = async (data: string) => await devnet.rpc('eth_call', [{ to: address, data }, 'latest'])
    expect(BigInt(await call(token.encodeFunctionData('balanceOf', [b])))).toBe(sum)

    const governance1 = await balances(devnet, GOVERNANCE, GOVERNANCE_BASE58)
    const a1 = await balances(devnet, a, devnet.accounts[0]!.base58)
    expect(governance1.rpc - governance0.rpc).toBe(fees)
    expect(a0.rpc - a1.rpc).toBe(fees)
    expect(governance1.rest).toBe(governance1.rpc)
    expect(a1.rest).toBe(a1.rpc)
    // No block carries a base fee, whatever the fork.
    const latest = (await devnet.rpcUntyped('eth_getBlockByNumber', ['latest', false])) as Record<string, unknown>
    expect(latest).not.toHaveProperty('baseFeePerGas')

    expect(await devnet.revert(snapshot)).toBe(true)
    expect(await balances(devnet, GOVERNANCE, GOVERNANCE_BASE58)).toEqual(governance0)
    expect(await balances(devnet, a, devnet.accounts[0]!.base58)).toEqual(a0)
    expect(await devnet.rpc('eth_getCode', [address, 'latest'])).toBe('0x')
  })

  it(`SELFDESTRUCT pays out with its Transfer log and ${AT_LEAST_CANCUN.includes(hardfork) ? 'keeps the contract (EIP-6780), unless created in the same transaction' : 'deletes the contract'}`, async () => {
    const endowment = 7n * GWEI
    const hash = await devnet.rpc('eth_sendTransaction', [{ from: a, data: SelfDestruct.bytecode, value: `0x${endowment.toString(16)}`, gasPrice: '0x0' }])
    const address = ((await devnet.rpc('eth_getTransactionReceipt', [hash])) as Receipt).contractAddress!
    const r = await send(devnet, { from: a, to: address, data: selfDestruct.encodeFunctionData('destroy', [b]), gasPrice: 0n })
    expect(r.status).toBe('0x1')
    expect(shape(r.logs).at(-1)).toEqual({ address: GAS_TOKEN, topics: [TRANSFER_TOPIC, addressTopic(address), addressTopic(b)], data: word(endowment) })
    expect(await devnet.rpc('eth_getBalance', [address, 'latest'])).toBe('0x0')
    const kept = AT_LEAST_CANCUN.includes(hardfork)
    expect(await devnet.rpc('eth_getCode', [address, 'latest'])).toBe(kept ? SelfDestruct.deployedBytecode : '0x')
    // Created and destroyed in one transaction: gone on every fork. Init code: CALLER; SELFDESTRUCT.
    const created = await send(devnet, { from: a, data: '0x33ff', gasPrice: 0n, gas: 100_000 })
    expect(created.status).toBe('0x1')
    expect(await devnet.rpcUntyped('eth_getCode', [created.contractAddress, 'latest'])).toBe('0x')
    expect(await devnet.rpcUntyped('eth_getTransactionCount', [created.contractAddress, 'latest'])).toBe('0x0')
  })

  // 500 zero and 500 non-zero bytes to an account without code: 21,000 + 4 × 500 + 16 × 500
  // = 31,000 of intrinsic gas; on Prague EIP-7623's floor, 21,000 + 10 × (500 + 4 × 500) = 46,000.
  const calldata = `0x${'00'.repeat(500)}${'ff'.repeat(500)}`
  const calldataGas = hardfork === 'prague' ? 46_000n : 31_000n

  it(`calldata: gas used ${calldataGas}${hardfork === 'prague' ? " (EIP-7623's floor)" : ''}; estimated exactly; a gas limit one below is refused by the pool and changes nothing`, async () => {
    expect(BigInt(await devnet.rpc('eth_estimateGas', [{ from: a, to: b, data: calldata }]))).toBe(calldataGas)
    const nonce = await devnet.rpc('eth_getTransactionCount', [a, 'pending'])
    await expect(send(devnet, { from: a, to: b, data: calldata, gas: Number(calldataGas) - 1 })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining(`error: gasLimit ${calldataGas - 1n} is less than the ${calldataGas} the transaction needs to run`),
    })
    await expect(send(devnet, { from: a, to: b, data: calldata, gas: Number(calldataGas) - 1 })).rejects.toThrow(/\(intrinsic gas too low\)$/)
    expect(await devnet.rpc('eth_getTransactionCount', [a, 'pending'])).toBe(nonce)
    const r = await send(devnet, { from: a, to: b, data: calldata, gas: Number(calldataGas) })
    expect(r.status).toBe('0x1')
    expect(BigInt(r.gasUsed)).toBe(calldataGas)
    expect(shape(r.logs)).toEqual([feeLog(a, calldataGas * GWEI)])
  })

  it('refuses typed transactions', async () => {
    const wallet = new Wallet(devnet.accounts[0]!.privateKey)
    const raw = await wallet.signTransaction({ type: 2, chainId: CHAIN_ID, nonce: 0, maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI, gasLimit: 21_000, to: b })
    await expect(devnet.rpc('eth_sendRawTransaction', [raw])).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/typed transaction/) })
  })

  it.runIf(hardfork !== 'istanbul' && hardfork !== 'berlin')('BASEFEE reads 0 (the chain has no base fee), in calls and mined transactions', async () => {
    // BASEFEE; PUSH1 0; MSTORE; PUSH1 32; PUSH1 0; RETURN — as init code, its return value is the new code.
    const code = '0x4860005260206000f3'
    expect(await devnet.rpc('eth_call', [{ from: a, data: code }, 'latest'])).toBe(word(0n))
    const r = await send(devnet, { from: a, data: code, gas: 100_000 })
    expect(r.status).toBe('0x1')
    expect(await devnet.rpcUntyped('eth_getCode', [r.contractAddress, 'latest'])).toBe(word(0n))
  })

  it.runIf(AT_LEAST_CANCUN.includes(hardfork))('runs TSTORE/TLOAD and MCOPY (Transient); BLOBBASEFEE reads 1 wei', async () => {
    const deployed = await send(devnet, { from: a, data: Transient.bytecode })
    expect(deployed.status).toBe('0x1')
    const address = deployed.contractAddress!
    const r = await send(devnet, { from: a, to: address, data: transient.encodeFunctionData('roundTrip', [42n]) })
    expect(r.status).toBe('0x1')
    expect(shape(r.logs)[0]).toEqual({ address, topics: [id('Seen(uint256)')], data: word(42n) })
    // Transient storage is gone after the transaction.
    expect(await devnet.rpc('eth_call', [{ to: address, data: transient.encodeFunctionData('load') }, 'latest'])).toBe(word(0n))
    const twice = await devnet.rpc('eth_call', [{ to: address, data: transient.encodeFunctionData('twice', ['0xabcdef']) }, 'latest'])
    expect(transient.decodeFunctionResult('twice', twice)[0]).toBe('0xabcdefabcdef')
    expect(await devnet.rpc('eth_call', [{ from: a, data: '0x4a60005260206000f3' }, 'latest'])).toBe(word(1n))
  })

  it.runIf(!AT_LEAST_SHANGHAI.includes(hardfork))('refuses PUSH0 code with the error naming the opcode and this fork', async () => {
    await expect(devnet.rpc('eth_estimateGas', [{ from: a, data: TokenShanghai.bytecode + token.encodeDeploy(['T', 'T', 1n]).slice(2) }])).rejects.toMatchObject({
      message: expect.stringContaining(`PUSH0 (0x5f) is not available on this chain's EVM (${hardfork})`),
    })
  })

  it.runIf(AT_LEAST_SHANGHAI.includes(hardfork) && !AT_LEAST_CANCUN.includes(hardfork))('refuses TSTORE with the error naming the opcode and this fork', async () => {
    const deployed = await send(devnet, { from: a, data: Transient.bytecode })
    expect(deployed.status).toBe('0x1')
    await expect(devnet.rpc('eth_call', [{ from: a, to: deployed.contractAddress, data: transient.encodeFunctionData('roundTrip', [1n]) }, 'latest'])).rejects.toMatchObject({
      message: expect.stringContaining(`TSTORE (0x5d) is not available on this chain's EVM (${hardfork})`),
    })
  })
})
