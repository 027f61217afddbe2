/**
 * Bad input over `devnet.rpc`: every case gets the real node's error (reference §6.1,
 * §6.5, §2.4; reverts per the decisions table), leaves the chain unchanged (block
 * number, the sender's balance and nonce, an empty pool), and the next request is
 * served. ethers is used only to ABI-encode and sign raw transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, Wallet, decodeRlp, encodeRlp, getCreateAddress, keccak256, toBeHex } from 'ethers'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { Reverter } from '../fixtures/index.ts'

const CHAIN_ID = 12345
const GWEI = 1_000_000_000n
/** secp256k1 group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
/** A key that owns nothing on the devnet. */
const EMPTY_KEY = '0x1111111111111111111111111111111111111111111111111111111111111111'

const reverter = new Interface(Reverter.abi as never)

interface TxFields {
  to?: string | null
  value?: bigint
  data?: string
  gasLimit?: bigint
  gasPrice?: bigint
  nonce?: number
  chainId?: number
}

/** Hex without 0x of `hex` in reverse byte order: the native REST rendering (reference §1.7). */
const reversed = (hex: string) => Buffer.from(hex.slice(2), 'hex').reverse().toString('hex')

interface Snapshot {
  blockNumber: unknown
  balance: unknown
  nonce: unknown
  pending: unknown
}

