/**
 * The plugin's network and @nomiclabs/hardhat-ethers 2.x (ethers 5): that plugin writes
 * `gas - 1,000,000` into every function of a contract's ABI when the network's `gas` is
 * a number, and ethers 5 sends a call with that plus its own intrinsic figure. Found by
 * Uniswap v3-periphery's own suite through the plugin (scripts/outside/README.md): its
 * `multicall` of createAndInitializePoolIfNecessary, mint and refundETH needs about
 * 5.05 million gas and ran out of gas at 5,035,224, while it passed over HTTP, where the
 * same client estimates. Such a send now gets the network's gas; a gas the caller chose
 * otherwise is kept (src/hardhat/networkRequest.ts, hotfixGas).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hotfixGas, requestOnNetwork, withNetworkGas } from '../src/hardhat/networkRequest.ts'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { fromHex } from '../src/util/hex.ts'

/**
 * Runtime code that reverts unless it starts with at least 5,500,000 gas left:
 * GAS PUSH3 5500000 GT PUSH1 10 JUMPI STOP JUMPDEST PUSH1 0 DUP1 REVERT.
 */
const NEEDS_5_5M = '0x5a6253ec6011600a57005b600080fd'
/** ERC20 transfer calldata as v3-periphery's fixture sent it (the figure it was sent with: 0x4ca618). */
const TRANSFER = '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000d3c21bcecceda1000000'

describe('hardhat-ethers 2.x (ethers 5) contract calls on the plugin network', () => {
  let devnet: Devnet
  let from: string
  const to = '0x00000000000000000000000000000000005e5e5e'
  const quantity = (n: bigint) => `0x${n.toString(16)}`

  beforeAll(async () => {
    devnet = await createDevnet({ console: false })
    from = devnet.accounts[0]!.address
    await devnet.rpc('hardhat_setCode', [to, NEEDS_5_5M])
  })
  afterAll(() => devnet.close())

  it("computes ethers 5's figure: the ABI's gas (network gas - 1,000,000) plus 21,000 and 4 per zero, 68 per non-zero byte", () => {
    expect(quantity(hotfixGas(6_000_000, fromHex(TRANSFER)))).toBe('0x4ca618')
    expect(hotfixGas(6_000_000, new Uint8Array())).toBe(5_021_000n)
    expect(hotfixGas(30_000_000, Uint8Array.of(0, 1))).toBe(29_021_072n)
  })

  it("raises exactly that figure to the network's gas, in a copy; any other gas is kept", () => {
    const hotfix = [{ from, to, data: TRANSFER, gas: '0x4ca618' }]
    expect(withNetworkGas('eth_sendTransaction', hotfix, 6_000_000)).toEqual([{ from, to, data: TRANSFER, gas: '0x5b8d80' }])
    expect(hotfix[0]!.gas).toBe('0x4ca618')
    // `input` is the same field under its newer name.
    expect(withNetworkGas('eth_sendTransaction', [{ from, to, input: TRANSFER, gas: '0x4ca618' }], 6_000_000)).toEqual([{ from, to, input: TRANSFER, gas: '0x5b8d80' }])
    for (const gas of ['0x4ca617', '0x4ca619', '0x5208', 5_023_256, null]) {
      const params = [{ from, to, data: TRANSFER, gas }]
      expect(withNetworkGas('eth_sendTransaction', params, 6_000_000)).toBe(params)
    }
    // Another network gas gives another figure; 'auto' and other methods are left alone.
    const params = [{ from, to, data: TRANSFER, gas: '0x4ca618' }]
    expect(withNetworkGas('eth_sendTransaction', params, 7_000_000)).toBe(params)
    expect(withNetworkGas('eth_sendTransaction', params, 'auto')).toBe(params)
    expect(withNetworkGas('eth_call', params, 6_000_000)).toBe(params)
    const badData = [{ from, to, data: '0xabc', gas: '0x4ca618' }]
    expect(withNetworkGas('eth_sendTransaction', badData, 6_000_000)).toBe(badData)
  })

  it('a call that needs more than the figure and less than the cap is mined with the cap', async () => {
    const data = '0x12345678'
    const gas = quantity(hotfixGas(6_000_000, fromHex(data)))
    const hash = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, to, data, gas }], 6_000_000)
    const receipt = (await devnet.rpcUntyped('eth_getTransactionReceipt', [hash])) as { status: string }
    expect(receipt.status).toBe('0x1')
    const tx = (await devnet.rpcUntyped('eth_getTransactionByHash', [hash])) as { gas: string }
    expect(tx.gas).toBe('0x5b8d80')
  })

  it('the same call with a gas the caller chose below 5.5 million still fails, as sent', async () => {
    const failure = await requestOnNetwork(devnet, 'eth_sendTransaction', [{ from, to, data: '0x12345678', gas: quantity(5_400_000n) }], 6_000_000).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(RpcError)
    const hash = (failure as { transactionHash: string }).transactionHash
    const tx = (await devnet.rpcUntyped('eth_getTransactionByHash', [hash])) as { gas: string }
    expect(tx.gas).toBe(quantity(5_400_000n))
  })
})
