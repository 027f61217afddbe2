/**
 * decodeLegacyTransaction's sender recovery (src/evm/legacyTransaction.ts), whose EIP-155
 * signing payload is cut from the received RLP rather than encoded again: the payload's
 * list prefix is one byte up to 55 bytes of fields and longer beyond, and a field's own
 * prefix is one byte, a short length or a long length; each must give back the signer.
 */
import { describe, expect, it } from 'vitest'
import { decodeLegacyTransaction, signLegacyTransaction } from '../src/evm/legacyTransaction.ts'

const KEY = Uint8Array.from(Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex'))
const SENDER = 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266'

describe('decodeLegacyTransaction', () => {
  it.each([
    ['a payload under 56 bytes: no recipient, no data, zero price (short list prefix)', 1n, undefined, 0, 0n],
    ['a recipient and a single-byte nonce below 0x80', 31337n, 0x11, 0, 5n],
    ['60 bytes of data (a long list prefix, a short string prefix)', 5n, undefined, 60, 0x7fn],
    ['70,000 bytes of data (a 3-byte string length) and a 5-byte chain id', 2n ** 40n, 0x22, 70_000, 1000n],
  ])('recovers the signer of %s', (_case, chainId, to, dataLength, nonce) => {
    const fields = { nonce, gasPrice: 0n, gasLimit: 21_000n, to: to === undefined ? undefined : new Uint8Array(20).fill(to), value: 0n, data: new Uint8Array(dataLength).fill(7) }
    const signed = signLegacyTransaction(fields, chainId, KEY)
    const decoded = decodeLegacyTransaction(signed.rlp, chainId)
    expect(Buffer.from(decoded.from).toString('hex')).toBe(SENDER)
    expect(Buffer.from(decoded.hash).toString('hex')).toBe(Buffer.from(signed.hash).toString('hex'))
    expect([decoded.nonce, decoded.data.length, decoded.to?.length]).toEqual([nonce, dataLength, to === undefined ? undefined : 20])
  })
})
