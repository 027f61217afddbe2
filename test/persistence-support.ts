/**
 * Shared by the persistence tests: the devnet options they use, the native
 * transactions they send, and `ledgerView`, everything observable of a chain on both
 * interfaces. Run as a program (`node --import tsx test/persistence-support.ts <dir>
 * [--continue]`) it reopens the classic-level database in <dir> in its own process,
 * prints the view as JSON, and with `--continue` then sends one more transaction and
 * prints the block it landed in. With `--time-then-die` it moves the clock, prints it
 * and kills itself with SIGKILL (no close). With `--pool` it prints the pool's view
 * (`poolView` of the hashes in VIEW_INPUT), mines one block and prints it with the
 * receipts of those hashes.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type * as Sdk from 'ontology-ts-sdk'
import { Wallet } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import type { DevnetOptions } from '../src/options/types.ts'
import { buildNativeInvoke } from '../src/native/invokeScript.ts'
import { fromBase58, toBase58 } from '../src/native/address.ts'
import { fromHex, toHexRaw } from '../src/util/hex.ts'
import { chainOf } from '../src/devnet/provider.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

/** Options of every devnet of these tests: a frozen clock (hashes repeat), unbound gas on (its bookkeeping is persisted too). */
export const PERSISTENCE_OPTIONS: DevnetOptions = { accounts: 2, nativeAccounts: 2, clock: 'frozen', genesisTimestamp: 1_700_000_000, unboundGas: {}, console: false }

/** Everything observable of `devnet`, both views, every block and transaction, state at the latest and at every height for `addresses`. */
export async function ledgerView(devnet: Devnet, addresses: readonly string[], slots: readonly { address: string; slot: string }[]) {
  const height = Number(await devnet.rpc('eth_blockNumber'))
  const blocks = []
  for (let h = 0; h <= height; h++) {
    const block = (await devnet.rpc('eth_getBlockByNumber', [`0x${h.toString(16)}`, true]))!
    const rest = (await devnet.rest.get(`/api/v1/block/details/height/${h}`)).Result
    // The raw block carries the bookkeeper's signature: the resumed chain signs as the stored one did.
    const raw = (await devnet.rest.get(`/api/v1/block/details/height/${h}?raw=1`)).Result
    const txs = []
    // Every transaction of the block, native ones included (the EVM view lists only EIP-155 ones).
    const { Transactions } = (await devnet.rest.get(`/api/v1/block/transactions/height/${h}`)).Result
    for (const native of Transactions) {
      const hash = `0x${native.match(/../g)!.reverse().join('')}`
      txs.push({
        // A native transaction's receipt is the node's "not evm event" error: compared as such.
        receipt: await devnet.rpc('eth_getTransactionReceipt', [hash]).catch((err: Error) => err.message),
        byHash: await devnet.rpc('eth_getTransactionByHash', [hash]).catch((err: Error) => err.message),
        events: (await devnet.rest.get(`/api/v1/smartcode/event/txhash/${native}`)).Result,
        restTx: (await devnet.rest.get(`/api/v1/transaction/${native}`)).Result,
        proof: (await devnet.rest.get(`/api/v1/merkleproof/${native}`)).Result,
      })
    }
    const state = await Promise.all(
      addresses.map(async (a) => [await devnet.rpc('eth_getBalance', [a, `0x${h.toString(16)}`]), await devnet.rpc('eth_getTransactionCount', [a, `0x${h.toString(16)}`])]),
    )
    blocks.push({ block, rest, raw, txs, state })
  }
  return {
    height,
    blocks,
    balances: await Promise.all(addresses.map(async (a) => (await devnet.rest.get(`/api/v1/balancev2/${toBase58Hex(a)}`)).Result)),
    unbound: await Promise.all(addresses.map(async (a) => (await devnet.rest.get(`/api/v1/unboundgas/${toBase58Hex(a)}`)).Result)),
    grant: await Promise.all(addresses.map(async (a) => (await devnet.rest.get(`/api/v1/grantgas/${toBase58Hex(a)}`)).Result)),
    allowances: await Promise.all(addresses.flatMap((a) => addresses.map(async (b) => (await devnet.rest.get(`/api/v1/allowancev2/ont/${toBase58Hex(a)}/${toBase58Hex(b)}`)).Result))),
    code: await Promise.all(slots.map(({ address }) => devnet.rpc('eth_getCode', [address, 'latest']))),
    storage: await Promise.all(slots.map(({ address, slot }) => devnet.rpc('eth_getStorageAt', [address, slot, 'latest']))),
    clock: chainOf(devnet).clock.capture(),
    dump: await devnet.dumpState(),
  }
}

/**
 * The pool as every surface shows it: txpool_content/inspect/status, each of `hashes`
 * (0x, as eth_sendRawTransaction or REST answered them; native ones in REST order)
 * by eth_getTransactionByHash and REST txstate, and the REST pool count.
 */
export async function poolView(devnet: Devnet, hashes: { evm: string[]; native: string[] }) {
  return {
    content: await devnet.rpc('txpool_content'),
    inspect: await devnet.rpc('txpool_inspect'),
    status: await devnet.rpc('txpool_status'),
    evm: await Promise.all(hashes.evm.map((h) => devnet.rpc('eth_getTransactionByHash', [h]))),
    native: await Promise.all(hashes.native.map(async (h) => (await devnet.rest.get(`/api/v1/mempool/txstate/${h}`)).Result)),
    count: (await devnet.rest.get('/api/v1/mempool/txcount')).Result,
  }
}

