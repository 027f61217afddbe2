/**
 * Anvil for the tool tests (`npm run test:tools`): one launcher for the tests that run
 * Foundry's Anvil beside dualnet (test/controls-anvil.test.ts,
 * test/trace-parity-anvil.test.ts, test/tracers-anvil.test.ts, test/fork-anvil.test.ts,
 * test/fork-history-anvil.test.ts),
 * and the transactions the trace comparisons run on both ({@link traceScenario}). The
 * binary is $ANVIL, or the release test/foundry-support.ts installs once. Not a test
 * file itself.
 */
import { spawn } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { Interface } from 'ethers'
import { Reverter, SelfDestruct, TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { foundryBinary } from './foundry-support.ts'
import { createDevnet, type Devnet } from '../src/index.ts'

/** A running Anvil on loopback. */
export interface Anvil {
  /** Its JSON-RPC URL, `http://127.0.0.1:<port>`. */
  readonly url: string
  /** Anvil's result for `method`; its JSON-RPC error is thrown as an Error with its message and `code`. */
  rpc(method: string, params?: unknown[]): Promise<unknown>
  /** The receipt of `hash` once its block is stored (Anvil's automine may answer the hash before that). */
  receipt(hash: unknown): Promise<{ contractAddress: string | null; status: string } & Record<string, unknown>>
  /** Stops the process. */
  close(): void
}

/** A TCP port free on loopback now. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** One JSON-RPC call to `url`: its result, or an Error with the answer's message and `code`. */
async function call(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
  if (answer.error !== undefined) throw Object.assign(new Error(`anvil ${method}: ${answer.error.message}`), { code: answer.error.code })
  return answer.result
}

/**
 * Starts Anvil on a free loopback port with `args` beside the port, host and
 * `--silent` (e.g. `['--hardfork', 'istanbul']`), and resolves once it answers
 * eth_chainId (up to 20 s).
 */
export async function startAnvil(args: readonly string[] = []): Promise<Anvil> {
  const port = await freePort()
  const child = spawn(process.env.ANVIL ?? (await foundryBinary('anvil')), ['--port', String(port), '--host', '127.0.0.1', '--silent', ...args], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  const anvil: Anvil = {
    url,
    rpc: (method, params = []) => call(url, method, params),
    async receipt(hash) {
      for (let i = 0; ; i++) {
        const found = (await call(url, 'eth_getTransactionReceipt', [hash])) as Awaited<ReturnType<Anvil['receipt']>> | null
        if (found !== null) return found
        if (i > 400) throw new Error(`anvil did not mine ${JSON.stringify(hash)}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
    close: () => {
      child.kill()
    },
  }
  for (let i = 0; ; i++) {
    try {
      await anvil.rpc('eth_chainId')
      return anvil
    } catch (err) {
      if (i > 400 || child.exitCode !== null) {
        child.kill()
        throw err
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

/** The beneficiary of the scenario's self-destruct, an address with no account. */
export const BENEFICIARY = '0x00000000000000000000000000000000000000be'

/** The scenario's transactions (hashes) and contracts, in the order they are sent. */
export interface TraceScenario {
  /** TraceCallee's deploy. */
  deploy: string
  callee: string
  caller: string
  /** TraceCaller.run() with 1000 wei: a call with value, a reverted STATICCALL caught, a log. */
  run: string
  /** 7 wei to an address with no account. */
  transfer: string
  /** SelfDestruct.destroy(BENEFICIARY) with 5 wei, on a contract deployed with 100. */
  destroy: string
  destroyer: string
  /** Reverter.revertWithReason(): the transaction reverts. */
  reverted: string
  /** A contract that DELEGATECALLs and then CALLCODEs TraceCallee with its own call data (`ping(21)`). */
  delegate: string
}

/**
 * Init code of a contract whose code DELEGATECALLs, then CALLCODEs, `target` with the
 * call data it got (results ignored), then stops.
 */
export function delegatorInitCode(target: string): string {
  const push20 = `73${target.slice(2).toLowerCase()}`
  // CALLDATACOPY(0, 0, CALLDATASIZE); DELEGATECALL(GAS, target, 0, CALLDATASIZE, 0, 0); CALLCODE(GAS, target, 0, 0, CALLDATASIZE, 0, 0); STOP
  const runtime = `36600060003760006000366000${push20}5af450600060003660006000${push20}5af25000`
  const length = (runtime.length / 2).toString(16).padStart(2, '0')
  return `0x60${length}600c60003960${length}6000f3${runtime}`
}

/**
 * Sends the scenario's transactions from `from` through `rpc` (legacy, 1 gwei, explicit
 * gas, one block each), waiting for each receipt; from the same account at the same
 * nonces, the contracts land at the same addresses on both nodes.
 */
export async function traceScenario(rpc: (method: string, params: unknown[]) => Promise<unknown>, from: string): Promise<TraceScenario> {
  const send = async (fields: Record<string, string>) => {
    const hash = (await rpc('eth_sendTransaction', [{ from, gasPrice: '0x3b9aca00', gas: '0x200000', ...fields }])) as string
    for (let i = 0; ; i++) {
      const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string } | null
      if (receipt !== null) return { hash, address: receipt.contractAddress }
      if (i > 400) throw new Error(`${hash} not mined`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  const caller = new Interface(TraceCaller.abi as never)
  const destroyer = new Interface(SelfDestruct.abi as never)
  const reverter = new Interface(Reverter.abi as never)
  const deploy = await send({ data: TraceCallee.bytecode })
  const callerDeploy = await send({ data: TraceCaller.bytecode + caller.encodeDeploy([deploy.address]).slice(2) })
  const run = await send({ to: callerDeploy.address, data: caller.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' })
  const transfer = await send({ to: '0x00000000000000000000000000000000000000aa', value: '0x7', gas: '0x5208' })
  const destroyerDeploy = await send({ data: SelfDestruct.bytecode, value: '0x64' })
  const destroy = await send({ to: destroyerDeploy.address, data: destroyer.encodeFunctionData('destroy', [BENEFICIARY]), value: '0x5' })
  const reverterDeploy = await send({ data: Reverter.bytecode })
  const reverted = await send({ to: reverterDeploy.address, data: reverter.encodeFunctionData('revertWithReason'), gas: '0x30d40' })
  const delegator = await send({ data: delegatorInitCode(deploy.address) })
  const delegate = await send({ to: delegator.address, data: new Interface(TraceCallee.abi as never).encodeFunctionData('ping', [21n]), gas: '0x30d40' })
  return {
    deploy: deploy.hash,
    callee: deploy.address,
    caller: callerDeploy.address,
    run: run.hash,
    transfer: transfer.hash,
    destroy: destroy.hash,
    destroyer: destroyerDeploy.address,
    reverted: reverted.hash,
    delegate: delegate.hash,
  }
}

/** The scenario's transactions by name, in the order they are sent. */
export const SCENARIO_TXS = ['deploy', 'run', 'transfer', 'destroy', 'reverted', 'delegate'] as const

/** The name of one of the scenario's transactions. */
export type ScenarioTx = (typeof SCENARIO_TXS)[number]

/** Whether `tx` comes after the scenario's self-destruct (the sender's balance differs from it on, test/tracers-anvil.test.ts SELFDESTRUCT_GAS). */
export const afterSelfDestruct = (tx: ScenarioTx): boolean => SCENARIO_TXS.indexOf(tx) > SCENARIO_TXS.indexOf('destroy')

/** The scenario run on Anvil `--hardfork istanbul` and on a fresh devnet, from the same account (Anvil's first, which is the devnet's first dev account). */
export interface ScenarioPair {
  anvil: Anvil
  devnet: Devnet
  /** The sender, lower-case 0x hex. */
  from: string
  theirs: TraceScenario
  ours: TraceScenario
  /** Both answers to `method` for transaction `tx` (Anvil's first), `extra` params after its hash. */
  both(method: string, tx: ScenarioTx, ...extra: unknown[]): Promise<[unknown, unknown]>
  /** Stops Anvil and closes the devnet. */
  close(): Promise<void>
}

/** Starts Anvil `--hardfork istanbul` and a devnet and runs {@link traceScenario} on each. */
export async function scenarioOnBoth(): Promise<ScenarioPair> {
  const anvil = await startAnvil(['--hardfork', 'istanbul'])
  const devnet = await createDevnet({ console: false })
  const dualnet = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  const from = devnet.accounts[0]!.address.toLowerCase()
  const theirs = await traceScenario(anvil.rpc, from)
  const ours = await traceScenario(dualnet, from)
  return {
    anvil,
    devnet,
    from,
    theirs,
    ours,
    both: async (method, tx, ...extra) => [await anvil.rpc(method, [theirs[tx], ...extra]), await dualnet(method, [ours[tx], ...extra])],
    close: async () => {
      anvil.close()
      await devnet.close()
    },
  }
}
