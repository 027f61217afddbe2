/**
 * debug_executionWitness (reth's, as Anvil serves it): under option stateRoot 'merkle',
 * the parent state's trie nodes are enough to read every account and slot of that
 * state against the parent block's stateRoot as served, with @ethereumjs/mpt's own trie
 * over a database holding only the witness's nodes (not dualnet's code); the codes hash
 * to the accounts' code hashes; the headers are the ancestors' debug_getRawHeader,
 * newest first. Refused without the option, for genesis, and past the head.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMPT } from '@ethereumjs/mpt'
import { createAccountFromRLP, MapDB } from '@ethereumjs/util'
import { RLP } from '@ethereumjs/rlp'
import { ContractFactory, Interface, keccak256, Wallet, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`

let devnet: Devnet
let token: string
let transferBlock: number

beforeAll(async () => {
  devnet = await createDevnet({ chainId: CHAIN_ID, stateRoot: 'merkle', console: false })
  const wallet = new Wallet(devnet.accounts[0]!.privateKey)
  const abi = new Interface(Token.abi as InterfaceAbi)
  const send = async (nonce: number, fields: { to?: string; data: string }) =>
    (await devnet.rpc('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce, gasPrice: GWEI, gasLimit: 3_000_000n, ...fields })])) as string
  const deploy = await send(0, { data: (await new ContractFactory(abi, Token.bytecode).getDeployTransaction('T', 'T', 1_000_000n)).data })
  token = (await devnet.rpc('eth_getTransactionReceipt', [deploy]))!.contractAddress!
  const transfer = await send(1, { to: token, data: abi.encodeFunctionData('transfer', [`0x${'ab'.repeat(20)}`, 5n]) })
  transferBlock = Number((await devnet.rpc('eth_getTransactionReceipt', [transfer]))!.blockNumber)
})

afterAll(async () => {
  await devnet?.close()
})

describe('debug_executionWitness', () => {
  it("holds the parent state: every account and slot reads back from the witness's nodes alone, against the parent's stateRoot", async () => {
    const witness = await devnet.rpc('debug_executionWitness', [`0x${transferBlock.toString(16)}`])
    const parent = `0x${(transferBlock - 1).toString(16)}`
    const { stateRoot } = (await devnet.rpc('eth_getBlockByNumber', [parent, false]))!
    const db = new MapDB<string, Uint8Array>()
    for (const node of witness.state) await db.put(keccak256(node).slice(2), bytes(node))
    const trie = await createMPT({ db, useKeyHashing: true, root: bytes(stateRoot) })
    const addresses = witness.keys.filter((k) => k.length === 42)
    expect(addresses).toContain(token.toLowerCase())
    expect(addresses).toContain(devnet.accounts[0]!.addressLower)
    for (const address of addresses) {
      const account = createAccountFromRLP((await trie.get(bytes(address)))!)
      expect(account.balance, address).toBe(BigInt(await devnet.rpc('eth_getBalance', [address, parent])))
      expect(account.nonce, address).toBe(BigInt(await devnet.rpc('eth_getTransactionCount', [address, parent])))
    }
    const tokenAccount = createAccountFromRLP((await trie.get(bytes(token)))!)
    expect(witness.codes.map((code) => keccak256(code))).toContain(hex(tokenAccount.codeHash))
    const storage = await createMPT({ db, useKeyHashing: true, root: tokenAccount.storageRoot })
    const slots = witness.keys.filter((k) => k.length === 66)
    expect(slots.length).toBeGreaterThan(0)
    let found = 0
    for (const slot of slots) {
      const value = await storage.get(bytes(slot))
      if (value === null) continue
      found++
      const served = BigInt((await devnet.rpc('eth_getStorageAt', [token, slot, parent])) || '0x0')
      expect(BigInt(hex(RLP.decode(value) as Uint8Array)), slot).toBe(served)
    }
    expect(found).toBeGreaterThan(0)
  })

  it("carries the ancestors' headers, newest first, as debug_getRawHeader encodes them", async () => {
    const witness = await devnet.rpc('debug_executionWitness', [`0x${transferBlock.toString(16)}`])
    expect(witness.headers).toHaveLength(transferBlock)
    expect(witness.headers[0]).toBe(await devnet.rpc('debug_getRawHeader', [`0x${(transferBlock - 1).toString(16)}`]))
    expect(witness.headers.at(-1)).toBe(await devnet.rpc('debug_getRawHeader', ['0x0']))
  })

  it('refuses genesis, a block past the head, and a devnet without the state trie', async () => {
    await expect(devnet.rpc('debug_executionWitness', ['0x0'])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('genesis block has no parent state') })
    await expect(devnet.rpc('debug_executionWitness', ['0xffff'])).rejects.toMatchObject({ code: -32000 })
    const plain = await createDevnet({ console: false })
    try {
      await plain.mine()
      await expect(plain.rpc('debug_executionWitness', ['latest'])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining("stateRoot 'merkle'") })
    } finally {
      await plain.close()
    }
  })
})
