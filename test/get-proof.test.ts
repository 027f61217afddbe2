/**
 * eth_getProof. Without a state trie (option stateRoot 'zero', the default): refused as
 * the real node refuses it (-32000 `eth_getProof is not supported`, reference §6.2), in
 * process, over HTTP and through viem's getProof; a malformed argument is still -32602,
 * as go-ethereum decodes arguments before the method runs.
 *
 * With stateRoot 'merkle': EIP-1186 proofs, checked with @ethereumjs/mpt's proof
 * verification (not dualnet's code) against each block's `stateRoot` as served, for
 * the latest and for older blocks, accounts with and without storage, absent accounts
 * and slots, in process and over HTTP through viem's getProof.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, type Hex, hexToBytes, http, keccak256, toHex } from 'viem'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createDevnet, type Devnet } from '../src/index.ts'

const ACCOUNT = '0x00000000000000000000000000000000000000aa'
const SLOT = `0x${'0'.repeat(64)}` as const
const SLOT1 = `0x${'0'.repeat(63)}1` as const
const SLOT2 = `0x${'0'.repeat(63)}2` as const
/** Init code: SSTORE(0, 0x2a), SSTORE(1, 7), then deploys the one-byte runtime 0x00 (STOP). */
const INIT = '0x602a6000556007600155600060005360016000f3'
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const EMPTY_CODE = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'

interface Proof {
  address: Hex
  accountProof: Hex[]
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  storageProof: { key: Hex; value: Hex; proof: Hex[] }[]
}

/** Checks `proof` against `stateRoot` with @ethereumjs/mpt's verifier: the account leaf (or its absence) and each slot. */
async function verify(proof: Proof, stateRoot: Hex): Promise<void> {
  const nodes = proof.accountProof.map((n) => hexToBytes(n))
  expect(keccak256(nodes[0]!)).toBe(stateRoot)
  const leaf = await verifyMerkleProof(hexToBytes(proof.address), nodes, { root: hexToBytes(stateRoot), useKeyHashing: true })
  if (leaf === null) {
    expect([proof.nonce, proof.balance, proof.codeHash, proof.storageHash]).toEqual(['0x0', '0x0', EMPTY_CODE, EMPTY_ROOT])
  } else {
    const [nonce, balance, storageRoot, codeHash] = RLP.decode(leaf) as Uint8Array[]
    expect(BigInt(toHex(nonce!.length === 0 ? new Uint8Array([0]) : nonce!))).toBe(BigInt(proof.nonce))
    expect(BigInt(toHex(balance!.length === 0 ? new Uint8Array([0]) : balance!))).toBe(BigInt(proof.balance))
    expect(toHex(storageRoot!)).toBe(proof.storageHash)
    expect(toHex(codeHash!)).toBe(proof.codeHash)
  }
  for (const slot of proof.storageProof) {
    const slotNodes = slot.proof.map((n) => hexToBytes(n))
    if (proof.storageHash === EMPTY_ROOT) {
      expect(slot.proof).toEqual([])
      expect(slot.value).toBe('0x0')
      continue
    }
    const value = await verifyMerkleProof(hexToBytes(slot.key), slotNodes, { root: hexToBytes(proof.storageHash), useKeyHashing: true })
    expect(value === null ? 0n : BigInt(toHex(RLP.decode(value) as Uint8Array))).toBe(BigInt(slot.value))
  }
}

describe('eth_getProof (no state trie)', () => {
  let devnet: Devnet
  let rpcUrl: string
  beforeAll(async () => {
    devnet = await createDevnet({ chainId: 12345, console: false })
    rpcUrl = (await devnet.listen()).rpcUrl
  })
  afterAll(async () => {
    await devnet?.close()
  })

  it('is refused in process as the node refuses it', async () => {
    await expect(devnet.rpc('eth_getProof', [ACCOUNT, [SLOT], 'latest'])).rejects.toMatchObject({ code: -32000, message: 'eth_getProof is not supported' })
  })

  it('is refused over HTTP and through viem', async () => {
    const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) })
    await expect(client.getProof({ address: ACCOUNT, storageKeys: [SLOT] })).rejects.toThrow(/eth_getProof is not supported/)
  })

  it('refuses malformed arguments with -32602 first', async () => {
    await expect(devnet.rpc('eth_getProof', [ACCOUNT, SLOT, 'latest'] as never)).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('eth_getProof', ['0x12', [], 'latest'])).rejects.toMatchObject({ code: -32602 })
  })

  it('serves the zero stateRoot', async () => {
    const block = await devnet.rpc('eth_getBlockByNumber', ['latest', false])
    expect(block?.stateRoot).toBe(`0x${'0'.repeat(64)}`)
  })
})

