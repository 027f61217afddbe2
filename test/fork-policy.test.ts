/**
 * The fork policies of the whole JSON-RPC method table, applied (rpc/declare.ts
 * `ForkPolicy`, rpc/forkPolicy.ts): every method the table serves is called on a fork
 * (through a proxy that records what the remote is asked), placed below the fork block
 * and above it where its policy places calls, and the remote is asked the method
 * exactly when the policy says. A method added to the table without a sample here
 * fails the first test.
 */
import { RLP } from '@ethereumjs/rlp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { fromHex } from '../src/util/hex.ts'
import { rpcMethods } from '../src/rpc/methods/index.ts'
import type { ForkPolicy, RpcMethodDeclaration } from '../src/rpc/declare.ts'
import { FaultProxy, historyRemote, STRANGER, type HistoryRemote } from './fork-support.ts'

/** What the samples build their params from. */
interface Env {
  fork: Devnet
  h: HistoryRemote
  /** A dev account of the fork (0x hex). */
  from: string
  /** A block the remote mined below the fork block, and its hash. */
  remoteBlock: string
  remoteBlockHash: string
  /** A block the fork built (above the fork block), and its hash. */
  ownBlock: string
  ownBlockHash: string
  /** A transaction the remote mined below the fork block; one the fork mined. */
  remoteTx: string
  ownTx: string
}

/** Params of a call a `local` method answers alone. */
type LocalSample = (env: Env) => unknown[]
/** Params placing the call below the fork block (the remote answers) and above it (the fork does). */
type PlacedSample = { below: (env: Env) => unknown[] | Promise<unknown[]>; above: (env: Env) => unknown[] | Promise<unknown[]> }

/** Storage slot 0 as a 32-byte key. */
const SLOT_ZERO = `0x${'0'.repeat(64)}`
const call = (env: Env): Record<string, string> => ({ from: env.from, to: STRANGER, value: '0x1' })

