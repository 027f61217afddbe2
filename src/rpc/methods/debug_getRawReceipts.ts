import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { blockReceipts } from './eth_getBlockReceipts.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import type { RpcReceipt } from '../../core/rpcObjects.ts'
import { fromHex, toHex } from '../../util/hex.ts'

/** A QUANTITY as RLP wants it: big-endian bytes without leading zeros (0 is empty). */
function unpadded(quantity: string): Uint8Array {
  const value = BigInt(quantity)
  if (value === 0n) return new Uint8Array(0)
  const hex = value.toString(16)
  return fromHex(`0x${hex.length % 2 === 0 ? hex : `0${hex}`}`)
}

/**
 * The consensus encoding of a legacy receipt (go-ethereum core/types/receipt.go
 * `Receipt.MarshalBinary`, post-Byzantium): RLP of [status (empty or 0x01),
 * cumulativeGasUsed, logsBloom, logs as [address, topics, data]], from the receipt as
 * eth_getTransactionReceipt renders it (fee logs included, as the receipt holds them).
 */
export function receiptRlp(receipt: RpcReceipt): Uint8Array {
  return RLP.encode([
    unpadded(receipt.status),
    unpadded(receipt.cumulativeGasUsed),
    fromHex(receipt.logsBloom),
    receipt.logs.map((log) => [fromHex(log.address), log.topics.map((topic) => fromHex(topic)), fromHex(log.data)]),
  ])
}

/**
 * debug_getRawReceipts(block): the consensus-encoded receipts of the block's EVM
 * transactions in block order (go-ethereum internal/ethapi/api.go
 * DebugAPI.GetRawReceipts; legacy receipts, so plain RLP lists); the receipts
 * eth_getBlockReceipts answers, encoded, native transactions left out as there; null
 * for an unknown block. The block as eth_getBlockReceipts takes it; at or below a
 * fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const debug_getRawReceipts = defineMethod({
  name: 'debug_getRawReceipts',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header' },
  handler: (ctx, [at]) => blockReceipts(ctx.chain, at)?.map((receipt) => toHex(receiptRlp(receipt))) ?? null,
})
