/**
 * Taking transactions in (architecture: chain/): the pool's checks on EVM and native
 * transactions, adding them to the pool, telling the watchers, and with automine
 * mining them at once; and native pre-execution (REST `preExec=1`, §1.4.7). Each runs
 * in the chain's queue. The public face is Chain's submit methods.
 */
import type { ChainCore } from './chainCore.ts'
import { nativeEnv } from './chainCore.ts'
import { NATIVE_CALL_GAS, preExecuteNative, type NativeOutcome } from './nativeExecution.ts'
import { checkNativePool, checkPool } from './poolAcceptance.ts'
import { touchedMiss } from './queue.ts'
import { wrapEvmTransaction, type EvmTransaction } from './transaction.ts'
import { MIN_GAS_LIMIT } from '../core/constants.ts'
import { impersonatedTransaction, signLegacyTransaction, type LegacyTransactionFields } from '../evm/legacyTransaction.ts'
import { ForkMiss } from '../fork/miss.ts'
import { toHexRaw } from '../util/hex.ts'

/** Chain.pendingNonce: the next nonce of `address` counting pending transactions (the `pending` tag, reference §6.2). */
export function pendingNonce(core: ChainCore, address: Uint8Array): bigint {
  const sender = toHexRaw(address)
  return core.mempool.nextNonce(sender, core.world.getAccount(sender, core.blocks.height).nonce)
}

/**
 * Runs the pool's checks on the transaction `make` builds (built inside the serial
 * step, so a nonce it takes from the pool is not taken twice) and adds it; mines it
 * with automine. A transaction already on chain resolves to its hash, as on the real node.
 */
export function acceptEvm(core: ChainCore, make: () => EvmTransaction): Promise<Uint8Array> {
  return core.queue.run(async () => {
    const tx = make()
    if (core.blocks.includes(toHexRaw(tx.hash))) return tx.hash
    if (core.fork !== undefined) {
      // Over a fork: the sender and the recipient, which the checks and the run read, fetched together outside the queue.
      const miss = touchedMiss(core.fork, tx.from, tx.tx.to)
      if (miss !== undefined) throw miss
    }
    checkPool(tx, core.world, core.mempool, core.blocks.height, core.minGasPrice, core.settings.next(), core.executor.requiredGasAbove(tx.tx.gasLimit, tx.tx.to, tx.tx.data))
    if (core.fork !== undefined) return addOnFork(core, tx)
    core.mempool.add(tx)
    core.watchers.noteAccepted(tx.hash)
    if (core.automine) {
      try {
        await core.miner.mineReady(toHexRaw(tx.from))
      } finally {
        core.watchers.announce(core.blocks.height)
      }
    }
    // Still waiting (automine off, or a nonce gap): the pool's entry is persisted.
    core.store.persistPool()
    return tx.hash
  })
}

/**
 * acceptEvm's end over a fork, in the queue's job: adds `tx` (checked) to the pool and
 * with automine mines the sender's executable transactions. When the block meant to
 * mine `tx` misses a fork value (or the remote fails), `tx` is taken back out of the
 * pool (the one it replaced, if any, put back), so the job wrote nothing and the queue
 * runs it again once the value is fetched (queue.ts), or the request fails with the
 * remote's error and changed nothing. When `tx` landed and a later transaction of the
 * sender missed, `tx` is answered and the later ones are mined in a job of their own
 * once the value is fetched ({@link mineLater}). The watchers hear of `tx` once, when
 * it stays.
 */
async function addOnFork(core: ChainCore, tx: EvmTransaction): Promise<Uint8Array> {
  const sender = toHexRaw(tx.from)
  const replaced = core.mempool.bySenderNonce(sender, tx.tx.nonce)
  core.mempool.add(tx)
  if (core.automine) {
    try {
      await core.miner.mineReady(sender)
      core.watchers.noteAccepted(tx.hash)
    } catch (err) {
      if (!(err instanceof ForkMiss) || core.mempool.bySenderNonce(sender, tx.tx.nonce) === tx) {
        core.mempool.remove(tx)
        if (replaced !== undefined) core.mempool.add(replaced)
        throw err
      }
      core.watchers.noteAccepted(tx.hash)
      mineLater(core, sender, err)
    } finally {
      core.watchers.announce(core.blocks.height)
    }
  } else core.watchers.noteAccepted(tx.hash)
  // Still waiting (automine off, or a nonce gap): the pool's entry is persisted.
  core.store.persistPool()
  return tx.hash
}

/**
 * With automine over a fork: after `miss` (a value a later transaction of `sender`
 * read) is fetched outside the queue, mines the sender's transactions that are
 * executable then, in a job of its own that reads the pool afresh (so one mined
 * meanwhile, by evm_mine, is not mined again). If the fetch fails or the chain was
 * reset, they stay in the pool for the next block.
 */
