/**
 * A native transfer as the chain's own SDK builds it: ontology-ts-sdk makes a
 * main-token transfer, signs it with a native dev account's P-256 key and sends it to
 * the devnet's REST server with its RestClient; then both views of the ledger show it.
 * Run with `npm run example:native`. In your project: `import { createDevnet } from 'dualnet'`.
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { createDevnet } from '../src/index.ts'

// The SDK is a CommonJS bundle whose named exports Node's ESM loader cannot see.
const { Crypto, OntAssetTxBuilder, RestClient, TransactionBuilder } = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

/** What every RestClient method resolves to: the node's REST envelope. */
interface Envelope<T = unknown> {
  Action: string
  Desc: string
  Error: number
  Result: T
}

const devnet = await createDevnet()
try {
  const { restUrl } = await devnet.listen() // REST and JSON-RPC on ephemeral loopback ports
  const client = new RestClient(restUrl!)
  const [alice, bob] = devnet.nativeAccounts
  const from = new Crypto.Address(alice!.base58)
  const to = new Crypto.Address(bob!.base58)
  // The SDK takes the 32-byte P-256 key as hex without 0x.
  const key = new Crypto.PrivateKey(alice!.privateKey.slice(2))

  const balances = async (label: string) => {
    for (const [name, address] of [
      ['alice', from],
      ['bob', to],
    ] as const) {
      const { Result } = (await client.getBalance(address)) as Envelope<{ main: string; gas: string }>
      console.log(`  ${label} ${name} ${address.toBase58()}: ${Result.main} main, ${Result.gas} gas (1e-9 units)`)
    }
  }
  await balances('before')

  // 100 main tokens; gas price 2,500 and gas limit 20,000: a fee of 50,000,000 gas units (0.05 gas).
  const tx = OntAssetTxBuilder.makeTransferTx('ONT', from, to, 100, '2500', '20000')
  TransactionBuilder.signTransaction(tx, key)
  const sent = (await client.sendRawTransaction(tx.serialize(), false)) as Envelope<string>
  console.log(`sendrawtransaction: ${sent.Desc}, tx hash ${sent.Result}`)

  const { Result: height } = (await client.getBlockHeightByTxHash(sent.Result)) as Envelope<number>
  console.log(`included in block ${height}`)
  const { Result: event } = (await client.getSmartCodeEvent(sent.Result)) as Envelope<{ State: number; GasConsumed: number; Notify: { ContractAddress: string; States: unknown[] }[] }>
  console.log(`event record: State ${event.State}, GasConsumed ${event.GasConsumed}`)
  for (const notify of event.Notify) console.log(`  notify from ${notify.ContractAddress}: ${JSON.stringify(notify.States)}`)

  await balances('after ')
  // The same ledger through the EVM interface: gas balance in wei (18 decimals).
  console.log(`eth_getBalance(alice) = ${BigInt((await devnet.rpc('eth_getBalance', [alice!.address, 'latest'])) as string)} wei`)
} finally {
  await devnet.close()
}
