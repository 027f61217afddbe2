/**
 * The ten native transactions of a solo node's genesis block, byte for byte as the
 * node builds them (reference §5.5, §1.4.5; core/genesis/genesis.go
 * `BuildGenesisBlock`, core/utils/transaction_builder.go). In block order:
 *
 * 1–6. deploys (TxType 0xd0) of main, gas, params, ONT ID, auth and governance config:
 *      `Code` = the contract's 20 raw address bytes, VmType 1 (NeoVM), version "1.0",
 *      author "Ontology Team", email "contact@ont.io";
 * 7–10. invokes (TxType 0xd1) of `init` on main (the whole main supply to the
 *      bookkeeper), gas (no arguments), params (the initial global parameters and the
 *      bookkeeper as admin), and `initConfig` on governance (the VBFT configuration the
 *      node embeds: mainnet's, which stays in place in testmode, reference §5.5).
 *
 * Every one has nonce 0, gas price 0, the zero address as payer, no signatures;
 * deploys have GasLimit 0 and invokes GasLimit 2^64-1 (`math.MaxUint64`). Only the
 * main and params init arguments depend on the bookkeeper, so two devnets with the
 * same bookkeeper key have the same genesis transaction hashes.
 */
import { nativeAddress, ZERO_ADDRESS } from '../core/constants.ts'
import { hash160 } from '../util/hash.ts'
import { fromHex } from '../util/hex.ts'
import { BinaryWriter } from './binary.ts'
import { NATIVE_INVOKE_SYSCALL } from './invokeBuilder.ts'
import { neoBytes } from './neoValue.ts'
import { NativeTxType, type DeployPayload, type NativeTransaction } from './transaction.ts'

/** `math.MaxUint64`: the GasLimit of the genesis invokes (reference §1.4.2). */
export const GENESIS_INVOKE_GAS_LIMIT = 2n ** 64n - 1n

/** Total main-token supply in v1 units (whole tokens): the main `init` distribution (constants.ONT_TOTAL_SUPPLY). */
const MAIN_SUPPLY_V1 = 1_000_000_000n

/** What genesis deploys for one native contract (DeployCode fields, reference §1.4.5). */
export interface NativeContractDeploy {
  /** The native address, 20 raw bytes; also the deployed `Code`. */
  address: Uint8Array
  name: string
  description: string
}

/** The six native contracts genesis deploys, in block order (genesis.go `newGoverningToken` … `newGovConfigTx`). */
export const NATIVE_CONTRACT_DEPLOYS: readonly NativeContractDeploy[] = [
  { address: nativeAddress(1), name: 'ONT', description: 'Ontology Network ONT Token' },
  { address: nativeAddress(2), name: 'ONG', description: 'Ontology Network ONG Token' },
  // The trailing space is the node's.
  { address: nativeAddress(4), name: 'ParamConfig', description: 'Chain Global Environment Variables Manager ' },
  { address: nativeAddress(3), name: 'OID', description: 'Ontology Network ONT ID' },
  { address: nativeAddress(6), name: 'AuthContract', description: 'Ontology Network Authorization Contract' },
  { address: nativeAddress(7), name: 'CONFIG', description: 'Ontology Network Consensus Config' },
]

/** The deploy payload of a native contract: VmType 1 (NeoVM), version 1.0, the Ontology Team's author and email. */
export function nativeDeployPayload(deploy: NativeContractDeploy): DeployPayload {
  return {
    kind: 'deploy',
    code: deploy.address,
    vmFlags: 1,
    name: deploy.name,
    codeVersion: '1.0',
    author: 'Ontology Team',
    email: 'contact@ont.io',
    description: deploy.description,
  }
}

/**
 * Address a deployed contract is stored under: hash160 of its code (common
 * `AddressFromVmCode`); for a native contract, of its 20 address bytes. The REST
 * contract route maps the native address to it (reference §1.4.5).
 */
export function deployedContractAddress(code: Uint8Array): Uint8Array {
  return hash160(code)
}

/**
 * The initial global parameters (genesis.go `INIT_PARAM`, neovm/config.go
 * `INIT_GAS_TABLE`): the minimum gas price "0" and the NeoVM gas table. Serialised in
 * key order (Go `sort.Strings`, byte order).
 */
