/**
 * A suite run against a dualnet node started outside the test process (the CLI, as
 * in examples/ci/github-actions.yml): it finds the node by DUALNET_RPC_URL and
 * DUALNET_REST_URL and uses it over HTTP, as any client on another machine would.
 */
import { Contract, ContractFactory, Wallet, type InterfaceAbi } from 'ethers'
import { describe, expect, it } from 'vitest'
import { dualnetProvider } from '../../src/ethers.ts'
import { Token } from '../../fixtures/index.ts'

const rpcUrl = process.env.DUALNET_RPC_URL
const restUrl = process.env.DUALNET_REST_URL
if (rpcUrl === undefined || restUrl === undefined) throw new Error('set DUALNET_RPC_URL and DUALNET_REST_URL (see examples/ci/github-actions.yml)')

// A JsonRpcProvider without the 250 ms read cache (no stale nonce between sends) and
// without a chain-id probe per call. In your project: from 'dualnet/ethers'.
const provider = dualnetProvider(rpcUrl)
// Dev account 0 of the default mnemonic (Hardhat's and Anvil's well-known key), funded by dualnet.
const owner = new Wallet('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', provider)

describe('a dualnet node started by the CLI', () => {
  it('serves the chain id of the solo node', async () => {
    expect((await provider.getNetwork()).chainId).toBe(12345n)
  })

  it('deploys and uses a contract over JSON-RPC, and REST sees the same blocks', async () => {
    const deployed = await new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode, owner).deploy('CI Token', 'CIT', 1_000n)
    await deployed.waitForDeployment()
    const token = new Contract(await deployed.getAddress(), Token.abi as InterfaceAbi, owner)
    const receipt = await (await token.getFunction('transfer')('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 10n)).wait()
    expect(receipt.status).toBe(1)
    expect(await token.getFunction('balanceOf')(owner.address)).toBe(990n)

    const height = (await (await fetch(`${restUrl}/api/v1/block/height`)).json()) as { Action: string; Error: number; Result: number }
    expect(height).toMatchObject({ Action: 'getblockheight', Error: 0, Result: await provider.getBlockNumber() })
  })
})
