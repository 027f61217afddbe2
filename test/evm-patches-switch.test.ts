/**
 * The switch of the run-time patches of @ethereumjs/evm (src/evm/patches/index.ts,
 * `DUALNET_EVM_PATCHES=0`): one workload on a devnet with the patches and on one
 * without must agree exactly (receipts with their logs and gas, blocks with their
 * hashes, balances, storage, call results and errors, estimates, and both tracers'
 * traces), and the devnet without them must run ethereumjs' own interpreter and still
 * be paced (a trace's timeout stops a long run). The workload: the Token fixture
 * (deploy, transfers, a failing one, approve and transferFrom), value sends, the
 * SelfDestruct fixture (payout log, a reverted self-destruct), Reverter's reverts and
 * panics, Store's writes and deposits.
 */
import { Interface, parseEther, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Reverter, SelfDestruct, Store, Token } from '../fixtures/index.ts'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { loadEvmModules } from '../src/evm/ethereumjsModules.ts'
import { EVM_PATCHES_ENV } from '../src/evm/patches/switch.ts'
import { GAS_TOKEN, TRANSFER_TOPIC } from './support.ts'

const token = new Interface(Token.abi as InterfaceAbi)
const selfDestruct = new Interface(SelfDestruct.abi as InterfaceAbi)
const reverter = new Interface(Reverter.abi as InterfaceAbi)
const store = new Interface(Store.abi as InterfaceAbi)
const OPTIONS = { accounts: 3, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000, console: false } as const
const GAS = '0x200000'
const LOOP = '0x5b600056'

/** A devnet made with `DUALNET_EVM_PATCHES` set to `value` (the executor reads it when made). */
async function devnetWith(value: string | undefined): Promise<Devnet> {
  const before = process.env[EVM_PATCHES_ENV]
  if (value === undefined) delete process.env[EVM_PATCHES_ENV]
  else process.env[EVM_PATCHES_ENV] = value
  try {
    return await createDevnet(OPTIONS)
  } finally {
    if (before === undefined) delete process.env[EVM_PATCHES_ENV]
    else process.env[EVM_PATCHES_ENV] = before
  }
}

/** The answer of `method`, or its error as JSON: errors are results to compare too. */
async function answer(devnet: Devnet, method: string, params: unknown[]): Promise<unknown> {
  try {
    return await devnet.rpc(method as never, params as never)
  } catch (err) {
    if (err instanceof RpcError) return { error: err.toJSON() }
    throw err
  }
}

