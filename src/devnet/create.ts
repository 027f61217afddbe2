/**
 * createDevnet(): composition. Options become the keys, the store, the ledger (world
 * state, EVM executor, chain) and the contexts of the surfaces, handed to the
 * provider (provider.ts). A reset builds a fresh ledger through the same path.
 */
import { createBookkeeper } from '../chain/bookkeeper.ts'
import { Chain } from '../chain/chain.ts'
import { Clock } from '../chain/clock.ts'
import { headerOnlyBlock } from '../chain/block.ts'
import { DEV_ACCOUNT_GAS, DEV_ACCOUNT_MAIN, MAIN_TOKEN_ADDRESS, SOLO_CHAIN_ID, SOLO_NETWORK_ID } from '../core/constants.ts'
import { UNBOUND_SCHEDULE_END } from '../native/unboundGas.ts'
import { addressOfPrivateKey, deriveDevKeys, DEFAULT_MNEMONIC } from '../chain/devAccounts.ts'
import { nativeDevKey } from '../chain/nativeDevAccounts.ts'
import { buildGenesis, type GenesisAllocation } from '../chain/genesis.ts'
import { connectFork, fundForkAccounts, resumeFork, type ConnectedFork, type ForkOptions } from '../fork/connect.ts'
import { ForkOptionError } from '../fork/optionError.ts'
import { checkForkOptions } from '../options/forkRules.ts'
import { answerSwitches } from '../options/profile.ts'
import { CorruptDatabaseError } from '../persistence/errors.ts'
import type { ForkValues } from '../fork/source.ts'
import type { HistoryValues } from '../fork/history.ts'
import type { RestHistoryValues } from '../fork/restHistory.ts'
import { WorldState } from '../state/worldState.ts'
import { LedgerStore } from '../persistence/store.ts'
import { openStoredChain } from '../persistence/resume.ts'
import { CoverageRecorder, EvmExecutor, GasUsageRecorder } from '../evm/executor.ts'
import { toBase58 } from '../native/address.ts'
import type { DevnetOptions } from '../options/types.ts'
import { validateDevnetOptions, type ValidDevnetOptions } from '../options/validate.ts'
import type { RpcContext, SigningAccount } from '../rpc/context.ts'
import { FilterRegistry } from '../rpc/filters.ts'
import { rpcLimits } from '../rpc/limits.ts'
import { LIMIT_DEFAULTS } from '../core/limits.ts'
import { SubscriptionManager } from '../rpc/subscriptions.ts'
import { DevnetControls } from '../controls/controls.ts'
import { GasSnapshotRecorder } from '../controls/gasSnapshots.ts'
import type { RestContext } from '../rest/context.ts'
import { wasmKeccakReady } from '../util/hash.ts'
import { toHex, toHexRaw, type Hex } from '../util/hex.ts'
import { NODE_VERSION } from '../version.ts'
import { clientVersionString } from '../rpc/methods/web3_clientVersion.ts'
import { DevnetInstance, stateDocuments, type FreshChain, type Mutable } from './provider.ts'
import type { Devnet } from './types.ts'

/** Default balance of each dev account: 10,000 of each token. */
const DEFAULT_MAIN = DEV_ACCOUNT_MAIN
const DEFAULT_GAS = DEV_ACCOUNT_GAS
/**
 * Creates a devnet. See {@link DevnetOptions} for the options and their defaults.
 * Throws InvalidOptionError (src/errors/invalidOption.ts) for an unknown option or a value
 * an option cannot take, before anything is opened, derived or started.
 */
