import { defineMethod } from '../declare.ts'
import type { Hash, RpcAnvilNodeInfo } from '../../core/rpcObjects.ts'
import { gasPriceGwei } from '../../chain/gasPrice.ts'
import { GWEI, EVM_TX_GAS_CAP } from '../../core/constants.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/**
 * anvil_nodeInfo: the head, the hardfork and the block environment in Anvil's shape
 * (RpcAnvilNodeInfo; foundry crates/anvil/src/eth/api.rs `anvil_node_info`).
 * hardhat-viem takes a network that answers it for a development network in mode `anvil`.
 */
export const anvil_nodeInfo = defineMethod({
  name: 'anvil_nodeInfo',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx): RpcAnvilNodeInfo => {
    const chain = ctx.chain
    const hardfork = chain.executor.hardfork
    const remote = chain.fork
    return {
      currentBlockNumber: toQuantity(chain.height),
      currentBlockTimestamp: chain.timestampAt(chain.height),
      currentBlockHash: toHex(chain.blockHash(chain.height)!) as Hash,
      hardFork: hardfork.charAt(0).toUpperCase() + hardfork.slice(1),
      transactionOrder: 'fees',
      environment: {
        baseFee: '0x0',
        chainId: ctx.chainId,
        gasLimit: toQuantity(EVM_TX_GAS_CAP),
        gasPrice: toQuantity(gasPriceGwei(chain).gasPrice * GWEI),
      },
      forkConfig: {
        forkUrl: remote === undefined ? null : remote.remote.url,
        forkBlockNumber: remote === undefined ? null : chain.firstHeight,
        forkRetryBackoff: null,
      },
    }
  },
})