const INITIAL_PARAMS: Readonly<Record<string, bigint>> = {
  gasPrice: 0n,
  'System.Blockchain.GetHeader': 100n,
  'System.Blockchain.GetBlock': 200n,
  'System.Blockchain.GetTransaction': 100n,
  'System.Blockchain.GetContract': 100n,
  'Ontology.Contract.Create': 20_000_000n,
  'Ontology.Contract.Migrate': 20_000_000n,
  'System.Storage.Get': 200n,
  'System.Storage.Put': 4000n,
  'System.Storage.Delete': 100n,
  'System.Runtime.CheckWitness': 200n,
  'Ontology.Native.Invoke': 1000n,
  APPCALL: 10n,
  TAILCALL: 10n,
  SHA1: 10n,
  SHA256: 10n,
  HASH160: 20n,
  HASH256: 20n,
  'Deploy.Code.Gas': 200_000n,
  'Invoke.Code.Gas': 20_000n,
}

/**
 * The mainnet VBFT configuration (common/config/config.go `MainNetConfig.VBFT`), which
 * testmode keeps. Peers: [public key text, Base58 address, its 20 bytes in hex] (the
 * hex saves loading the Base58 codec at start-up; test/genesis.test.ts checks both agree).
 */
export const MAINNET_VBFT = {
  n: 7,
  c: 2,
  k: 7,
  l: 112,
  blockMsgDelay: 10_000,
  hashMsgDelay: 10_000,
  peerHandshakeTimeout: 10,
  maxBlockChangeView: 120_000,
  minInitStake: 100_000,
  adminOntId: 'did:ont:AdjfcJgwru2FD8kotCPvLDXYzRjqFjc9Tb',
  vrfValue: '1c9810aa9822e511d5804a9c4db9dd08497c31087b0daafa34d768a3253441fa20515e2f30f81741102af0ca3cefc4818fef16adb825fbaa8cad78647f3afb590e',
  vrfProof: 'c57741f934042cb8d8b087b44b161db56fc3ffd4ffb675d36cd09f83935be853d8729f3f5298d12d6fd28d45dde515a4b9d7f67682d182ba5118abf451ff1988',
  peers: [
    ['03348c8fe64e1defb408676b6e320038bd2e592c802e27c3d7e88e68270076c2f7', 'AZavFr7sQ4em2NmqWDjLMY34tHMQzATWgx', 'c35fdde6f8ae1a72fe1fe706840082a0f825809a'],
    ['03afd920a3b4ce2e7175a32c0d092153d1a11ef5e0dcc14e71c85101b95518d5d7', 'AM9jHMV7xY4HWH2dWmzyxrtnbi6ErNt7oL', '3afacc35e63616740daa47e7808b2798a6ad94b7'],
    ['03e818b65a66d983a99497e06c6552ee5067229e85ba1cec60c5477dc3d568ed43', 'ATECwFPNRZFydFR1yUjb6RTLfVcKGKWRmp', '7da44cd3f40927c0139ef006511c59efe49ef689'],
    ['02375e44e500f9cfe8bd2f4afa4a016a8a902567996c919b9d1ce4f5d4f930f145', 'AKMxTuHQtt5YspXNPwkQNP5ZY66c4LY5BR', '275a8a95344a5958effc3efc5ae72120a305c59b'],
    ['03af040c09af5e06cf966f73fc99e8f4372f1510fe6e4376824452a99b85695a9c', 'AT4fXp36Ui22Lbh5ZJUCRBFDJ7axkLyUFM', '7bd65775cb9ca7289d2aa401affefad654200dee'],
    ['034ee2a4368e999fc7c04e7e3a9073162d47712382f1690d6a67e7e1c475cd0ff3', 'ANLRokqieUtrUMave66FcNy2cxV7Whf4UN', '47f8e93645e7426a8a2c76ccd46b962181315e4d'],
    ['0327f9e0fb3b894027c52caf3d31d9ac5f676d3cf892c933ac107ed7447fb6e65b', 'AVRD9QmkYNq8n8DXc9AqpZnUEYhjg1aq5L', '95a94d6323822d708bd7a7627850e9d85e93255a'],
  ],
} as const

const text = (s: string) => new TextEncoder().encode(s)

/** native/utils `EncodeVarUint`: varbytes of the value's NeoBytes. */
function encodeVarUint(w: BinaryWriter, value: bigint): BinaryWriter {
  return w.varbytes(neoBytes(value))
}

/** Main `init` arguments: one distribution entry, the whole supply (v1) to the bookkeeper (genesis.go `newGoverningInit`). */
function mainInitArgs(bookkeeper: Uint8Array): Uint8Array {
  const w = encodeVarUint(new BinaryWriter(), 1n).varbytes(bookkeeper)
  return encodeVarUint(w, MAIN_SUPPLY_V1).finish()
}

