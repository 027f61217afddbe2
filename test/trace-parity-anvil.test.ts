/**
 * trace_transaction against Anvil `--hardfork istanbul` (test:tools): the same
 * transactions (the TraceCaller fixture's nested calls with value and a reverted
 * STATICCALL, its deploy, a value transfer) traced on both, legacy transactions at one
 * gas price. The fields that differ by the chain's rules, left out of the comparison:
 * blockHash and transactionHash (the chain's hashes). Gas (the top frame's without the
 * intrinsic gas), outputs, errors and positions are compared.
 */
import { Interface } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { foundryBinary } from './foundry-support.ts'

let anvil: ChildProcess | undefined
let anvilUrl: string
let devnet: Devnet
const callerAbi = new Interface(TraceCaller.abi as never)

async function anvilCall(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvilUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (answer.error !== undefined) throw new Error(answer.error.message)
  return answer.result
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A trace with the fields the chain's rules change left out: its hashes (the chain's block and transaction hashes). */
function comparable(trace: Record<string, unknown>): unknown {
  const { blockHash: _h, transactionHash: _t, ...rest } = trace
  return rest
}

/** Runs the transactions on one node through `rpc`; the hashes. */
async function scenario(rpc: (method: string, params: unknown[]) => Promise<unknown>, from: string): Promise<string[]> {
  // Anvil may answer a receipt only once its block is stored: polled until it is.
  const receipt = async (tx: string) => {
    for (;;) {
      const found = (await rpc('eth_getTransactionReceipt', [tx])) as { contractAddress: string } | null
      if (found !== null) return found
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const calleeTx = (await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode, gas: '0x200000', gasPrice: '0x3b9aca00' }])) as string
  const callee = (await receipt(calleeTx)).contractAddress
  const callerTx = (await rpc('eth_sendTransaction', [{ from, data: TraceCaller.bytecode + callerAbi.encodeDeploy([callee]).slice(2), gas: '0x200000', gasPrice: '0x3b9aca00' }])) as string
  const caller = (await receipt(callerTx)).contractAddress
  const run = (await rpc('eth_sendTransaction', [{ from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40', gasPrice: '0x3b9aca00' }])) as string
  const transfer = (await rpc('eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000000000aa', value: '0x7', gas: '0x5208', gasPrice: '0x3b9aca00' }])) as string
  await receipt(run)
  await receipt(transfer)
  return [callerTx, run, transfer]
}

beforeAll(async () => {
  const port = await freePort()
  anvil = spawn(process.env.ANVIL ?? (await foundryBinary('anvil')), ['--port', String(port), '--host', '127.0.0.1', '--silent', '--hardfork', 'istanbul'], { stdio: 'ignore' })
  anvilUrl = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await anvilCall('eth_chainId')
      break
    } catch (err) {
      if (i > 200) throw err
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  devnet = await createDevnet({ console: false })
}, 120_000)
afterAll(async () => {
  anvil?.kill()
  await devnet?.close()
})

describe('trace_transaction as Anvil answers it', () => {
  it('the same traces for a deploy, nested calls with a revert, and a transfer, but for hashes', async () => {
    const from = devnet.accounts[0]!.address.toLowerCase()
    const theirs = await scenario(anvilCall, from)
    const ours = await scenario((method, params) => devnet.rpcUntyped(method, params), from)
    for (const [i, hash] of ours.entries()) {
      const [a, b] = [(await anvilCall('trace_transaction', [theirs[i]])) as Record<string, unknown>[], (await devnet.rpcUntyped('trace_transaction', [hash])) as Record<string, unknown>[]]
      expect(b.map(comparable), `transaction ${i}`).toEqual(a.map(comparable))
    }
  })
})
