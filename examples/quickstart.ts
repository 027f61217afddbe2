/**
 * Quickstart: create a devnet, deploy the ERC20 fixture with ethers, transfer, and
 * print balances and the receipt's logs. Run with `npm run example`.
 * In your project: `from 'dualnet'` and `from 'dualnet/ethers'`.
 */
import { ContractFactory, formatEther, type Contract, type InterfaceAbi } from 'ethers'
import { createDevnet } from '../src/index.ts'
import { dualnetProvider } from '../src/ethers.ts'
import { Token } from '../fixtures/index.ts'

const devnet = await createDevnet()
try {
  // ethers' BrowserProvider over the devnet's EIP-1193 request, with the settings an
  // automining chain needs (no 250 ms read cache, static network).
  const provider = dualnetProvider(devnet)
  const owner = await provider.getSigner(0)
  const recipient = devnet.accounts[1]!

  const factory = new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode, owner)
  const token = (await factory.deploy('Example Token', 'EXT', 1_000_000n)) as Contract
  const deployment = (await token.deploymentTransaction()!.wait())!
  console.log(`Token deployed at ${await token.getAddress()} in block ${deployment.blockNumber}`)

  // A gas price of 1 gwei makes the fee, and its synthetic Transfer log, visible.
  const tx = await token.getFunction('transfer')(recipient.address, 250n, { gasPrice: 1_000_000_000n })
  const receipt = (await tx.wait())!
  console.log(`transfer mined in block ${receipt.blockNumber}, status ${receipt.status}, gas used ${receipt.gasUsed}`)

  console.log('token balances:')
  console.log(`  owner     ${await token.getFunction('balanceOf')(owner.address)}`)
  console.log(`  recipient ${await token.getFunction('balanceOf')(recipient.address)}`)
  console.log(`gas-token balance of the owner: ${formatEther(await provider.getBalance(owner.address))}`)

  console.log('receipt logs:')
  const tokenAddress = await token.getAddress()
  for (const log of receipt.logs) {
    // Both the token and the gas-token address 0x…02 emit Transfer(address,address,uint256).
    const { name, args } = token.interface.parseLog(log)!
    const source = log.address === tokenAddress ? 'token' : 'gas token (fee)'
    console.log(`  #${log.index} tx ${log.transactionIndex} ${source} ${name}(${args.join(', ')})`)
  }
} finally {
  await devnet.close()
}
