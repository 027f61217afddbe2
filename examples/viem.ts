/**
 * The quickstart with viem: deploy the ERC20 fixture from a dev account's key, transfer,
 * read balances and decode the receipt's logs. In-process through the devnet's EIP-1193
 * `request` (`devnetTransport`); `http(rpcUrl)` after `devnet.listen()` works the same.
 * Run with `npm run example:viem`. In your project: `from 'dualnet'` and `from 'dualnet/viem'`.
 */
import { createPublicClient, createWalletClient, decodeEventLog, formatEther, type Abi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createDevnet } from '../src/index.ts'
import { devnetTransport, dualnetChain } from '../src/viem.ts'
import { Token } from '../fixtures/index.ts'

const devnet = await createDevnet()
try {
  // Chain id 12345, legacy fees, eth_gasPrice taken as is (viem's default 1.2x bump
  // would break the chain's whole-gwei price rule).
  const chain = dualnetChain()
  // viem's custom transport without retries (viem retries errors it does not know, reverts included).
  const transport = devnetTransport(devnet)
  const publicClient = createPublicClient({ chain, transport })
  const owner = privateKeyToAccount(devnet.accounts[0]!.privateKey)
  const wallet = createWalletClient({ chain, transport, account: owner })
  const recipient = devnet.accounts[1]!.address
  const abi = Token.abi as Abi

  const deployHash = await wallet.deployContract({ abi, bytecode: Token.bytecode, args: ['Example Token', 'EXT', 1_000_000n] })
  const deployment = await publicClient.waitForTransactionReceipt({ hash: deployHash })
  const token = deployment.contractAddress!
  console.log(`Token deployed at ${token} in block ${deployment.blockNumber}`)

  const hash = await wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [recipient, 250n], gasPrice: 1_000_000_000n })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  console.log(`transfer mined in block ${receipt.blockNumber}, status ${receipt.status}, gas used ${receipt.gasUsed}`)

  const balanceOf = (who: `0x${string}`) => publicClient.readContract({ address: token, abi, functionName: 'balanceOf', args: [who] })
  console.log('token balances:')
  console.log(`  owner     ${await balanceOf(owner.address)}`)
  console.log(`  recipient ${await balanceOf(recipient)}`)
  console.log(`gas-token balance of the owner: ${formatEther(await publicClient.getBalance({ address: owner.address }))}`)

  console.log('receipt logs:')
  for (const log of receipt.logs) {
    // The token and the gas token (0x…02, the fee's synthetic log) both emit Transfer.
    const { eventName, args } = decodeEventLog({ abi, data: log.data, topics: log.topics })
    const source = log.address === token ? 'token' : 'gas token (fee)'
    console.log(`  #${log.logIndex} ${source} ${eventName}(${Object.values((args ?? {}) as object).join(', ')})`)
  }
} finally {
  await devnet.close()
}
