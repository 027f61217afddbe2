/**
 * Rendering of ledger objects in the native REST conventions (reference §1.4,
 * §1.7): hashes byte-reversed without 0x, addresses Base58 (or reversed hex where
 * the node writes hex), amounts in the node's units, Go field order.
 */
import { serializeBlock, type ChainBlock } from '../chain/block.ts'
import { GWEI } from '../core/constants.ts'
import type { ExecutionRecord, NativeNotify } from '../chain/record.ts'
import type { ChainTransaction } from '../chain/transaction.ts'
import type { RawLog } from '../evm/transferLogs.ts'
import { BinaryWriter } from '../native/binary.ts'
import { describeSig } from '../native/program.ts'
import type { DeployPayload } from '../native/transaction.ts'
import { toBase58 } from '../native/address.ts'
import { toHexRaw, toReversedHex } from '../util/hex.ts'
import { u64 } from './json.ts'
import type { RestSig } from './schema.ts'

const ZERO_ADDRESS_HEX = '00'.repeat(20)

/** Transaction JSON (§1.4.2), with `Height` when included. */
export function renderTransaction(tx: ChainTransaction, height: number) {
  if (tx.kind !== 'evm') {
    const t = tx.tx
    const p = t.payload
    return {
      Version: 0,
      Nonce: t.nonce,
      GasPrice: u64(t.gasPrice),
      GasLimit: u64(t.gasLimit),
      Payer: toBase58(tx.from),
      TxType: t.txType,
      Payload:
        p.kind === 'deploy'
          ? { Code: toHexRaw(p.code), VmType: p.vmFlags, Name: p.name, CodeVersion: p.codeVersion, Author: p.author, Email: p.email, Description: p.description }
          : { Code: toHexRaw(p.kind === 'invoke' ? p.code : p.rlp) },
      Attributes: [] as unknown[],
      Sigs: t.sigs.map((sig) => {
        const { pubKeys, m, sigData } = describeSig(sig)
        return { PubKeys: pubKeys.map((k) => toHexRaw(k)), M: m, SigData: sigData.map((d) => toHexRaw(d)) }
      }),
      Hash: toReversedHex(tx.hash),
      Height: height,
    }
  }
  const t = tx.tx
  return {
    Version: 0,
    Nonce: Number(BigInt.asUintN(32, t.nonce)),
    GasPrice: u64(t.gasPrice / GWEI),
    GasLimit: u64(t.gasLimit),
    Payer: toBase58(tx.from),
    TxType: 211,
    // EIP-155 payload: a bare JSON string, the hex of the Ethereum RLP (§1.4.2).
    Payload: toHexRaw(t.rlp),
    Attributes: [] as unknown[],
    Sigs: [] as RestSig[],
    Hash: toReversedHex(tx.hash),
    Height: height,
  }
}

/** Block JSON (§1.4.1). */
export function renderBlock(block: ChainBlock) {
  const h = block.header
  const signatures = block.signatures()
  return {
    Hash: toReversedHex(block.hash),
    Size: serializeBlock(block).length,
    Header: {
      Version: h.version,
      PrevBlockHash: toReversedHex(h.prevHash),
      TransactionsRoot: toReversedHex(h.transactionsRoot),
      BlockRoot: toReversedHex(h.blockRoot),
      Timestamp: h.timestamp,
      Height: h.height,
      ConsensusData: u64(h.consensusData),
      ConsensusPayload: toHexRaw(h.consensusPayload),
      NextBookkeeper: toBase58(h.nextBookkeeper),
      Bookkeepers: h.bookkeepers.map((k) => toHexRaw(k)),
      SigData: signatures.map((s) => toHexRaw(s)),
      Hash: toReversedHex(block.hash),
    },
    Transactions: block.transactions.map((tx) => renderTransaction(tx, h.height)),
  }
}

/** Raw block hex (`raw=1`): header, u32 tx count, raw transactions (§5.1). */
export function renderRawBlock(block: ChainBlock): string {
  return toHexRaw(serializeBlock(block))
}

/**
 * An EVM log as the node's notify States string: "0x" + hex of address ‖ u32 LE topic
 * count ‖ topics ‖ varbytes(data) (§1.4.6, core/types/evm_log.go).
 */
export function serializeEvmLog([address, topics, data]: RawLog): string {
  const w = new BinaryWriter().bytes(address).u32(topics.length)
  for (const topic of topics) w.bytes(topic)
  return `0x${toHexRaw(w.varbytes(data).finish())}`
}

/** A native notify (§1.4.6): reversed-hex contract, States with exact integers. */
export function renderNativeNotify(n: NativeNotify) {
  return {
    ContractAddress: toReversedHex(n.contract),
    States: n.states.map((state) => (typeof state === 'bigint' ? u64(state) : state)),
    IsEvm: false,
  }
}

/** The contract execution event record of one transaction (§1.4.6). */
export function renderEventRecord(tx: ChainTransaction, record: ExecutionRecord, index: number) {
  const notify = [...record.notify.map(renderNativeNotify), ...record.logs.map((log) => ({ ContractAddress: toReversedHex(log[0]), States: serializeEvmLog(log), IsEvm: true }))]
  return {
    TxHash: toReversedHex(tx.hash),
    State: record.state,
    GasConsumed: u64(record.gasConsumed),
    // The node writes null, not [], when there are no notifies.
    Notify: notify.length === 0 ? null : notify,
    GasStepUsed: u64(record.gasUsed),
    TxIndex: index,
    CreatedContract: record.contractAddress === undefined ? ZERO_ADDRESS_HEX : toReversedHex(record.contractAddress),
  }
}

/**
 * A contract's DeployCode (get_contract_state): JSON with the §1.4.5 field names, or
 * with `raw` its serialisation (varbytes code, vm flags byte, five varstrings).
 */
export function renderContractState(deploy: DeployPayload, raw: boolean) {
  const info = {
    Code: toHexRaw(deploy.code),
    VmType: deploy.vmFlags,
    Name: deploy.name,
    CodeVersion: deploy.codeVersion,
    Author: deploy.author,
    Email: deploy.email,
    Description: deploy.description,
  }
  if (!raw) return info
  const text = (s: string) => new TextEncoder().encode(s)
  const w = new BinaryWriter().varbytes(deploy.code).u8(deploy.vmFlags)
  for (const field of [info.Name, info.CodeVersion, info.Author, info.Email, info.Description]) w.varbytes(text(field))
  return toHexRaw(w.finish())
}
