/**
 * What JSON-RPC method handlers work with: the chain, the dev accounts and the
 * devnet's identity. Block resolution is in blockResolution.ts.
 */
import type { ForkOptions } from '../fork/connect.ts'
import type { Chain } from '../chain/chain.ts'
import type { Hex } from '../util/hex.ts'
import type { FilterRegistry } from './filters.ts'
import type { DevnetControls } from '../controls/controls.ts'
import type { GasSnapshotRecorder } from '../controls/gasSnapshots.ts'
import type { RpcLimits } from './limits.ts'
import type { EmptyStorageAnswer } from '../core/answers.ts'
import type { SubscriptionConnection, SubscriptionManager } from './subscriptions.ts'
import type { CoverageReporter } from '../coverage/reporter.ts'
import type { GasReporter } from '../gas/report.ts'

/** A key eth_sendTransaction can sign with. */
export interface SigningAccount {
  address: Uint8Array
  privateKey: Hex
}

/** Everything a method handler may use. */
export interface RpcContext {
  readonly chain: Chain
  /** Keys of the dev accounts, by address hex (no 0x, lower case). */
  readonly signers: ReadonlyMap<string, SigningAccount>
  /** eth_accounts order. */
  readonly accountOrder: readonly Uint8Array[]
  readonly chainId: number
  /** net_version when it is not the chain id in decimal (a fork answers its remote's). */
  readonly netVersion?: string
  /** web3_clientVersion. */
  readonly clientVersion: string
  /** Polling filters of this devnet. */
  readonly filters: FilterRegistry
  /** Test-harness controls (snapshots, time, mining, setters, impersonation). */
  readonly controls: DevnetControls
  /** Gas measurements of this devnet and their snapshot file (option gasSnapshot; dualnet_gasSnapshot). */
  readonly gasSnapshots: GasSnapshotRecorder
  /** What one request may ask (batch length, string length, nesting, log queries, filters). */
  readonly limits: RpcLimits
  /** eth_getStorageAt's answer for an empty slot (option emptyStorage or profile: options/profile.ts). */
  readonly emptyStorage: EmptyStorageAnswer
  /** The EVM blocks' stateRoot and eth_getProof: 'zero' as the node, or 'merkle', the Ethereum state trie (option stateRoot; rpc/stateRoots.ts). */
  readonly stateRoot: 'zero' | 'merkle'
  /** Push subscriptions of this devnet (eth_subscribe). */
  readonly subscriptions: SubscriptionManager
  /**
   * The caller's subscription connection: a WebSocket's, or the in-process
   * provider's; absent over HTTP, where eth_subscribe is refused (reference §6.1).
   */
  readonly connection?: SubscriptionConnection
  /** Back to a fresh genesis with the creation options (hardhat_reset); see `Devnet.reset`. */
  readonly reset: (fork: ForkOptions | null) => Promise<void>
  /** The devnet's coverage (option `coverage`; dualnet_coverage); absent without the option. */
  readonly coverage?: CoverageReporter | undefined
  /** The devnet's gas report (option `gasReport`); absent without the option. */
  readonly gasReport?: GasReporter | undefined
}

/** What the calls of one JSON-RPC batch share (dispatch.ts makes one per batch). */
export interface RpcCallScope {
  /** Milliseconds of trace work the batch has left (option batchTraceTimeout); the trace methods spend it. */
  traceBudget: number
}