/** Runs the workload on `devnet`; resolves to everything observable of it, in order. */
async function workload(devnet: Devnet): Promise<unknown[]> {
  const [a, b, c] = devnet.accounts.map((account) => account.address) as [string, string, string]
  const seen: unknown[] = []
  const hashes: string[] = []
  const send = async (from: string, to: string | undefined, data = '0x', value = 0n): Promise<string> => {
    const tx = { from, ...(to === undefined ? {} : { to }), data, value: `0x${value.toString(16)}`, gas: GAS, gasPrice: '0x3b9aca00' }
    const hash = (await devnet.rpc('eth_sendTransaction', [tx])) as string
    hashes.push(hash)
    return hash
  }
  const deploy = async (bytecode: string, value = 0n): Promise<string> => {
    const hash = await send(a, undefined, bytecode, value)
    return ((await devnet.rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string }).contractAddress
  }
  const call = (to: string, data: string, block: unknown = 'latest') => answer(devnet, 'eth_call', [{ from: a, to, data, gas: GAS }, block])

  const tokenAddress = await deploy(Token.bytecode + token.encodeDeploy(['T', 'T', parseEther('1000')]).slice(2))
  await send(a, tokenAddress, token.encodeFunctionData('transfer', [b, parseEther('10')]))
  await send(b, tokenAddress, token.encodeFunctionData('transfer', [c, parseEther('11')])) // more than b holds: reverts
  await send(b, tokenAddress, token.encodeFunctionData('approve', [c, parseEther('4')]))
  await send(c, tokenAddress, token.encodeFunctionData('transferFrom', [b, a, parseEther('3')]))
  await send(a, b, '0x', parseEther('1.5'))
  const destructible = await deploy(SelfDestruct.bytecode, parseEther('5'))
  await send(a, destructible, selfDestruct.encodeFunctionData('tryDestroyAndRevert', [c]))
  await send(a, destructible, selfDestruct.encodeFunctionData('destroy', [c]), parseEther('2'))
  const reverterAddress = await deploy(Reverter.bytecode)
  await send(a, reverterAddress, reverter.encodeFunctionData('setValue', [7]))
  await send(a, reverterAddress, reverter.encodeFunctionData('setAndRevert', [9]))
  const storeAddress = await deploy(Store.bytecode)
  await send(a, storeAddress, store.encodeFunctionData('deposit'), parseEther('0.25'))
  await send(b, storeAddress, store.encodeFunctionData('setEntry', [3, `0x${'ab'.repeat(32)}`]))
  await send(c, storeAddress, store.encodeFunctionData('increment'))

  for (const hash of hashes) {
    seen.push(await devnet.rpc('eth_getTransactionReceipt', [hash]))
    seen.push(await answer(devnet, 'debug_traceTransaction', [hash, {}]))
    seen.push(await answer(devnet, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]))
  }
  const height = Number(await devnet.rpc('eth_blockNumber', []))
  for (let n = 0; n <= height; n++) seen.push(await devnet.rpc('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]))
  for (const address of [a, b, c, tokenAddress, destructible, reverterAddress, storeAddress]) {
    seen.push(await devnet.rpc('eth_getBalance', [address, 'latest']), await devnet.rpc('eth_getCode', [address, 'latest']))
    for (let slot = 0; slot < 4; slot++) seen.push(await devnet.rpc('eth_getStorageAt', [address, `0x${slot.toString(16)}`, 'latest']))
  }
  seen.push(await call(tokenAddress, token.encodeFunctionData('balanceOf', [a])), await call(tokenAddress, token.encodeFunctionData('balanceOf', [b]), '0x2'))
  seen.push(await call(reverterAddress, reverter.encodeFunctionData('revertWithReason')), await call(reverterAddress, reverter.encodeFunctionData('panicDivide', [0])))
  seen.push(await call(reverterAddress, reverter.encodeFunctionData('revertWithCustomError', [5])), await call(storeAddress, store.encodeFunctionData('count')))
  seen.push(await answer(devnet, 'eth_estimateGas', [{ from: c, to: storeAddress, data: store.encodeFunctionData('increment') }]))
  seen.push(await answer(devnet, 'eth_estimateGas', [{ from: b, to: tokenAddress, data: token.encodeFunctionData('transfer', [a, parseEther('999')]) }]))
  seen.push(await answer(devnet, 'debug_traceCall', [{ from: a, to: tokenAddress, data: token.encodeFunctionData('transfer', [b, 1n]) }, 'latest', { tracer: 'callTracer' }]))
  return seen
}

describe('the EVM patches switch', () => {
  let patched: Devnet
  let unpatched: Devnet

  beforeAll(async () => {
    patched = await devnetWith(undefined)
    unpatched = await devnetWith('0')
  })
  afterAll(async () => {
    await patched?.close()
    await unpatched?.close()
  })

  it('one workload with the patches and without: every receipt, log, block, balance, slot, call, estimate and trace identical', async () => {
    const on = await workload(patched)
    const off = await workload(unpatched)
    expect(off).toEqual(on)
    // The workload is what it claims: a failed transaction, and the SELFDESTRUCT payout of 7 ETH (endowment + call value) logged.
    const receipts = on.filter(
      (item): item is { status: string; logs: { address: string; topics: string[]; data: string }[] } => typeof item === 'object' && item !== null && 'logsBloom' in item && 'status' in item,
    )
    expect(receipts.filter((receipt) => receipt.status === '0x0').length).toBe(2)
    const payouts = receipts.flatMap((receipt) => receipt.logs).filter((log) => log.address === GAS_TOKEN && log.topics[0] === TRANSFER_TOPIC && BigInt(log.data) === parseEther('7'))
    expect(payouts.length).toBe(1)
    // Every trace answered; the only error answers are the three reverting calls' and the estimate's of a transfer beyond the balance.
    expect(on.filter((item) => typeof item === 'object' && item !== null && Object.keys(item).join() === 'error').length).toBe(4)
  }, 240_000)

  it('the devnet without the patches runs ethereumjs’ own interpreter step by step; the one with them does not', async () => {
    const Interpreter = (await loadEvmModules())!.Interpreter
    const proto = Interpreter.prototype as { runStep: (...args: unknown[]) => unknown }
    const runStep = proto.runStep
    let steps = 0
    proto.runStep = function (this: unknown, ...args: unknown[]) {
      steps++
      return runStep.apply(this, args)
    }
    try {
      const probe = (devnet: Devnet) => devnet.rpc('eth_call', [{ from: devnet.accounts[0]!.address, data: '0x600160020160005260206000f3' }, 'latest'])
      steps = 0
      expect(await probe(patched)).toBe(`0x${'3'.padStart(64, '0')}`)
      expect(steps).toBe(0)
      expect(await probe(unpatched)).toBe(`0x${'3'.padStart(64, '0')}`)
      expect(steps).toBe(8)
    } finally {
      proto.runStep = runStep
    }
  })

  it('without the patches, a long run is still paced: a trace past its timeout stops with the timeout error', async () => {
    const loop = { from: unpatched.accounts[0]!.address, data: LOOP, gas: '0x5b8d80' }
    const err = await unpatched.rpc('debug_traceCall', [loop, 'latest', { timeout: '250ms', tracer: 'callTracer' }]).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(RpcError)
    expect((err as RpcError).toJSON()).toEqual({ code: -32000, message: 'execution timeout: the trace ran past 250 ms (option traceTimeout, or the tracer option timeout)' })
  })
})