/** One sample per method of the table, by name. */
const placed: Record<string, PlacedSample> = {
  eth_getBalance: { below: (e) => [STRANGER, e.remoteBlock], above: (e) => [STRANGER, e.ownBlock] },
  eth_getCode: { below: (e) => [e.h.token, e.remoteBlock], above: (e) => [e.h.token, e.ownBlock] },
  eth_getStorageAt: { below: (e) => [e.h.token, '0x0', e.remoteBlock], above: (e) => [e.h.token, '0x0', e.ownBlock] },
  eth_getTransactionCount: { below: (e) => [e.from, e.remoteBlock], above: (e) => [e.from, e.ownBlock] },
  eth_call: { below: (e) => [call(e), e.remoteBlock], above: (e) => [call(e), e.ownBlock] },
  eth_estimateGas: { below: (e) => [call(e), e.remoteBlock], above: (e) => [call(e), e.ownBlock] },
  debug_traceCall: { below: (e) => [call(e), e.remoteBlock], above: (e) => [call(e), e.ownBlock] },
  eth_getBlockByNumber: { below: (e) => [e.remoteBlock, false], above: (e) => [e.ownBlock, false] },
  eth_getBlockByHash: { below: (e) => [e.remoteBlockHash, false], above: (e) => [e.ownBlockHash, false] },
  eth_getBlockTransactionCountByNumber: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  eth_getBlockTransactionCountByHash: { below: (e) => [e.remoteBlockHash], above: (e) => [e.ownBlockHash] },
  eth_getUncleCountByBlockNumber: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  eth_getUncleByBlockHashAndIndex: { below: (e) => [e.remoteBlockHash, '0x0'], above: (e) => [e.ownBlockHash, '0x0'] },
  eth_getUncleByBlockNumberAndIndex: { below: (e) => [e.remoteBlock, '0x0'], above: (e) => [e.ownBlock, '0x0'] },
  eth_getRawTransactionByHash: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  debug_getRawTransaction: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  eth_getRawTransactionByBlockHashAndIndex: { below: (e) => [e.remoteBlockHash, '0x0'], above: (e) => [e.ownBlockHash, '0x0'] },
  eth_getRawTransactionByBlockNumberAndIndex: { below: (e) => [e.remoteBlock, '0x0'], above: (e) => [e.ownBlock, '0x0'] },
  eth_getBlockReceipts: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_getRawReceipts: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_getRawHeader: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_getRawBlock: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_getRawTransactions: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  eth_getHeaderByNumber: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  eth_getHeaderByHash: { below: (e) => [e.remoteBlockHash], above: (e) => [e.ownBlockHash] },
  eth_getAccount: { below: (e) => [STRANGER, e.remoteBlock], above: (e) => [STRANGER, e.ownBlock] },
  eth_getAccountInfo: { below: (e) => [STRANGER, e.remoteBlock], above: (e) => [STRANGER, e.ownBlock] },
  eth_getStorageValues: { below: (e) => [{ [e.h.token]: [SLOT_ZERO] }, e.remoteBlock], above: (e) => [{ [e.h.token]: [SLOT_ZERO] }, e.ownBlock] },
  eth_createAccessList: { below: (e) => [call(e), e.remoteBlock], above: (e) => [call(e), e.ownBlock] },
  trace_call: { below: (e) => [call(e), ['trace'], e.remoteBlock], above: (e) => [call(e), ['trace'], e.ownBlock] },
  eth_simulateV1: { below: (e) => [{ blockStateCalls: [{ calls: [call(e)] }] }, e.remoteBlock], above: (e) => [{ blockStateCalls: [{ calls: [call(e)] }] }, e.ownBlock] },
  eth_getUncleCountByBlockHash: { below: (e) => [e.remoteBlockHash], above: (e) => [e.ownBlockHash] },
  eth_getTransactionByBlockNumberAndIndex: { below: (e) => [e.remoteBlock, '0x0'], above: (e) => [e.ownBlock, '0x0'] },
  eth_getTransactionByBlockHashAndIndex: { below: (e) => [e.remoteBlockHash, '0x0'], above: (e) => [e.ownBlockHash, '0x0'] },
  eth_getTransactionByHash: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  eth_getTransactionReceipt: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  eth_getTransactionLogs: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  debug_traceTransaction: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  debug_traceBlockByNumber: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_traceBlockByHash: { below: (e) => [e.remoteBlockHash], above: (e) => [e.ownBlockHash] },
  trace_transaction: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  trace_transactionOpcodeGas: { below: (e) => [e.remoteTx], above: (e) => [e.ownTx] },
  trace_blockOpcodeGas: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  debug_accountInfoAt: { below: (e) => [e.remoteBlock, 0, STRANGER], above: (e) => [e.ownBlock, 0, STRANGER] },
  trace_get: { below: (e) => [e.remoteTx, ['0x0']], above: (e) => [e.ownTx, ['0x0']] },
  trace_block: { below: (e) => [e.remoteBlock], above: (e) => [e.ownBlock] },
  trace_replayBlockTransactions: { below: (e) => [e.remoteBlock, ['trace']], above: (e) => [e.ownBlock, ['trace']] },
  trace_replayTransaction: { below: (e) => [e.remoteTx, ['trace', 'stateDiff']], above: (e) => [e.ownTx, ['trace', 'stateDiff']] },
  eth_getLogs: { below: (e) => [{ fromBlock: '0x1', toBlock: e.remoteBlock }], above: (e) => [{ fromBlock: e.ownBlock, toBlock: e.ownBlock }] },
  eth_getFilterLogs: {
    below: async (e) => [await e.fork.rpc('eth_newFilter', [{ fromBlock: '0x1', toBlock: e.remoteBlock }])],
    above: async (e) => [await e.fork.rpc('eth_newFilter', [{ fromBlock: e.ownBlock, toBlock: e.ownBlock }])],
  },
}

