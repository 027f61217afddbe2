/**
 * The chain the Otterscan browser test looks at (test/otterscan-browser.test.ts), filled
 * over the CLI's two interfaces as a user's script would: contract deploys, ERC20
 * transfers, a call that forwards value to another contract (an internal transfer), a
 * revert with a reason, a native gas-token transfer sent over REST with the chain's SDK,
 * and enough value transfers to one address for two of Otterscan's address pages.
 */
import { createRequire } from 'node:module'
import { Interface, id } from 'ethers'
import type * as Sdk from 'ontology-ts-sdk'
import { Reverter, Token, TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { rpcCall } from './cli-support.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

/** Otterscan's address page size (src/params.ts `PAGE_SIZE`). */
export const OTTERSCAN_PAGE_SIZE = 25

const GWEI = 1_000_000_000n
const ETHER = GWEI * GWEI
const hex = (n: bigint) => `0x${n.toString(16)}`

/** A native dev account as the CLI's banner prints it: Base58 and 0x address, P-256 key (hex, no 0x). */
export interface NativeAccount {
  base58: string
  address: string
  privateKey: string
}

/** The EVM and native dev accounts of the CLI's banner (`(i) 0x… Base58` / `private key …` lines). */
export function bannerAccounts(banner: string): { evm: string[]; native: NativeAccount[] } {
  const [evmPart = '', nativePart = ''] = banner.split(/^Native dev accounts/m)
  const evm = [...evmPart.matchAll(/^\(\d+\) (0x[0-9a-fA-F]{40}) /gm)].map((m) => m[1]!)
  const native = [...nativePart.matchAll(/^\(\d+\) (\w+) {2}(0x[0-9a-f]{40})\n {4}private key ([0-9a-f]{64}) /gm)].map((m) => ({ base58: m[1]!, address: m[2]!, privateKey: m[3]! }))
  return { evm, native }
}

/** What the test looks for in Otterscan: the accounts, contracts and transactions the script made. */
export interface FilledChain {
  deployer: string
  holder: string
  token: string
  tokenDeploy: string
  callee: string
  caller: string
  reverter: string
  /** token.transfer(holder, 250 OTT) */
  erc20Transfer: string
  /** caller.run() with 0.5 of value, forwarded to the callee (an internal transfer), logging Pinged and Done */
  run: string
  /** reverter.revertWithReason(): "Reverter: always fails" */
  revert: string
  /** the native ONG transfer between the native dev accounts (its 0x hash) */
  native: string
  nativePayer: NativeAccount
  nativePayee: NativeAccount
  /** an address that received OTTERSCAN_PAGE_SIZE + 1 value transfers of 1, 2, … gwei, one block each */
  paged: string
  pagedTransfers: string[]
  /** the `signatures/<4 bytes>` and `topic0/<hash>` assets of the contracts' functions and events */
  assets: Map<string, string>
}

/** The text otterscan-assets serves for each function selector and event topic of `abis`. */
function signatureAssets(abis: unknown[]): Map<string, string> {
  const assets = new Map<string, string>()
  for (const abi of abis) {
    const iface = new Interface(abi as never)
    iface.forEachFunction((f) => assets.set(`signatures/${f.selector.slice(2)}`, f.format('sighash')))
    // The topic0 database names the parameters and marks the indexed ones (Otterscan parses `event <text>`).
    iface.forEachEvent((e) => assets.set(`topic0/${e.topicHash.slice(2)}`, e.format('full').replace(/^event /, '')))
  }
  // The chain's gas-token Transfer logs (node-facts §6.4) use ERC20's Transfer event.
  assets.set(`topic0/${id('Transfer(address,address,uint256)').slice(2)}`, 'Transfer(address indexed from, address indexed to, uint256 value)')
  return assets
}

/**
 * Fills the chain of the CLI at `rpcUrl` / `restUrl` (both started) from its dev accounts;
 * every EVM transaction is a legacy one at 1 gwei, mined by automine before the next is sent.
 * @throws when a transaction fails to be sent or mined, or a native transfer is refused.
 */
export async function fillChain(rpcUrl: string, restUrl: string, banner: string): Promise<FilledChain> {
  const { evm, native } = bannerAccounts(banner)
  const [deployer, holder, payer] = evm as [string, string, string]
  const [nativePayer, nativePayee] = native as [NativeAccount, NativeAccount]
  if (payer === undefined || nativePayee === undefined) throw new Error(`the banner lists too few accounts:\n${banner}`)

  const send = async (from: string, fields: Record<string, string>) => {
    const hash = (await rpcCall(rpcUrl, 'eth_sendTransaction', [{ from, gasPrice: hex(GWEI), gas: hex(3_000_000n), ...fields }])) as string
    const receipt = (await rpcCall(rpcUrl, 'eth_getTransactionReceipt', [hash])) as { contractAddress: string | null } | null
    if (receipt === null) throw new Error(`${hash} was not mined`)
    return { hash, contract: receipt.contractAddress }
  }
  const tokenAbi = new Interface(Token.abi as never)
  const deployed = await send(deployer, { data: Token.bytecode + tokenAbi.encodeDeploy(['Otter Token', 'OTT', 1_000_000n * ETHER]).slice(2) })
  const token = deployed.contract!
  const callee = (await send(deployer, { data: TraceCallee.bytecode })).contract!
  const caller = (await send(deployer, { data: TraceCaller.bytecode + new Interface(TraceCaller.abi as never).encodeDeploy([callee]).slice(2) })).contract!
  const reverter = (await send(deployer, { data: Reverter.bytecode })).contract!
  const erc20Transfer = (await send(deployer, { to: token, data: tokenAbi.encodeFunctionData('transfer', [holder, 250n * ETHER]) })).hash
  await send(holder, { to: token, data: tokenAbi.encodeFunctionData('transfer', [payer, 5n * ETHER]) })
  const run = (await send(deployer, { to: caller, value: hex(ETHER / 2n), data: new Interface(TraceCaller.abi as never).encodeFunctionData('run') })).hash
  const revert = (await send(deployer, { to: reverter, gas: hex(100_000n), data: new Interface(Reverter.abi as never).encodeFunctionData('revertWithReason') })).hash

  // A native transfer of 3 ONG (in the SDK's 1e-9 units), signed with the payer's P-256 key.
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONG', new sdk.Crypto.Address(nativePayer.base58), new sdk.Crypto.Address(nativePayee.base58), 3_000_000_000, '2500', '20000')
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(nativePayer.privateKey))
  const response = await fetch(`${restUrl}/api/v1/transaction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Action: 'sendrawtransaction', Version: '1.0.0', Data: tx.serialize() }),
  })
  const sent = (await response.json()) as { Error: number; Desc: string }
  if (sent.Error !== 0) throw new Error(`the native transfer was refused: ${sent.Error} ${sent.Desc}`)

  const paged = `0x${'0a7e'.repeat(10)}`
  const pagedTransfers: string[] = []
  for (let i = 1n; i <= BigInt(OTTERSCAN_PAGE_SIZE + 1); i++) pagedTransfers.push((await send(payer, { to: paged, value: hex(i * GWEI) })).hash)

  return {
    deployer,
    holder,
    token,
    tokenDeploy: deployed.hash,
    callee,
    caller,
    reverter,
    erc20Transfer,
    run,
    revert,
    native: `0x${tx.getHash()}`,
    nativePayer,
    nativePayee,
    paged,
    pagedTransfers,
    assets: signatureAssets([Token.abi, TraceCallee.abi, TraceCaller.abi, Reverter.abi]),
  }
}