/** Params `init` arguments: the parameters (count, then key and value strings), then the admin (genesis.go `newParamInit`). */
function paramsInitArgs(bookkeeper: Uint8Array): Uint8Array {
  const keys = Object.keys(INITIAL_PARAMS).sort()
  const w = encodeVarUint(new BinaryWriter(), BigInt(keys.length))
  for (const key of keys) w.varbytes(text(key)).varbytes(text(String(INITIAL_PARAMS[key])))
  return w.varbytes(bookkeeper).finish()
}

/** Governance `initConfig` arguments: the VBFT configuration's serialisation (config.go `VBFTConfig.Serialization`). */
function governanceInitArgs(): Uint8Array {
  const v = MAINNET_VBFT
  const w = new BinaryWriter()
  for (const n of [v.n, v.c, v.k, v.l, v.blockMsgDelay, v.hashMsgDelay, v.peerHandshakeTimeout, v.maxBlockChangeView, v.minInitStake]) w.u32(n)
  w.varbytes(text(v.adminOntId)).varbytes(text(v.vrfValue)).varbytes(text(v.vrfProof)).varint(v.peers.length)
  v.peers.forEach(([publicKey, , address], i) => {
    w.u32(i + 1)
      .varbytes(text(publicKey))
      .bytes(fromHex(address))
      .u64(0n)
  })
  return w.finish()
}

/**
 * NeoVM `ParamsBuilder.EmitPushByteArray` of the node (vm/neovm/params_builder.go):
 * a one-byte length below 75 (the SDK's builder, ./invokeBuilder.ts, also uses it at
 * exactly 75), else PUSHDATA1/2/4.
 */
function emitPushByteArray(w: BinaryWriter, data: Uint8Array): void {
  const n = data.length
  if (n < 75) w.u8(n)
  else if (n < 0x100) w.u8(0x4c).u8(n)
  else if (n < 0x10000)
    w.u8(0x4d)
      .u8(n & 0xff)
      .u8(n >>> 8)
  else w.u8(0x4e).u32(n)
  w.bytes(data)
}

/**
 * The node's native-call script (transaction_builder.go `BuildNativeTransaction`):
 * push args, push method, push contract address, PUSH0 (version), SYSCALL, push
 * "Ontology.Native.Invoke".
 */
function nativeCallScript(contract: Uint8Array, method: string, args: Uint8Array): Uint8Array {
  const w = new BinaryWriter()
  emitPushByteArray(w, args)
  emitPushByteArray(w, text(method))
  emitPushByteArray(w, contract)
  w.u8(0x00).u8(0x68)
  emitPushByteArray(w, text(NATIVE_INVOKE_SYSCALL))
  return w.finish()
}

/** What every genesis transaction shares: version 0, nonce 0, gas price 0, the zero payer, no signatures. */
function systemTransaction(txType: typeof NativeTxType.Deploy | typeof NativeTxType.InvokeNeo, gasLimit: bigint, payload: NativeTransaction['payload']): NativeTransaction {
  return { version: 0, txType, nonce: 0, gasPrice: 0n, gasLimit, payer: ZERO_ADDRESS, payload, sigs: [] }
}

/** Indexes of the `init` invokes in {@link nativeGenesisTransactions} (after the six deploys). */
export const GENESIS_INIT = { main: 6, gas: 7, params: 8, governance: 9 } as const

/**
 * The ten genesis transactions in block order for a node whose bookkeeper address
 * is `bookkeeper` (20 raw bytes; a single key's address, as on solo).
 */
export function nativeGenesisTransactions(bookkeeper: Uint8Array): NativeTransaction[] {
  const [main, gas, params, , , governance] = NATIVE_CONTRACT_DEPLOYS.map((d) => d.address) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array]
  const invoke = (contract: Uint8Array, method: string, args: Uint8Array) =>
    systemTransaction(NativeTxType.InvokeNeo, GENESIS_INVOKE_GAS_LIMIT, { kind: 'invoke', code: nativeCallScript(contract, method, args) })
  return [
    ...NATIVE_CONTRACT_DEPLOYS.map((d) => systemTransaction(NativeTxType.Deploy, 0n, nativeDeployPayload(d))),
    invoke(main, 'init', mainInitArgs(bookkeeper)),
    invoke(gas, 'init', new Uint8Array(0)),
    invoke(params, 'init', paramsInitArgs(bookkeeper)),
    invoke(governance, 'initConfig', governanceInitArgs()),
  ]
}