describe('bad input leaves the chain unchanged and the devnet serving', () => {
  let devnet: Devnet
  let A: { address: string; privateKey: string }
  let B: { address: string; privateKey: string }
  let reverterAddress: string

  async function sign(key: string, fields: TxFields = {}): Promise<string> {
    const wallet = new Wallet(key)
    const nonce = fields.nonce ?? Number(BigInt(await devnet.rpc('eth_getTransactionCount', [wallet.address.toLowerCase(), 'latest'])))
    return wallet.signTransaction({
      type: 0,
      chainId: fields.chainId ?? CHAIN_ID,
      nonce,
      gasPrice: fields.gasPrice ?? GWEI,
      gasLimit: fields.gasLimit ?? 21_000n,
      to: fields.to === undefined ? B.address : fields.to,
      value: fields.value ?? 1n,
      data: fields.data ?? '0x',
    })
  }

  async function snapshot(address: string): Promise<Snapshot> {
    return {
      blockNumber: await devnet.rpc('eth_blockNumber'),
      balance: await devnet.rpc('eth_getBalance', [address, 'latest']),
      nonce: await devnet.rpc('eth_getTransactionCount', [address, 'pending']),
      pending: await devnet.rpc('eth_pendingTransactions'),
    }
  }

  /**
   * Runs `method(params)`, expects an RpcError with `code` and a message equal to (string)
   * or matching (RegExp) `message`, checks that `sender`'s view of the chain did not
   * change, and that the devnet still answers. Returns the error.
   */
  async function expectRejected(method: string, params: unknown[], code: number, message: string | RegExp, sender: string = A.address): Promise<RpcError> {
    const before = await snapshot(sender)
    let error: unknown
    try {
      await devnet.rpcUntyped(method, params)
    } catch (err) {
      error = err
    }
    expect(error, `${method} should fail`).toBeInstanceOf(RpcError)
    const err = error as RpcError
    expect(err.code).toBe(code)
    if (typeof message === 'string') expect(err.message).toBe(message)
    else expect(err.message).toMatch(message)
    expect(await snapshot(sender)).toEqual(before)
    // The next request is served.
    expect(await devnet.rpc('eth_chainId')).toBe('0x3039')
    return err
  }

  beforeAll(async () => {
    devnet = await createDevnet()
    A = devnet.accounts[0]!
    B = devnet.accounts[1]!
    reverterAddress = getCreateAddress({ from: A.address, nonce: 0 }).toLowerCase()
    await devnet.rpc('eth_sendRawTransaction', [await sign(A.privateKey, { to: null, value: 0n, data: Reverter.bytecode, gasLimit: 1_000_000n })])
    expect(await devnet.rpc('eth_getCode', [reverterAddress, 'latest'])).toBe(Reverter.deployedBytecode)
  })
  afterAll(() => devnet.close())

  describe('JSON-RPC level errors', () => {
    it('unknown method: -32601 "the method X does not exist/is not available"', async () => {
      for (const method of ['eth_foo', 'net_bogus', 'eth_getBlockReceipt', 'ETH_CHAINID', 'toString', '__proto__', '']) {
        await expectRejected(method, [], -32601, `the method ${method} does not exist/is not available`)
      }
    })

    it('missing arguments: -32602 "missing value for required argument N"', async () => {
      await expectRejected('eth_getBalance', [A.address], -32602, 'missing value for required argument 1')
      await expectRejected('eth_getBalance', [], -32602, 'missing value for required argument 0')
      await expectRejected('eth_getStorageAt', [A.address, '0x0'], -32602, 'missing value for required argument 2')
      await expectRejected('eth_call', [{ to: reverterAddress }], -32602, 'missing value for required argument 1')
      await expectRejected('eth_getBlockByNumber', ['latest'], -32602, 'missing value for required argument 1')
      await expectRejected('eth_sendRawTransaction', [], -32602, 'missing value for required argument 0')
    })

    it('too many arguments: -32602 "too many arguments, want at most N"', async () => {
      await expectRejected('eth_blockNumber', ['latest'], -32602, 'too many arguments, want at most 0')
      await expectRejected('eth_getBalance', [A.address, 'latest', 'x'], -32602, 'too many arguments, want at most 2')
      await expectRejected('eth_getTransactionReceipt', [`0x${'00'.repeat(32)}`, 1], -32602, 'too many arguments, want at most 1')
      const raw = await sign(A.privateKey)
      await expectRejected('eth_sendRawTransaction', [raw, raw], -32602, 'too many arguments, want at most 1')
    })

    it('a control given a malformed address: -32602 naming the address, as Hardhat answers', async () => {
      await expectRejected('hardhat_setNonce', ['0x1234', '0x1'], -32602, 'invalid argument 0: not a 20-byte hex address: 0x1234')
      await expectRejected('hardhat_setBalance', ['nope', '0x1'], -32602, /^invalid argument 0: /)
      await expectRejected('hardhat_setCode', [`0x${'zz'.repeat(20)}`, '0x00'], -32602, /^invalid argument 0: not a 20-byte hex address/)
    })

    it('wrong types: -32602 "invalid argument N: …"', async () => {
      await expectRejected('eth_getBalance', [123, 'latest'], -32602, /^invalid argument 0: /)
      await expectRejected('eth_getBalance', [A.address, 5], -32602, /^invalid argument 1: /)
      await expectRejected('eth_getBalance', [A.address, 'newest'], -32602, /^invalid argument 1: /)
      await expectRejected('eth_getBlockByNumber', ['0x1', 'yes'], -32602, /^invalid argument 1: /)
      await expectRejected('eth_getBlockByHash', [`0x${'00'.repeat(32)}`, 1], -32602, /^invalid argument 1: /)
      await expectRejected('eth_call', ['0x', 'latest'], -32602, /^invalid argument 0: /)
      await expectRejected('eth_getLogs', ['latest'], -32602, /^invalid argument 0: /)
      await expectRejected('eth_sendRawTransaction', [{ raw: '0x00' }], -32602, /^invalid argument 0: /)
      // Fixed lengths: 20-byte addresses, 32-byte hashes.
      await expectRejected('eth_getBalance', [A.address.slice(0, -2), 'latest'], -32602, 'invalid argument 0: hex string has length 38, want 40 for common.Address')
      await expectRejected('eth_getTransactionByHash', [`0x${'00'.repeat(20)}`], -32602, 'invalid argument 0: hex string has length 40, want 64 for common.Hash')
      // QUANTITY without leading zeros.
      await expectRejected('eth_getStorageAt', [reverterAddress, 0, 'latest'], -32602, /^invalid argument 1: /)
      await expectRejected('eth_getStorageAt', [reverterAddress, `0x1${'00'.repeat(32)}`, 'latest'], -32602, 'invalid argument 1: hex string longer than 32 bytes')
      await expectRejected('eth_getBlockByNumber', ['0x01', false], -32602, 'invalid argument 0: hex number with leading zero digits')
      await expectRejected('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x'], -32602, /^invalid argument 1: /)
      // eth_getCode refuses the tag `pending` (spec, Errors 7).
      await expectRejected('eth_getCode', [reverterAddress, 'pending'], -32602, /^invalid argument 1: /)
    })

    it('malformed hex: -32602 "invalid argument N: …"', async () => {
      await expectRejected('eth_sendRawTransaction', ['0xzz'], -32602, 'invalid argument 0: invalid hex string')
      await expectRejected('eth_sendRawTransaction', ['0x123'], -32602, 'invalid argument 0: hex string of odd length')
      await expectRejected('eth_sendRawTransaction', ['f86c'], -32602, 'invalid argument 0: hex string without 0x prefix')
      await expectRejected('eth_getBalance', [`0x${'zz'.repeat(20)}`, 'latest'], -32602, 'invalid argument 0: invalid hex string')
      await expectRejected('eth_getBalance', [A.address, '0xg'], -32602, 'invalid argument 1: invalid hex string')
      await expectRejected('eth_getBalance', [A.address, '0x'], -32602, 'invalid argument 1: hex string "0x"')
      await expectRejected('eth_getTransactionReceipt', [`0x${'0g'.repeat(32)}`], -32602, 'invalid argument 0: invalid hex string')
      await expectRejected('eth_call', [{ to: reverterAddress, data: '0x123' }, 'latest'], -32602, 'invalid argument 0: hex string of odd length')
      await expectRejected('web3_sha3', ['hello'], -32602, 'invalid argument 0: hex string without 0x prefix')
      await expectRejected('eth_getStorageAt', [reverterAddress, '0xzz', 'latest'], -32602, 'invalid argument 1: invalid hex string')
    })

    it('well-formed hex that is no transaction: -32000 rlp error', async () => {
      await expectRejected('eth_sendRawTransaction', ['0x'], -32000, /^rlp: /)
      await expectRejected('eth_sendRawTransaction', ['0xc0'], -32000, /^rlp: /)
      await expectRejected('eth_sendRawTransaction', ['0xf86c0102'], -32000, /^rlp: /)
    })
  })

  describe('eth_sendRawTransaction refusals (reference §2.4, §6.5)', () => {
    /** RLP fields of a signed legacy transaction with `index` replaced by `value`. */
    async function tamper(index: 7 | 8, value: (old: bigint) => bigint): Promise<string> {
      const fields = decodeRlp(await sign(A.privateKey)) as string[]
      const v = value(BigInt(fields[index]!))
      fields[index] = v === 0n ? '0x' : toBeHex(v) // canonical RLP: zero is the empty string
      return encodeRlp(fields)
    }

    it('bad signature (tampered s or r): -32000 "error EIP155 get sender…"', async () => {
      // s above n/2 (the malleable twin), s = 0, r = 0, r ≥ n: no sender can be recovered.
      for (const raw of [await tamper(8, (s) => N - s), await tamper(8, () => 0n), await tamper(7, () => 0n), await tamper(7, () => N + 1n)]) {
        await expectRejected('eth_sendRawTransaction', [raw], -32000, /^error EIP155 get sender/)
      }
    })

    it('a tampered r that is still a curve point recovers another (empty) sender, refused for its balance', async () => {
      // About half of all r values are valid x coordinates; the others fail recovery.
      let recovered = 0
      for (let bit = 1n; bit <= 8n; bit++) {
        const raw = await tamper(7, (r) => r ^ bit)
        const other =
          `SendRawTransaction verified ${reversed(keccak256(raw))} error: not enough ong balance for ` +
          `(?!${reversed(A.address)})[0-9a-f]{40} - has:0 - want:${21_000n * GWEI + 1n} \\(insufficient funds for gas \\* price \\+ value\\)`
        const err = await expectRejected('eth_sendRawTransaction', [raw], -32000, new RegExp(`^(error EIP155 get sender|${other}$)`))
        if (err.message.startsWith('SendRawTransaction')) recovered++
      }
      expect(recovered).toBeGreaterThan(0)
    })

    it('wrong chain id: -32000 "invalid chain id, want: 12345, got: 1"', async () => {
      const raw = await sign(A.privateKey, { chainId: 1 })
      await expectRejected('eth_sendRawTransaction', [raw], -32000, 'invalid chain id, want: 12345, got: 1')
    })

    it('unprotected (pre-EIP-155) transaction: chain id 0', async () => {
      const raw = await sign(A.privateKey, { chainId: 0 })
      expect([27n, 28n]).toContain(BigInt((decodeRlp(raw) as string[])[6]!)) // v without a chain id
      await expectRejected('eth_sendRawTransaction', [raw], -32000, 'invalid chain id, want: 12345, got: 0')
    })

    it('typed transactions (EIP-2930, EIP-1559): -32000 naming legacy and typed', async () => {
      const wallet = new Wallet(A.privateKey)
      const common = { chainId: CHAIN_ID, nonce: 1, gasLimit: 21_000n, to: B.address, value: 1n }
      const type2 = await wallet.signTransaction({ ...common, type: 2, maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI })
      const type1 = await wallet.signTransaction({ ...common, type: 1, gasPrice: GWEI })
      for (const raw of [type2, type1]) {
        const err = await expectRejected('eth_sendRawTransaction', [raw], -32000, /typed transaction/)
        expect(err.message).toMatch(/legacy/)
      }
    })

    it('gas price not a whole gwei: -32000 "gasprice 1500000000 is not multiple of GWei"', async () => {
      const raw = await sign(A.privateKey, { gasPrice: 1_500_000_000n })
      await expectRejected('eth_sendRawTransaction', [raw], -32000, 'gasprice 1500000000 is not multiple of GWei')
      const wei = await sign(A.privateKey, { gasPrice: 1n })
      await expectRejected('eth_sendRawTransaction', [wei], -32000, 'gasprice 1 is not multiple of GWei')
    })

    it('nonce too low: "SendRawTransaction verified <reversed hash> error: handleTransaction lower nonce:0 ,current nonce:1"', async () => {
      const raw = await sign(A.privateKey, { nonce: 0, value: 2n })
      await expectRejected('eth_sendRawTransaction', [raw], -32000, `SendRawTransaction verified ${reversed(keccak256(raw))} error: handleTransaction lower nonce:0 ,current nonce:1 (nonce too low)`)
    })

    it('insufficient funds: "… not enough ong balance for <reversed address> - has:… - want:…"', async () => {
      const empty = new Wallet(EMPTY_KEY).address.toLowerCase()
      const raw = await sign(EMPTY_KEY, { nonce: 0, gasPrice: GWEI, gasLimit: 21_000n, value: 0n })
      await expectRejected(
        'eth_sendRawTransaction',
        [raw],
        -32000,
        `SendRawTransaction verified ${reversed(keccak256(raw))} error: not enough ong balance for ${reversed(empty)} - has:0 - want:${21_000n * GWEI} (insufficient funds for gas * price + value)`,
        empty,
      )
      // A funded account sending more than it has: want = gasPrice × gas + value (reference §6.5).
      const balance = BigInt(await devnet.rpc('eth_getBalance', [B.address, 'latest']))
      const tooMuch = await sign(B.privateKey, { to: A.address, value: balance, gasPrice: GWEI, gasLimit: 21_000n })
      await expectRejected(
        'eth_sendRawTransaction',
        [tooMuch],
        -32000,
        `SendRawTransaction verified ${reversed(keccak256(tooMuch))} error: not enough ong balance for ${reversed(B.address)} - has:${balance} - want:${balance + 21_000n * GWEI} (insufficient funds for gas * price + value)`,
        B.address,
      )
    })

    it('gas above the 6,000,000 cap: "… EIP155 tx gaslimit exceed "', async () => {
      const raw = await sign(A.privateKey, { gasLimit: 6_000_001n })
      await expectRejected('eth_sendRawTransaction', [raw], -32000, `SendRawTransaction verified ${reversed(keccak256(raw))} error: EIP155 tx gaslimit exceed  (exceeds block gas limit)`)
    })

    it('gas below 20000: "… Please input gasLimit >= 20000 and gasPrice >= 0"', async () => {
      const raw = await sign(A.privateKey, { gasLimit: 19_999n })
      await expectRejected(
        'eth_sendRawTransaction',
        [raw],
        -32000,
        `SendRawTransaction verified ${reversed(keccak256(raw))} error: Please input gasLimit >= 20000 and gasPrice >= 0 (intrinsic gas too low)`,
      )
    })

    it('after all refusals a valid transaction from the same sender is mined with the expected nonce', async () => {
      const before = await devnet.rpc('eth_blockNumber')
      expect(await devnet.rpc('eth_getTransactionCount', [A.address, 'latest'])).toBe('0x1')
      const raw = await sign(A.privateKey, { nonce: 1 })
      const hash = await devnet.rpc('eth_sendRawTransaction', [raw])
      expect(hash).toBe(keccak256(raw))
      expect(await devnet.rpc('eth_blockNumber')).toBe(`0x${(BigInt(before as string) + 1n).toString(16)}`)
      expect(await devnet.rpc('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
      expect(await devnet.rpc('eth_getTransactionCount', [A.address, 'latest'])).toBe('0x2')
    })
  })

  describe('reverts (decisions table: code 3 with the revert data)', () => {
    it('eth_call with Error(string): code 3, "execution reverted: Reverter: always fails", data 0x08c379a0…', async () => {
      const data = reverter.encodeFunctionData('revertWithReason')
      const err = await expectRejected('eth_call', [{ from: A.address, to: reverterAddress, data }, 'latest'], 3, 'execution reverted: Reverter: always fails')
      expect(err.data).toMatch(/^0x08c379a0/)
      expect(err.data).toBe(reverter.encodeErrorResult('Error', ['Reverter: always fails']))
      expect(err.toJSON()).toEqual({ code: 3, message: 'execution reverted: Reverter: always fails', data: err.data })
    })

    it('eth_call with a custom error: code 3, "execution reverted", data = the encoded error', async () => {
      const data = reverter.encodeFunctionData('revertWithCustomError', [7])
      const err = await expectRejected('eth_call', [{ from: A.address, to: reverterAddress, data }, 'latest'], 3, 'execution reverted')
      expect(err.data).toBe(reverter.encodeErrorResult('Unauthorized', [A.address, 7]))
    })

    it('eth_call with a bare revert: code 3, "execution reverted", data 0x', async () => {
      const data = reverter.encodeFunctionData('revertBare')
      const err = await expectRejected('eth_call', [{ to: reverterAddress, data }, 'latest'], 3, 'execution reverted')
      expect(err.data).toBe('0x')
    })

    it('eth_estimateGas of a reverting call: the same code 3 error', async () => {
      const data = reverter.encodeFunctionData('revertWithReason')
      const err = await expectRejected('eth_estimateGas', [{ from: A.address, to: reverterAddress, data }], 3, 'execution reverted: Reverter: always fails')
      expect(err.data).toBe(reverter.encodeErrorResult('Error', ['Reverter: always fails']))
    })

    it('a write that reverts in eth_call leaves storage as it was', async () => {
      const data = reverter.encodeFunctionData('setAndRevert', [99])
      await expectRejected('eth_call', [{ from: A.address, to: reverterAddress, data }, 'latest'], 3, 'execution reverted: Reverter: rolled back')
      expect(await devnet.rpc('eth_getStorageAt', [reverterAddress, '0x0', 'latest'])).toBe('0x')
    })
  })
})
