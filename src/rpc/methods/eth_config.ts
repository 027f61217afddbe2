import { crc32 } from 'node:zlib'
import { defineMethod } from '../declare.ts'
import type { RpcForkConfig } from '../../core/rpcObjects.ts'
import { toQuantity } from '../../util/hex.ts'
import type { Address } from '../../core/rpcObjects.ts'

/** EIP-7910's precompile names and addresses, by the hardfork that added them (Byzantium's and Istanbul's first: the chain's EVM, reference §6.3). */
const PRECOMPILES: readonly { since: string; name: string; address: Address }[] = [
  { since: 'istanbul', name: 'ECREC', address: '0x0000000000000000000000000000000000000001' },
  { since: 'istanbul', name: 'SHA256', address: '0x0000000000000000000000000000000000000002' },
  { since: 'istanbul', name: 'RIPEMD160', address: '0x0000000000000000000000000000000000000003' },
  { since: 'istanbul', name: 'ID', address: '0x0000000000000000000000000000000000000004' },
  { since: 'istanbul', name: 'MODEXP', address: '0x0000000000000000000000000000000000000005' },
  { since: 'istanbul', name: 'BN254_ADD', address: '0x0000000000000000000000000000000000000006' },
  { since: 'istanbul', name: 'BN254_MUL', address: '0x0000000000000000000000000000000000000007' },
  { since: 'istanbul', name: 'BN254_PAIRING', address: '0x0000000000000000000000000000000000000008' },
  { since: 'istanbul', name: 'BLAKE2F', address: '0x0000000000000000000000000000000000000009' },
  { since: 'cancun', name: 'KZG_POINT_EVALUATION', address: '0x000000000000000000000000000000000000000a' },
  { since: 'prague', name: 'BLS12_G1ADD', address: '0x000000000000000000000000000000000000000b' },
  { since: 'prague', name: 'BLS12_G1MSM', address: '0x000000000000000000000000000000000000000c' },
  { since: 'prague', name: 'BLS12_G2ADD', address: '0x000000000000000000000000000000000000000d' },
  { since: 'prague', name: 'BLS12_G2MSM', address: '0x000000000000000000000000000000000000000e' },
  { since: 'prague', name: 'BLS12_PAIRING_CHECK', address: '0x000000000000000000000000000000000000000f' },
  { since: 'prague', name: 'BLS12_MAP_FP_TO_G1', address: '0x0000000000000000000000000000000000000010' },
  { since: 'prague', name: 'BLS12_MAP_FP2_TO_G2', address: '0x0000000000000000000000000000000000000011' },
]

/** The hardforks the devnet runs, oldest first (options/hardforks.ts). */
const ORDER = ['istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague']

/** EIP-7840's blob schedule of the hardforks with blobs (Cancun: EIP-4844; Prague: EIP-7691). */
const BLOB_SCHEDULE: Readonly<Record<string, RpcForkConfig['blobSchedule']>> = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3_338_477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5_007_716 },
}

/**
 * eth_config (EIP-7910): the configuration the devnet runs, as `{ current, next, last }`.
 * `current`: `activationTime` 0 (every hardfork is active from genesis), the blob
 * schedule of a hardfork with blobs (EIP-7840) or null before Cancun (the chain takes
 * legacy transactions only), the chain id, the fork id (EIP-6122's FORK_HASH: CRC32 of
 * the genesis hash, no fork passed after genesis; Anvil answers zeros), the
 * precompiles the EVM runs by EIP-7910 name, and the system contracts, of which the
 * devnet deploys none (it runs no EIP-4788, EIP-2935 or EIP-7002 system calls). `next`
 * and `last`: null, no fork is scheduled. On a fork, the fork id is of the fork block's
 * hash, the first block the devnet holds.
 */
export const eth_config = defineMethod({
  name: 'eth_config',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const hardfork = ctx.chain.executor.hardfork
    const reached = ORDER.indexOf(hardfork)
    const precompiles = Object.fromEntries(PRECOMPILES.filter((p) => ORDER.indexOf(p.since) <= reached).map((p) => [p.name, p.address]))
    const genesis = ctx.chain.blockAt(ctx.chain.firstHeight)
    const forkHash = crc32(genesis === undefined ? new Uint8Array(32) : genesis.hash) >>> 0
    return {
      current: {
        activationTime: 0,
        blobSchedule: BLOB_SCHEDULE[hardfork] ?? null,
        chainId: toQuantity(BigInt(ctx.chainId)),
        forkId: `0x${forkHash.toString(16).padStart(8, '0')}`,
        precompiles,
        systemContracts: {},
      },
      next: null,
      last: null,
    }
  },
})
