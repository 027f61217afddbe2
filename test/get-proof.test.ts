/**
 * eth_getProof without a state trie: refused as the real node refuses it (-32000
 * `eth_getProof is not supported`, reference §6.2), in process, over HTTP and through
 * viem's getProof; a malformed argument is still -32602, as go-ethereum decodes
 * arguments before the method runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, http } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'

const ACCOUNT = '0x00000000000000000000000000000000000000aa'
const SLOT = `0x${'0'.repeat(64)}` as const

let devnet: Devnet
let rpcUrl: string

beforeAll(async () => {
  devnet = await createDevnet({ chainId: 12345, console: false })
  rpcUrl = (await devnet.listen()).rpcUrl
})

afterAll(async () => {
  await devnet?.close()
})

describe('eth_getProof (no state trie)', () => {
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
})