const local: Record<string, LocalSample> = {
  trace_filter: () => [{ fromBlock: 'latest', toBlock: 'latest' }],
  trace_rawTransaction: () => ['0x00', ['trace']],
  // A block on a parent below the fork block: the fork holds no such parent and refuses it, without asking the remote.
  debug_traceBlock: (e) => [
    `0x${Buffer.from(RLP.encode([[fromHex(e.remoteBlockHash), ...Array.from({ length: 7 }, () => new Uint8Array(0)), 2, ...Array.from({ length: 6 }, () => new Uint8Array(0))], [], []])).toString('hex')}`,
  ],
  net_version: () => [],
  eth_networkId: () => [],
  eth_config: () => [],
  anvil_getLastBlockWallTime: () => [],
  eth_baseFee: () => [],
  eth_chainId: () => [],
  eth_blockNumber: () => [],
  eth_protocolVersion: () => [],
  eth_syncing: () => [],
  eth_gasPrice: () => [],
  eth_sendRawTransaction: () => ['0x00'],
  eth_sendRawTransactionConditional: () => ['0x00', {}],
  eth_callBundle: () => [{ txs: ['0x00'], blockNumber: '0x1' }],
  trace_callMany: () => [[[{ to: '0x0000000000000000000000000000000000000001' }, ['trace']]]],
  eth_callMany: () => [[{ transactions: [{ to: '0x0000000000000000000000000000000000000001' }] }]],
  debug_getModifiedAccountsByNumber: () => [0],
  debug_codeByHash: () => [`0x${'11'.repeat(32)}`],
  debug_dbGet: () => [`0x63${'11'.repeat(32)}`],
  debug_freeOSMemory: () => [],
  debug_executionWitness: () => ['0x1'],
  eth_pendingTransactions: () => [],
  eth_pendingTransactionsByHash: (e) => [e.remoteTx],
  eth_accounts: () => [],
  eth_requestAccounts: () => [],
  eth_getProof: (e) => [STRANGER, [], e.ownBlock],
  eth_sendTransaction: (e) => [{ from: e.from, to: STRANGER, value: '0x1' }],
  eth_resend: (e) => [{ from: e.from, to: STRANGER, value: '0x1', nonce: '0x0' }],
  eth_newFilter: () => [{ fromBlock: '0x1' }],
  eth_newBlockFilter: () => [],
  eth_newPendingTransactionFilter: () => [],
  eth_getFilterChanges: () => ['0x1'],
  eth_feeHistory: (e) => ['0x1', e.ownBlock],
  eth_uninstallFilter: () => ['0x1'],
  eth_coinbase: () => [],
  eth_mining: () => [],
  net_listening: () => [],
  eth_getTransactionBySenderAndNonce: (e) => [e.from, '0x0'],
  ots_getApiLevel: () => [],
  erigon_getHeaderByNumber: (e) => [e.ownBlock],
  ots_hasCode: (e) => [STRANGER, e.ownBlock],
  ots_getBlockDetails: (e) => [e.ownBlock],
  ots_getBlockDetailsByHash: () => ['0x' + '00'.repeat(32)],
  ots_getTransactionError: (e) => [e.remoteTx],
  ots_getBlockTransactions: (e) => [e.ownBlock, 0, 10],
  ots_searchTransactionsBefore: (e) => [e.from, 0, 10],
  ots_searchTransactionsAfter: (e) => [e.from, 0, 10],
  ots_getContractCreator: () => [STRANGER],
  ots_getInternalOperations: (e) => [e.ownTx],
  ots_traceTransaction: (e) => [e.ownTx],
  ots_getTransactionBySenderAndNonce: (e) => [e.from, '0x0'],
  eth_sendTransactionSync: (e) => [call(e)],
  eth_fillTransaction: (e) => [call(e)],
  eth_sendUnsignedTransaction: () => [{ from: STRANGER, to: STRANGER, value: '0x0', gasPrice: '0x0' }],
  eth_sendRawTransactionSync: () => ['0x00'],
  eth_hashrate: () => [],
  web3_clientVersion: () => [],
  web3_sha3: () => ['0x00'],
  eth_maxPriorityFeePerGas: () => [],
  eth_subscribe: () => ['newHeads'],
  eth_unsubscribe: () => ['0x1'],
  txpool_status: () => [],
  txpool_content: () => [],
  txpool_contentFrom: (e) => [e.from],
  txpool_inspect: () => [],
  eth_sign: (e) => [e.from, '0x00'],
  personal_sign: (e) => ['0x00', e.from],
  eth_signTypedData_v4: (e) => [e.from, { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }],
  eth_signTypedData_v3: (e) => [e.from, { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }],
  eth_signTypedData: (e) => [e.from, { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }],
  eth_signTransaction: (e) => [{ from: e.from, to: STRANGER, value: '0x1', gas: '0x5208' }],
  evm_snapshot: () => [],
  // A hash no block holds: refused before the snapshot file is touched.
  dualnet_gasSnapshot: () => ['transfer', `0x${'ab'.repeat(32)}`],
  dualnet_coverage: () => [],
  dualnet_gasReport: () => [],
  evm_revert: () => ['0x999'],
  evm_mine: () => [],
  evm_increaseTime: () => [1],
  evm_setNextBlockTimestamp: () => [4_000_000_000],
  evm_setAutomine: () => [true],
  evm_setIntervalMining: () => [0],
  hardhat_getAutomine: () => [],
  anvil_getAutomine: () => [],
  hardhat_mine: () => ['0x1'],
  anvil_mine: () => ['0x1'],
  hardhat_setBalance: () => [STRANGER, '0x1'],
  anvil_setBalance: () => [STRANGER, '0x1'],
  tenderly_setBalance: () => [STRANGER, '0x1'],
  hardhat_setCode: () => [STRANGER, '0x00'],
  anvil_setCode: () => [STRANGER, '0x00'],
  hardhat_setStorageAt: () => [STRANGER, '0x0', `0x${'0'.repeat(64)}`],
  anvil_setStorageAt: () => [STRANGER, '0x0', `0x${'0'.repeat(64)}`],
  hardhat_setNonce: () => [STRANGER, '0x5'],
  anvil_setNonce: () => [STRANGER, '0x5'],
  evm_setBlockGasLimit: () => ['0x5b8d80'],
  anvil_setBlockGasLimit: () => ['0x5b8d80'],
  hardhat_setCoinbase: () => [STRANGER],
  anvil_setCoinbase: () => [STRANGER],
  hardhat_setNextBlockBaseFeePerGas: () => ['0x0'],
  anvil_setNextBlockBaseFeePerGas: () => ['0x0'],
  hardhat_setPrevRandao: () => [`0x${'0'.repeat(64)}`],
  hardhat_impersonateAccount: () => [STRANGER],
  anvil_impersonateAccount: () => [STRANGER],
  hardhat_stopImpersonatingAccount: () => [STRANGER],
  anvil_stopImpersonatingAccount: () => [STRANGER],
  hardhat_dropTransaction: (e) => [e.remoteTx],
  anvil_dropTransaction: (e) => [e.remoteTx],
  anvil_dropAllTransactions: () => [],
  anvil_removePoolTransactions: () => [STRANGER],
  anvil_setBlockTimestampInterval: () => [1],
  anvil_removeBlockTimestampInterval: () => [],
  anvil_dumpState: () => [],
  hardhat_dumpState: () => [],
  anvil_loadState: () => ['0x00'],
  hardhat_loadState: () => ['0x00'],
  dev_setMainBalance: () => [STRANGER, '0x1'],
  anvil_snapshot: () => [],
  anvil_revert: () => ['0x999'],
  anvil_increaseTime: () => [1],
  anvil_setNextBlockTimestamp: () => [4_000_000_001],
  anvil_setAutomine: () => [true],
  anvil_setIntervalMining: () => [0],
  anvil_getIntervalMining: () => [],
  anvil_setTime: () => [4_000_000_002],
  evm_setTime: () => [4_000_000_003],
  anvil_getGenesisTime: () => [],
  evm_mine_detailed: () => [],
  anvil_mine_detailed: () => [],
  anvil_nodeInfo: () => [],
  anvil_metadata: () => [],
  hardhat_metadata: () => [],
  anvil_addBalance: () => [STRANGER, '0x1'],
  hardhat_addBalance: () => [STRANGER, '0x1'],
  tenderly_addBalance: () => [STRANGER, '0x1'],
  anvil_autoImpersonateAccount: () => [false],
  hardhat_autoImpersonateAccount: () => [false],
  hardhat_dropAllTransactions: () => [],
  debug_clearTxpool: () => [],
  anvil_impersonateSignature: () => ['0x00', STRANGER],
  anvil_setChainId: () => [1],
  anvil_setNextBlockPrevRandao: () => [`0x${'0'.repeat(64)}`],
  anvil_setRpcUrl: () => ['http://127.0.0.1:1'],
  anvil_rollback: () => [1],
  anvil_reorg: () => [{ depth: 1, tx_block_pairs: [] }],
  evm_setAccountBalance: () => [STRANGER, '0x1'],
  evm_setAccountNonce: () => [STRANGER, '0x5'],
  evm_setAccountCode: () => [STRANGER, '0x00'],
  evm_setAccountStorageAt: () => [STRANGER, '0x0', `0x${'0'.repeat(64)}`],
  miner_start: () => [],
  miner_stop: () => [],
  anvil_setMinGasPrice: () => ['0x0'],
  hardhat_setMinGasPrice: () => ['0x0'],
  anvil_setLoggingEnabled: () => [true],
  hardhat_setLoggingEnabled: () => [true],
  anvil_dealERC20: () => [STRANGER, '0x0000000000000000000000000000000000000002', '0x1'],
  anvil_setERC20Balance: () => [STRANGER, '0x0000000000000000000000000000000000000002', '0x1'],
  hardhat_dealERC20: () => [STRANGER, '0x0000000000000000000000000000000000000002', '0x1'],
  anvil_setERC20Allowance: () => [STRANGER, STRANGER, STRANGER, '0x1'],
}