export async function createDevnet(given: DevnetOptions = {}): Promise<Devnet> {
  // Option errors first, before any database is opened.
  const options = await validateDevnetOptions(given)
  const clientVersion = clientVersionString(options.clientVersion)
  if (options.fork !== undefined && options.state !== undefined) {
    throw new ForkOptionError('state', options.state, 'no state with fork', { reason: 'a fork cannot start from a state document yet: load it with devnet.loadState() after the start' })
  }
  if (options.fork !== undefined && options.stateRoot === 'merkle') {
    // A fork reads the remote's state one value at a time and cannot know its trie, so no root or proof it served would verify.
    throw new ForkOptionError('stateRoot', options.stateRoot, 'no merkle state root with fork', {
      reason: "a fork cannot compute the remote's state trie: stateRoot 'merkle' needs a devnet without fork",
    })
  }
  // No database unless the user gives one; one that holds a chain is resumed (src/persistence/).
  const store = new LedgerStore(options.db)
  await store.open()
  // A fork takes the remote's chain id (unless chainId is given) and net_version; a database's fork is resumed without the remote.
  const fork =
    options.fork === undefined
      ? undefined
      : await openFork(checkForkOptions(options.fork), store).catch(async (err: unknown) => {
          await store.abandon()
          throw err
        })
  const chainId = options.chainId ?? fork?.chainId ?? SOLO_CHAIN_ID
  const keys = Array.isArray(options.accounts)
    ? options.accounts.map((a) => ({
        privateKey: a.privateKey,
        address: addressOfPrivateKey(a.privateKey),
        main: a.main ?? DEFAULT_MAIN,
        gas: a.gas ?? DEFAULT_GAS,
      }))
    : (await deriveDevKeys(options.accounts ?? 10, options.mnemonic ?? DEFAULT_MNEMONIC)).map((k) => ({
        privateKey: k.privateKey,
        address: k.address,
        main: DEFAULT_MAIN,
        gas: DEFAULT_GAS,
      }))
  const nativeKeys = Array.from({ length: options.nativeAccounts ?? 5 }, (_, i) => nativeDevKey(i))
  // Keccak-256 in WebAssembly from the first transaction on: its compiling, started at
  // import, ends on an event-loop turn that a run of in-process calls may never give.
  await wasmKeccakReady
  // One recorder for the devnet's life: coverage survives resets (the code hashes key it, not the chain).
  const coverageRecorder = options.coverage === undefined ? undefined : new CoverageRecorder()
  const recorders = { coverageRecorder, gasUsageRecorder: options.gasReport === undefined ? undefined : new GasUsageRecorder() }
  const chain = await buildChain(options, keys, nativeKeys, store, true, fork, recorders).catch(async (err: unknown) => {
    await store.abandon()
    throw err
  })

  const signers = new Map<string, SigningAccount>(keys.map((k) => [toHexRaw(k.address), { address: k.address, privateKey: k.privateKey }]))
  let instance: DevnetInstance | undefined
  const limits = rpcLimits(options)
  const context: Mutable<RpcContext> = {
    chain,
    signers,
    accountOrder: keys.map((k) => k.address),
    chainId,
    netVersion: fork?.netVersion,
    clientVersion,
    limits,
    emptyStorage: answerSwitches(options).emptyStorage,
    stateRoot: options.stateRoot ?? 'zero',
    filters: new FilterRegistry(limits),
    controls: new DevnetControls(chain, limits),
    gasSnapshots: new GasSnapshotRecorder(options.gasSnapshot),
    subscriptions: new SubscriptionManager(chain, options.stateRoot ?? 'zero'),
    reset: (fork) => instance!.reset({ fork }),
    // The reporters (artifact reading, source maps, istanbul) load only with their options: a plain start reads none of their files.
    coverage: coverageRecorder === undefined ? undefined : new (await import('../coverage/reporter.ts')).CoverageReporter(coverageRecorder, options.coverage?.artifacts, options.coverage?.dir),
    gasReport: recorders.gasUsageRecorder === undefined ? undefined : await gasReporter(recorders.gasUsageRecorder, options.gasReport!),
  }
  context.subscriptions.limits.total = limits.subscriptionLimit
  if (options.blockTime !== undefined && options.blockTime > 0) await context.controls.setIntervalMining(Math.round(options.blockTime * 1000))
  const restContext: Mutable<RestContext> = { chain, nodeVersion: NODE_VERSION, networkId: fork?.networkId ?? SOLO_NETWORK_ID }
  const nativeAccounts = nativeKeys.map((k) => Object.freeze({ base58: toBase58(k.address), address: toHex(k.address), privateKey: k.privateKey, publicKey: k.publicKey }))
  // A reset builds a fresh ledger from the same options, keys and store.
  // A fork is connected again: without blockNumber it moves to the remote's latest block, as Hardhat's reset does.
  const fresh = async (forkOptions: ForkOptions | undefined): Promise<FreshChain> => {
    const connected = forkOptions === undefined ? undefined : await connectFork(checkForkOptions(forkOptions))
    return {
      chain: await buildChain({ ...options, fork: forkOptions }, keys, nativeKeys, store, false, connected, recorders),
      netVersion: connected?.netVersion,
      networkId: connected?.networkId ?? SOLO_NETWORK_ID,
    }
  }
  instance = new DevnetInstance(context, restContext, keys, nativeAccounts, options.bodyLimit ?? LIMIT_DEFAULTS.bodyLimit, fresh, options.fork, options.blockTime)
  return instance
}

/**
 * The fork of `options`: the one `store`'s database holds, resumed with the values it
 * fetched (no remote call), or a new connection to the remote. Throws ForkOptionError
 * when the database holds a fork of another remote or block, ForkRemoteError when a
 * new connection fails.
 */
async function openFork(options: ForkOptions, store: LedgerStore): Promise<ConnectedFork> {
  const held = await store.storedFork()
  if (held?.config.fork === undefined) return connectFork(options)
  const fork = resumeFork(held.config.fork, options)
  if (held.values !== undefined || held.history !== undefined || held.restHistory !== undefined) {
    try {
      if (held.values !== undefined) fork.source.restore(held.values as ForkValues)
      if (held.history !== undefined) fork.source.history?.restore(held.history as HistoryValues)
      if (held.restHistory !== undefined) fork.source.restHistory?.restore(held.restHistory as RestHistoryValues)
    } catch (err) {
      throw new CorruptDatabaseError(`the fork values in the database are corrupt: ${(err as Error).message}`, { cause: err })
    }
  }
  return fork
}

/** A dev key with its genesis balances. */
interface FundedKey {
  privateKey: Hex
  address: Uint8Array
  main: bigint
  gas: bigint
}