describe("eth_getProof with stateRoot 'merkle'", () => {
  let devnet: Devnet
  let rpcUrl: string
  let sender: Hex
  let contract: Hex
  let deployBlock: Hex
  const stateRootOf = async (block: Hex | 'latest') => (await devnet.rpc('eth_getBlockByNumber', [block, false]))!.stateRoot as Hex
  const proofOf = (address: Hex, keys: Hex[], block: Hex | 'latest' = 'latest') => devnet.rpc('eth_getProof', [address, keys, block]) as Promise<Proof>

  beforeAll(async () => {
    devnet = await createDevnet({ chainId: 12345, console: false, stateRoot: 'merkle' })
    rpcUrl = (await devnet.listen()).rpcUrl
    sender = (await devnet.rpc('eth_accounts', []))[0] as Hex
    const hash = await devnet.rpc('eth_sendTransaction', [{ from: sender, data: INIT, gas: '0x30000' }])
    const receipt = await devnet.rpc('eth_getTransactionReceipt', [hash])
    contract = receipt!.contractAddress as Hex
    deployBlock = receipt!.blockNumber as Hex
    await devnet.rpc('eth_sendTransaction', [{ from: sender, to: ACCOUNT, value: '0x1234' }])
  })
  afterAll(async () => {
    await devnet?.close()
  })

  it('serves a non-zero root that changes with the state, the same on every ask', async () => {
    const latest = await stateRootOf('latest')
    expect(latest).not.toBe(`0x${'0'.repeat(64)}`)
    expect(await stateRootOf(deployBlock)).not.toBe(latest)
    expect(await stateRootOf('latest')).toBe(latest)
    const header = await devnet.rpc('eth_getHeaderByNumber', ['latest'])
    expect(header?.stateRoot).toBe(latest)
    const number = header!.number as Hex
    expect((await devnet.rpc('eth_getBlockByHash', [header!.hash, false]))?.stateRoot).toBe(latest)
    expect(((await devnet.rpc('erigon_getHeaderByNumber', [number] as never)) as { stateRoot: Hex }).stateRoot).toBe(latest)
    expect(((await devnet.rpc('ots_getBlockDetails', [number] as never)) as { block: { stateRoot: Hex } }).block.stateRoot).toBe(latest)
    const raw = RLP.decode(hexToBytes((await devnet.rpc('debug_getRawHeader', [number] as never)) as Hex)) as Uint8Array[]
    expect(toHex(raw[3]!)).toBe(latest)
  })

  it('proves a contract, its storage and an unset slot against the served root', async () => {
    const proof = await proofOf(contract, [SLOT, SLOT1, SLOT2])
    expect(proof.storageProof.map((s) => s.value)).toEqual(['0x2a', '0x7', '0x0'])
    expect(proof.codeHash).toBe(keccak256('0x00'))
    expect(proof.nonce).toBe('0x1')
    await verify(proof, await stateRootOf('latest'))
    // eth_getAccount answers the same storage root (without the option it refuses an account with storage).
    expect(await devnet.rpc('eth_getAccount', [contract, 'latest'])).toEqual({ balance: proof.balance, nonce: proof.nonce, codeHash: proof.codeHash, storageRoot: proof.storageHash })
  })

  it('proves balances in wei as eth_getBalance answers them, and an absent account', async () => {
    const proof = await proofOf(sender, [])
    expect(proof.balance).toBe(await devnet.rpc('eth_getBalance', [sender, 'latest']))
    await verify(proof, await stateRootOf('latest'))
    const received = await proofOf(ACCOUNT, [SLOT])
    expect(received.balance).toBe('0x1234')
    await verify(received, await stateRootOf('latest'))
    const absent = await proofOf('0x00000000000000000000000000000000000000bb', [SLOT])
    await verify(absent, await stateRootOf('latest'))
  })

  it('proves the native contracts (tokens, governance) as eth_getBalance and eth_getCode show them', async () => {
    const root = await stateRootOf('latest')
    for (const native of ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002', '0x0000000000000000000000000000000000000007'] as const) {
      const proof = await proofOf(native, [SLOT])
      expect(proof.balance).toBe(await devnet.rpc('eth_getBalance', [native, 'latest']))
      const code = (await devnet.rpc('eth_getCode', [native, 'latest'])) as Hex
      expect(proof.codeHash).toBe(code === '0x' ? EMPTY_CODE : keccak256(code))
      await verify(proof, root)
    }
  })

  it('proves older blocks against their own root', async () => {
    const before = `0x${(BigInt(deployBlock) - 1n).toString(16)}` as Hex
    const proof = await proofOf(contract, [SLOT], before)
    expect(proof.nonce).toBe('0x0')
    await verify(proof, await stateRootOf(before))
    const atDeploy = await proofOf(ACCOUNT, [], deployBlock)
    expect(atDeploy.balance).toBe('0x0')
    await verify(atDeploy, await stateRootOf(deployBlock))
  })

  it('follows a state setter on the latest block and a revert', async () => {
    const snapshot = await devnet.rpc('evm_snapshot', [])
    const root = await stateRootOf('latest')
    await devnet.rpc('anvil_setBalance', [ACCOUNT, '0x99'])
    const changed = await stateRootOf('latest')
    expect(changed).not.toBe(root)
    const proof = await proofOf(ACCOUNT, [])
    expect(proof.balance).toBe('0x99')
    await verify(proof, changed)
    await devnet.rpc('evm_revert', [snapshot])
    expect(await stateRootOf('latest')).toBe(root)
  })

  it('answers viem getProof in process and over HTTP', async () => {
    const root = await stateRootOf('latest')
    for (const transport of [custom(devnet), http(rpcUrl, { retryCount: 0 })]) {
      const client = createPublicClient({ transport })
      const proof = await client.getProof({ address: contract, storageKeys: [SLOT, SLOT1] })
      expect(proof.storageProof.map((s) => s.value)).toEqual([42n, 7n])
      expect(proof.nonce).toBe(1)
      const block = await client.getBlock()
      expect(block.stateRoot).toBe(root)
      await verify({ ...proof, balance: toHex(proof.balance), nonce: toHex(proof.nonce), storageProof: proof.storageProof.map((s) => ({ ...s, value: toHex(s.value) })) }, block.stateRoot)
    }
  })

  it('refuses an unknown block', async () => {
    await expect(proofOf(contract, [], '0xffff')).rejects.toMatchObject({ code: -32000, message: 'header not found' })
  })

  it('is refused with fork', async () => {
    await expect(createDevnet({ stateRoot: 'merkle', fork: { url: 'http://127.0.0.1:1' } })).rejects.toThrow(/stateRoot/)
  })
})