/** Methods run last, in this order: they put the fork back to its start. */
const resets = ['hardhat_reset', 'anvil_reset']

/** The remote with history, the proxy in front of it that records what it is asked, and forks of it. */
let h: HistoryRemote
let proxy: FaultProxy
let proxyUrl: string

/** A fresh fork (nothing fetched, nothing kept) with a block and a transaction of its own. */
async function freshFork(): Promise<Env> {
  const fork = await createDevnet({ fork: { url: proxyUrl, blockNumber: h.forkBlock, cache: false }, console: false })
  const from = fork.accounts[0]!.address
  const ownTx = (await fork.rpc('eth_sendTransaction', [{ from, to: STRANGER, value: '0x1' }])) as string
  const own = (await fork.rpc('eth_getBlockByNumber', ['latest', false]))!
  const remote = (await h.remote.rpc('eth_getBlockByNumber', ['0x2', false]))!
  return { fork, h, from, remoteBlock: '0x2', remoteBlockHash: remote.hash, ownBlock: own.number, ownBlockHash: own.hash, remoteTx: h.txs[2]![0]!, ownTx }
}

/** The requests the remote was asked while `method(params)` ran on `env`'s fork (its answer or error ignored). */
async function asked(env: Env, method: string, params: unknown[]): Promise<{ method: string; params: unknown }[]> {
  const before = proxy.calls.length
  await env.fork.rpcUntyped(method, params).catch(() => undefined)
  return proxy.calls.slice(before)
}