/** The ledger of `options` at genesis: world state, executor and chain, the genesis block persisted into `store`. */
async function buildChain(
  options: ValidDevnetOptions,
  keys: readonly FundedKey[],
  nativeKeys: readonly { address: Uint8Array }[],
  store: LedgerStore,
  /** Resume the chain the database holds (createDevnet); a reset starts a new one over it. */
  resume = false,
  /** The remote this chain forks, connected (the `fork` option). */
  fork?: ConnectedFork,
  /** Record the EVM's coverage and gas usage (the `coverage` and `gasReport` options); the same ones across resets. */
  recorders: { coverageRecorder?: CoverageRecorder | undefined; gasUsageRecorder?: GasUsageRecorder | undefined } = {},
): Promise<Chain> {
  const chainId = options.chainId ?? fork?.chainId ?? SOLO_CHAIN_ID
  const world = new WorldState()
  if (fork !== undefined) world.attachSource(fork.source)
  const bookkeeper = createBookkeeper(options.bookkeeperKey)
  const hardfork = options.hardfork ?? 'istanbul'
  const documents = options.state === undefined ? undefined : await stateDocuments()
  const state = documents?.parseStateDocument(options.state)
  const wantedUnbound = options.unboundGas === undefined ? undefined : { deadline: options.unboundGas.deadline ?? UNBOUND_SCHEDULE_END }
  const forkBlock = fork === undefined ? undefined : headerOnlyBlock(fork.block)
  const resumed = resume
    ? await openStoredChain(store, world, bookkeeper, {
        chainId,
        hardfork,
        bookkeeper: toHexRaw(bookkeeper.publicKey),
        unboundGas: wantedUnbound,
        loadingState: state !== undefined,
        fork: fork?.stored,
        forkBlock,
      })
    : undefined
  const allocations: GenesisAllocation[] = [
    ...keys.map((k) => ({ address: k.address, main: k.main, gas: k.gas })),
    ...nativeKeys.map((k) => ({ address: k.address, main: DEFAULT_MAIN, gas: DEFAULT_GAS })),
  ]
  const genesisTimestamp = fork?.block.header.timestamp ?? options.genesisTimestamp ?? state?.timestamp ?? Math.floor(Date.now() / 1000)
  // On a fork, offsets count from the remote's genesis (fork/connect.ts ConnectedFork), so that grants equal the remote's.
  const unboundGenesis = fork?.genesisTimestamp ?? genesisTimestamp
  const unboundGas = resumed !== undefined ? (resumed.config.unboundGas ?? undefined) : wantedUnbound && { genesis: unboundGenesis, deadline: wantedUnbound.deadline }
  // With accrual on, the unallocated gas sits at the main-token contract, as on mainnet, which pays the claims.
  // A fork's chain starts at the remote's fork block, with the dev accounts funded over the remote's state.
  if (fork !== undefined && resumed === undefined) await fundForkAccounts(world, fork.source, fork.block.header.height, allocations)
  const genesis = resumed?.genesis ?? forkBlock ?? buildGenesis(world, allocations, bookkeeper, genesisTimestamp, unboundGas === undefined ? bookkeeper.address : MAIN_TOKEN_ADDRESS)
  if (resumed === undefined) {
    // A state document: a new genesis that holds it (over the dev allocations).
    if (state !== undefined) documents!.applyState(world, state, 0)
    store.create({ chainId, hardfork, bookkeeper: toHexRaw(bookkeeper.publicKey), unboundGas: unboundGas ?? null, ...(fork === undefined ? {} : { fork: fork.stored }) })
  }
  const clock = new Clock(options.clock ?? 'wall', genesis.header.timestamp)
  if (resumed !== undefined) clock.restore(resumed.clock)
  let chain: Chain | undefined
  // console.log lines: stdout by default (as Hardhat's node and Anvil print them), a function of the user's, or none.
  const consoleSink = options.console === false ? undefined : typeof options.console === 'function' ? options.console : (line: string) => console.log(line)
  const executor = await EvmExecutor.create({
    chainId,
    hardfork,
    world,
    blockHash: (height) => chain?.blockHash(height),
    console: consoleSink !== undefined,
    ...recorders,
  })
  chain = new Chain({
    world,
    fork: fork?.source,
    executor,
    store,
    bookkeeper,
    genesis,
    clock,
    automine: options.automine ?? true,
    minGasPrice: options.minGasPrice ?? 0n,
    blockContext: answerSwitches(options).blockContext,
    unboundGas,
    console: consoleSink,
    history: resumed,
  })
  if (resumed === undefined) store.persist()
  return chain
}

/** The gasReport option's reporter: prints to stdout unless `print: false`. */
async function gasReporter(recorder: GasUsageRecorder, option: NonNullable<DevnetOptions['gasReport']>): Promise<import('../gas/report.ts').GasReporter> {
  const { GasReporter } = await import('../gas/report.ts')
  return new GasReporter(recorder, option.artifacts, option.dir, option.print === false ? undefined : (text) => console.log(text.trimEnd()))
}