function mineLater(core: ChainCore, sender: string, miss: ForkMiss): void {
  let first = true
  core.queue
    .run(async () => {
      if (first) {
        // Thrown in the job, so that the queue fetches it outside and then runs the job again.
        first = false
        throw miss
      }
      try {
        await core.miner.mineReady(sender)
      } finally {
        core.watchers.announce(core.blocks.height)
      }
    })
    .catch(() => {})
}

/**
 * Accepts a transaction of a dev account or an impersonated one (eth_sendTransaction):
 * signed with `privateKey` (`from`'s key: the sender is taken as `from`), or sent as
 * `from` without its key when it is undefined
 * (impersonation, as Hardhat's hardhat_impersonateAccount: the transaction carries a
 * placeholder signature, r = the sender and s = 1, so that it has a hash and a raw
 * form; the pool's checks apply as usual). With `usePendingNonce` the nonce is the pool's pending
 * nonce of `from`, taken in the same serial step that adds the transaction to the
 * pool, so that sends from one account that overlap (`Promise.all` of sends) get
 * consecutive nonces, as go-ethereum's eth_sendTransaction (which holds a lock per
 * sender from filling the nonce to adding to the pool) and Hardhat's give them.
 */
export function submitFromAccount(core: ChainCore, fields: LegacyTransactionFields, from: Uint8Array, privateKey: Uint8Array | undefined, usePendingNonce: boolean): Promise<Uint8Array> {
  return acceptEvm(core, () => {
    const filled = usePendingNonce ? { ...fields, nonce: pendingNonce(core, from) } : fields
    const { chainId } = core.executor
    return wrapEvmTransaction(privateKey === undefined ? impersonatedTransaction(filled, chainId, from) : signLegacyTransaction(filled, chainId, privateKey, from))
  })
}

/**
 * Accepts a raw native transaction (REST post_raw_tx): decoding (throws
 * InvalidTransactionError, 43001), the pool's checks in the node's order (gas limits,
 * a script the devnet executes, fee balance, pre-execution, duplicates, signatures),
 * then with automine its own block. Resolves to the raw hash. Throws
 * {@link TransactionRejectedError} carrying the node's REST code.
 */
export async function submitNativeTransaction(core: ChainCore, raw: Uint8Array): Promise<Uint8Array> {
  const { decodeNativeTransaction, prepareNativeTransaction } = await loadNativeIntake()
  const { tx: decoded, length } = decodeNativeTransaction(raw)
  const tx = prepareNativeTransaction(decoded, raw.subarray(0, length).slice(), core.minGasPrice)
  return core.queue.run(async () => {
    const height = core.blocks.height
    checkNativePool(tx, core.world, core.mempool, core.blocks, height, nativeEnv(core, core.blocks.timestampAt(height) + 1))
    core.mempool.addNative(tx)
    if (core.fork !== undefined && core.automine) {
      // Over a fork the block may miss a value: the transaction is then taken back and the
      // job runs again after the fetch (queue.ts), so the watchers hear of it once it landed.
      try {
        await core.miner.mineBlock([tx])
      } catch (err) {
        core.mempool.removeNative(tx)
        throw err
      }
      core.watchers.noteAccepted(tx.hash)
      core.store.persist()
      core.watchers.announce(core.blocks.height)
      return tx.hash
    }
    core.watchers.noteAccepted(tx.hash)
    if (core.automine) {
      await core.miner.mineBlock([tx])
      core.store.persist()
      core.watchers.announce(core.blocks.height)
    } else core.store.persistPool()
    return tx.hash
  })
}

/**
 * Pre-executes a raw native transaction (REST `preExec=1`, §1.4.7) on the latest
 * state without committing: signatures and gas rules are not applied, as the node's
 * pre-execution does not apply them. Throws InvalidTransactionError or
 * {@link TransactionRejectedError} for a script the devnet does not execute.
 */
export async function preExecuteNativeTransaction(core: ChainCore, raw: Uint8Array): Promise<NativeOutcome & { gas: bigint }> {
  const { decodeNativeTransaction, prepareNativeTransaction } = await loadNativeIntake()
  const { tx: decoded, length } = decodeNativeTransaction(raw)
  const tx = prepareNativeTransaction({ ...decoded, gasLimit: MIN_GAS_LIMIT, gasPrice: 0n }, raw.subarray(0, length), 0n, false)
  return core.queue.run(async () => {
    const height = core.blocks.height
    return { ...preExecuteNative(core.world, tx, height, nativeEnv(core, core.blocks.timestampAt(height) + 1)), gas: NATIVE_CALL_GAS }
  })
}

let nativeIntake: Promise<typeof import('./nativeIntake.ts')> | undefined

/** The native-transaction intake (decoding, signature checks), loaded with the first native transaction. */
function loadNativeIntake(): Promise<typeof import('./nativeIntake.ts')> {
  nativeIntake ??= import('./nativeIntake.ts')
  return nativeIntake
}