/** Mines one block; the block with its transaction hashes and the receipts (EVM) and events (native) of `hashes`. */
export async function mineAndRead(devnet: Devnet, hashes: { evm: string[]; native: string[] }) {
  await devnet.rpc('evm_mine')
  return {
    block: await devnet.rpc('eth_getBlockByNumber', ['latest', false]),
    receipts: await Promise.all(hashes.evm.map((h) => devnet.rpc('eth_getTransactionReceipt', [h]))),
    events: await Promise.all(hashes.native.map(async (h) => (await devnet.rest.get(`/api/v1/smartcode/event/txhash/${h}`)).Result)),
  }
}

function toBase58Hex(address: string): string {
  return toBase58(fromHex(address))
}

/** A signed native transfer of `amount` main tokens from native dev account `from` to `to` (ontology-ts-sdk), as hex for post_raw_tx. */
export function nativeTransfer(devnet: Devnet, from: number, to: number, amount: number): string {
  const a = devnet.nativeAccounts[from]!
  const b = devnet.nativeAccounts[to]!
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONT', new sdk.Crypto.Address(a.base58), new sdk.Crypto.Address(b.base58), amount, '2500', '20000')
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(a.privateKey.slice(2)))
  return tx.serialize()
}

/** A signed native `approve` of `amount` main tokens from native dev account `from` to `to` (our script in an SDK transaction). */
export function nativeApprove(devnet: Devnet, from: number, to: number, amount: bigint): string {
  const a = devnet.nativeAccounts[from]!
  const b = devnet.nativeAccounts[to]!
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONG', new sdk.Crypto.Address(a.base58), new sdk.Crypto.Address(b.base58), 1, '2500', '20000')
  const script = buildNativeInvoke(fromHex(`00${'00'.repeat(18)}01`), 'approve', {
    type: 'struct',
    items: [
      { type: 'bytes', value: fromBase58(a.base58) },
      { type: 'bytes', value: fromBase58(b.base58) },
      { type: 'int', value: amount },
    ],
  })
  ;(tx.payload as unknown as { code: string }).code = toHexRaw(script)
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(a.privateKey.slice(2)))
  return tx.serialize()
}

/** Sends a native transaction by function call; resolves to its REST hash (throws on a refusal). */
export async function sendNative(devnet: Devnet, hex: string): Promise<string> {
  const answer = await devnet.rest.post('/api/v1/transaction', { Action: 'sendrawtransaction', Version: '1.0.0', Data: hex })
  if (answer.Error !== 0) throw new Error(`native transaction refused: ${JSON.stringify(answer)}`)
  return answer.Result as string
}

/** Sends an EVM transfer of `value` wei from dev account 0 to 0x…bb (nonce from the chain). */
export async function sendEvmTransfer(devnet: Devnet, value: bigint): Promise<string> {
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const nonce = Number(await devnet.rpc('eth_getTransactionCount', [wallet.address, 'latest']))
  const raw = await wallet.signTransaction({ type: 0, chainId: devnet.chainId, nonce, to: `0x${'00'.repeat(19)}bb`, value, gasLimit: 21_000n, gasPrice: 1_000_000_000n })
  return await devnet.rpc('eth_sendRawTransaction', [raw])
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, flag] = process.argv.slice(2)
  const { ClassicLevel } = await import('classic-level')
  // Automine is an option of each start: the pool test starts with it off, as the chain it resumes ran.
  const devnet = await createDevnet({ ...PERSISTENCE_OPTIONS, automine: flag !== '--pool', db: new ClassicLevel<string, string>(dir!) })
  if (flag === '--time-then-die') {
    await devnet.rpc('evm_increaseTime', [1234])
    await devnet.rpc('anvil_setBlockTimestampInterval', [7])
    process.stdout.write(JSON.stringify(chainOf(devnet).clock.capture()), () => process.kill(process.pid, 'SIGKILL'))
    await new Promise(() => {})
  }
  if (flag === '--pool') {
    const hashes = JSON.parse(process.env.VIEW_INPUT!) as { evm: string[]; native: string[] }
    const out = { resumed: devnet.resumed, pool: await poolView(devnet, hashes), mined: await mineAndRead(devnet, hashes) }
    await devnet.close()
    process.stdout.write(JSON.stringify(out))
    process.exit(0)
  }
  const input = JSON.parse(process.env.VIEW_INPUT ?? '{}') as { addresses: string[]; slots: { address: string; slot: string }[] }
  const out: Record<string, unknown> = { resumed: devnet.resumed, view: await ledgerView(devnet, input.addresses, input.slots) }
  if (flag === '--continue') {
    const hash = await sendEvmTransfer(devnet, 7n)
    out.next = await devnet.rpc('eth_getTransactionReceipt', [hash])
    out.nextBlock = await devnet.rpc('eth_getBlockByNumber', ['latest', false])
  }
  await devnet.close()
  process.stdout.write(JSON.stringify(out))
}