/** The method the remote answers a call of `name` with: the method itself, its by-hash twin, or eth_getLogs for a log query. */
function remoteMethod(name: string, policy: ForkPolicy): string {
  if (policy.kind === 'logs') return 'eth_getLogs'
  if (policy.kind === 'block' && policy.byHash !== undefined) return policy.byHash
  if (policy.kind === 'state' && policy.from !== undefined) return policy.from.methods[0]
  return name
}

/** Whether a request names the fork's own block or transaction (a fork reads its untouched state at the fork block, never at its own). */
function namesOwn(env: Env, call: { params: unknown }): boolean {
  const text = JSON.stringify(call.params).toLowerCase()
  return [env.ownBlock, env.ownBlockHash, env.ownTx].some((own) => text.includes(`"${own.toLowerCase()}"`))
}

const table = rpcMethods as Readonly<Record<string, RpcMethodDeclaration>>

beforeAll(async () => {
  h = await historyRemote()
  proxy = new FaultProxy(h.url)
  proxyUrl = await proxy.listen()
})

afterAll(async () => {
  await proxy?.close()
  await h?.remote.close()
})

describe('the fork policy of every method of the table', () => {
  it('every method of the table is declared, with a sample that fits its policy', () => {
    for (const [name, declaration] of Object.entries(table)) {
      expect(typeof declaration, name).toBe('object')
      expect(declaration.name, name).toBe(name)
      const kind = declaration.fork.kind
      if (kind === 'local') expect(local[name] ?? (resets.includes(name) ? () => [] : undefined), `${name}: no local sample`).toBeDefined()
      else expect(placed[name], `${name} (${kind}): no placed sample`).toBeDefined()
    }
    for (const name of [...Object.keys(placed), ...Object.keys(local), ...resets]) expect(table[name], `sample of ${name}, which the table does not serve`).toBeDefined()
  })

  it('a call placed below the fork block is the remote’s; above it, the fork’s own', async () => {
    for (const [name, declaration] of Object.entries(table)) {
      const sample = placed[name]
      if (declaration.fork.kind === 'local' || sample === undefined) continue
      const method = remoteMethod(name, declaration.fork)
      // A fresh fork for each method: an answer another method had kept would hide the call.
      const env = await freshFork()
      try {
        const below = await asked(env, name, await sample.below(env))
        expect(
          below.map((c) => c.method),
          `${name} below the fork block`,
        ).toContain(method)
        const above = await asked(env, name, await sample.above(env))
        expect(
          above.filter((c) => c.method === method && namesOwn(env, c)),
          `${name} above the fork block`,
        ).toEqual([])
      } finally {
        await env.fork.close()
      }
    }
  })

  it('a local method never asks the remote its own name', async () => {
    const env = await freshFork()
    try {
      for (const [name, declaration] of Object.entries(table)) {
        if (declaration.fork.kind !== 'local' || resets.includes(name)) continue
        const snapshot = await env.fork.snapshot()
        const calls = await asked(env, name, local[name]!(env))
        expect(
          calls.map((c) => c.method),
          name,
        ).not.toContain(name)
        await env.fork.revert(snapshot)
        await env.fork.rpc('evm_setAutomine', [true])
      }
      const raw = (await env.fork.rpc('eth_signTransaction', [{ from: env.from, to: STRANGER, value: '0x1', gas: '0x5208' }])) as string
      expect((await asked(env, 'eth_sendRawTransaction', [raw])).map((c) => c.method)).not.toContain('eth_sendRawTransaction')
      for (const name of resets)
        expect(
          (await asked(env, name, [])).map((c) => c.method),
          name,
        ).not.toContain(name)
    } finally {
      await env.fork.close()
    }
  })
})
