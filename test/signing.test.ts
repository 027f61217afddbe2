/**
 * Signing with the dev accounts (eth_sign, personal_sign, eth_signTypedData_v4,
 * eth_signTransaction), checked against ethers v6 and viem: their JSON-RPC signers'
 * signatures verify with their own verifiers and equal the signatures of a local
 * wallet holding the same key (RFC 6979 is deterministic), and an EIP-2612 permit
 * signed through eth_signTypedData_v4 is accepted on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Contract,
  ContractFactory,
  Signature,
  Transaction,
  TypedDataEncoder,
  Wallet,
  getAddress,
  verifyMessage as ethersVerifyMessage,
  verifyTypedData as ethersVerifyTypedData,
  type InterfaceAbi,
  type JsonRpcSigner,
} from 'ethers'
import { createWalletClient, http, verifyMessage, verifyTypedData, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { dualnetProvider } from '../src/ethers.ts'
import { devnetTransport, dualnetChain } from '../src/viem.ts'
import { PermitToken } from '../fixtures/index.ts'
import { CHAIN_ID, GWEI } from './support.ts'

const MAIL_TYPES = {
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person[]' },
    { name: 'contents', type: 'string' },
    { name: 'amount', type: 'uint256' },
    { name: 'attachment', type: 'bytes' },
  ],
}

const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
}

describe('signing with dev accounts', () => {
  let devnet: Devnet
  let rpcUrl: string
  let owner: string
  let spender: string
  let ownerWallet: Wallet
  const mail = () => ({
    from: { name: 'Cow', wallet: getAddress(devnet.accounts[0]!.address) },
    to: [{ name: 'Bob', wallet: getAddress(devnet.accounts[1]!.address) }],
    contents: 'Hello, Bob!',
    amount: 10n ** 21n,
    attachment: '0x00ff',
  })
  const mailDomain = { name: 'Ether Mail', version: '1', chainId: CHAIN_ID, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' }

  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 3 })
    ;({ rpcUrl } = await devnet.listen())
    owner = getAddress(devnet.accounts[0]!.address)
    spender = getAddress(devnet.accounts[1]!.address)
    ownerWallet = new Wallet(devnet.accounts[0]!.privateKey)
  })
  afterAll(async () => {
    await devnet.close()
  })

  async function rejected(method: string, params: unknown[]): Promise<RpcError> {
    const err = await devnet.rpcUntyped(method, params).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err, `${method} should fail`).toBeInstanceOf(RpcError)
    return err as RpcError
  }

  describe('ethers v6 JsonRpcSigner', () => {
    const signers: [string, () => Promise<JsonRpcSigner>][] = [
      ['in-process BrowserProvider', () => dualnetProvider(devnet).getSigner(0)],
      ['JsonRpcProvider over HTTP', () => dualnetProvider(rpcUrl).getSigner(0)],
    ]

    it.each(signers)("%s: signMessage verifies and equals a local Wallet's signature (personal_sign)", async (_, signer) => {
      const s = await signer()
      for (const message of ['hello dualnet', new Uint8Array([0, 1, 2, 255])]) {
        const signature = await s.signMessage(message)
        expect(ethersVerifyMessage(message, signature)).toBe(owner)
        expect(signature).toBe(await ownerWallet.signMessage(message))
      }
    })

    it.each(signers)("%s: signTypedData verifies and equals a local Wallet's signature (eth_signTypedData_v4)", async (_, signer) => {
      const s = await signer()
      const signature = await s.signTypedData(mailDomain, MAIL_TYPES, mail())
      expect(ethersVerifyTypedData(mailDomain, MAIL_TYPES, mail(), signature)).toBe(owner)
      expect(signature).toBe(await ownerWallet.signTypedData(mailDomain, MAIL_TYPES, mail()))
    })

    it("signTransaction gives a legacy EIP-155 transaction equal to a local Wallet's, which the chain then mines", async () => {
      const s = await dualnetProvider(devnet).getSigner(0)
      const nonce = await s.getNonce('pending')
      const request = { to: spender, value: 12_345n, gasPrice: 2n * GWEI, gasLimit: 21_000n, nonce, chainId: CHAIN_ID, type: 0 }
      const raw = await s.signTransaction(request)
      expect(raw).toBe(await ownerWallet.signTransaction(request))
      const tx = Transaction.from(raw)
      expect(tx).toMatchObject({ type: 0, chainId: BigInt(CHAIN_ID), from: owner, to: spender, value: 12_345n, gasPrice: 2n * GWEI, nonce })
      expect(await devnet.rpc('eth_sendRawTransaction', [raw])).toBe(tx.hash)
      expect(await devnet.rpcUntyped('eth_getTransactionReceipt', [tx.hash])).toMatchObject({ status: '0x1', from: owner.toLowerCase() })
    })
  })

  describe('viem wallet client with a JSON-RPC account', () => {
    const clients: [string, () => ReturnType<typeof createWalletClient>][] = [
      ['custom(devnet)', () => createWalletClient({ chain: dualnetChain(rpcUrl), transport: devnetTransport(devnet) })],
      ['http(rpcUrl)', () => createWalletClient({ chain: dualnetChain(rpcUrl), transport: http(rpcUrl) })],
    ]

    it.each(clients)("%s: signMessage and signTypedData verify and equal a local account's signatures", async (_, client) => {
      const wallet = client()
      const local = privateKeyToAccount(devnet.accounts[0]!.privateKey)
      const account = owner as Address
      for (const message of ['hello dualnet', { raw: '0xdeadbeef' as const }]) {
        const signature = await wallet.signMessage({ account, message })
        expect(await verifyMessage({ address: account, message, signature })).toBe(true)
        expect(signature).toBe(await local.signMessage({ message }))
      }
      const typed = {
        domain: { ...mailDomain, verifyingContract: mailDomain.verifyingContract as Address },
        types: MAIL_TYPES,
        primaryType: 'Mail' as const,
        message: { ...mail(), from: { ...mail().from, wallet: owner as Address }, to: mail().to.map((p) => ({ ...p, wallet: p.wallet as Address })), attachment: '0x00ff' as const },
      }
      const signature = await wallet.signTypedData({ account, ...typed })
      expect(await verifyTypedData({ address: account, signature, ...typed })).toBe(true)
      expect(signature).toBe(await local.signTypedData(typed))
    })

    it("signTransaction (eth_signTransaction) gives the local account's legacy transaction", async () => {
      const wallet = createWalletClient({ chain: dualnetChain(rpcUrl), transport: devnetTransport(devnet) })
      const local = privateKeyToAccount(devnet.accounts[0]!.privateKey)
      const request = { to: spender as Address, value: 1n, gas: 21_000n, gasPrice: GWEI, nonce: 100, type: 'legacy' as const }
      const raw = await wallet.signTransaction({ account: owner as Address, ...request })
      expect(raw).toBe(await local.signTransaction({ ...request, chainId: CHAIN_ID }))
    })
  })

  describe('raw methods', () => {
    it('eth_sign(address, data) equals personal_sign(data, address): EIP-191, 65 bytes, v 27/28', async () => {
      const data = '0x48656c6c6f'
      const a = await devnet.rpc('eth_sign', [owner, data])
      expect(await devnet.rpc('personal_sign', [data, owner])).toBe(a)
      expect(a).toMatch(/^0x[0-9a-f]{130}$/)
      expect([27, 28]).toContain(Number.parseInt(a.slice(130), 16))
      expect(a).toBe(await ownerWallet.signMessage(new Uint8Array([0x48, 0x65, 0x6c, 0x6c, 0x6f])))
    })

    it("eth_signTypedData_v4 takes the object or its JSON; its digest is ethers' TypedDataEncoder hash", async () => {
      const payload = TypedDataEncoder.getPayload(mailDomain, MAIL_TYPES, mail())
      const fromJson = await devnet.rpc('eth_signTypedData_v4', [owner, JSON.stringify(payload)])
      expect(await devnet.rpc('eth_signTypedData_v4', [owner, payload])).toBe(fromJson)
      expect(Signature.from(fromJson).v).toBeGreaterThanOrEqual(27)
      const digest = TypedDataEncoder.hash(mailDomain, MAIL_TYPES, mail())
      expect(ownerWallet.signingKey.sign(digest).serialized).toBe(fromJson)
    })

    it("a domain without chainId is signed; a domain naming another chain is signed too, in any notation, and verifies with ethers' verifyTypedData", async () => {
      const { chainId: _, ...noChain } = mailDomain
      const payload = TypedDataEncoder.getPayload(noChain, MAIL_TYPES, mail())
      expect(await devnet.rpc('eth_signTypedData_v4', [owner, payload])).toBe(await ownerWallet.signTypedData(noChain, MAIL_TYPES, mail()))
      const otherChain = { ...mailDomain, chainId: 1 }
      const expected = await ownerWallet.signTypedData(otherChain, MAIL_TYPES, mail())
      for (const chainId of [1, '0x1', '1']) {
        const other = { ...TypedDataEncoder.getPayload(otherChain, MAIL_TYPES, mail()), domain: { ...mailDomain, chainId } }
        const signature = await devnet.rpc('eth_signTypedData_v4', [owner, other])
        expect(signature).toBe(expected)
        expect(ethersVerifyTypedData(otherChain, MAIL_TYPES, mail(), signature)).toBe(ownerWallet.address)
      }
    })

    it('an unknown address and an impersonated one are refused with -32000 naming them', async () => {
      const stranger = Wallet.createRandom().address
      const data = '0x01'
      const payload = TypedDataEncoder.getPayload(mailDomain, MAIL_TYPES, mail())
      const calls: [string, unknown[]][] = [
        ['eth_sign', [stranger, data]],
        ['personal_sign', [data, stranger]],
        ['eth_signTypedData_v4', [stranger, payload]],
        ['eth_signTransaction', [{ from: stranger, to: owner, gas: '0x5208', gasPrice: '0x0' }]],
      ]
      for (const [method, params] of calls) {
        const err = await rejected(method, params)
        expect(err.code).toBe(-32000)
        expect(err.message).toBe(`unknown account ${stranger.toLowerCase()}`)
      }
      await devnet.rpc('hardhat_impersonateAccount', [stranger])
      const err = await rejected('personal_sign', [data, stranger])
      expect(err.code).toBe(-32000)
      expect(err.message).toContain(`account ${stranger.toLowerCase()} is impersonated, not a dev account`)
      await devnet.rpc('hardhat_stopImpersonatingAccount', [stranger])
    })

    it('malformed arguments: -32602', async () => {
      expect((await rejected('personal_sign', ['hello', owner])).code).toBe(-32602)
      expect((await rejected('eth_sign', [owner])).code).toBe(-32602)
      expect((await rejected('eth_signTypedData_v4', [owner, '{not json'])).code).toBe(-32602)
      expect((await rejected('eth_signTypedData_v4', [owner, { types: {}, domain: {} }])).code).toBe(-32602)
      const badValue = { ...TypedDataEncoder.getPayload(mailDomain, MAIL_TYPES, mail()), message: { ...mail(), amount: 'lots' } }
      expect((await rejected('eth_signTypedData_v4', [owner, badValue])).code).toBe(-32602)
    })

    it("eth_signTransaction applies the chain's rules: whole gwei, gas cap, legacy only, its chain id; fills missing fields", async () => {
      const base = { from: owner, to: spender, value: '0x1' }
      const message = async (tx: object) => (await rejected('eth_signTransaction', [{ ...base, ...tx }])).message
      expect(await message({ gasPrice: '0x3b9aca01', gas: '0x5208' })).toBe('gasprice 1000000001 is not multiple of GWei')
      expect(await message({ gasPrice: '0x0', gas: '0x5b8d81' })).toBe('EIP155 tx gaslimit exceed  (exceeds block gas limit)')
      expect(await message({ gasPrice: '0x0', gas: '0x4e1f' })).toBe('Please input gasLimit >= 20000 (intrinsic gas too low)')
      expect(await message({ type: '0x2', gas: '0x5208' })).toMatch(/^transaction type 0x2 not supported; .*cast --legacy.*type: 0.*type: 'legacy'/)
      expect(await message({ maxFeePerGas: '0x1', gas: '0x5208' })).toMatch(/cast --legacy/)
      expect(await message({ chainId: '0x1', gas: '0x5208' })).toBe(`invalid chain id, want: ${CHAIN_ID}, got: 1`)
      const pending = BigInt(await devnet.rpc('eth_getTransactionCount', [owner, 'pending']))
      const raw = await devnet.rpc('eth_signTransaction', [base])
      const tx = Transaction.from(raw)
      // Filled: nonce from the pending count, gasPrice from eth_gasPrice, gas from eth_estimateGas.
      expect(tx).toMatchObject({ type: 0, from: owner, nonce: Number(pending), gasLimit: 21_000n, chainId: BigInt(CHAIN_ID) })
      expect(tx.gasPrice).toBe(BigInt(await devnet.rpc('eth_gasPrice')))
      expect(BigInt(await devnet.rpc('eth_getTransactionCount', [owner, 'pending']))).toBe(pending) // not sent
    })
  })

  describe('EIP-2612 permit (PermitToken fixture)', () => {
    let token: Contract
    let tokenAddress: string
    let signer: JsonRpcSigner

    beforeAll(async () => {
      signer = await dualnetProvider(devnet).getSigner(0)
      const factory = new ContractFactory(PermitToken.abi as InterfaceAbi, PermitToken.bytecode, signer)
      token = (await (await factory.deploy('Permit Token', 10n ** 24n)).waitForDeployment()) as Contract
      tokenAddress = await token.getAddress()
    })

    async function signPermit(value: bigint, deadline: bigint) {
      const domain = { name: 'Permit Token', version: '1', chainId: CHAIN_ID, verifyingContract: tokenAddress }
      const nonce = (await token.nonces!(owner)) as bigint
      const permit = { owner, spender, value, nonce, deadline }
      expect(TypedDataEncoder.hashDomain(domain)).toBe(await token.DOMAIN_SEPARATOR!())
      return Signature.from(await signer.signTypedData(domain, PERMIT_TYPES, permit))
    }

    it('permit() accepts the eth_signTypedData_v4 signature; the spender then moves the tokens', async () => {
      const deadline = 2n ** 40n
      const sig = await signPermit(10n ** 18n, deadline)
      await (await token.permit!(owner, spender, 10n ** 18n, deadline, sig.v, sig.r, sig.s)).wait()
      expect(await token.allowance!(owner, spender)).toBe(10n ** 18n)
      expect(await token.nonces!(owner)).toBe(1n)
      const asSpender = token.connect(await dualnetProvider(devnet).getSigner(1)) as Contract
      await (await asSpender.transferFrom!(owner, spender, 4n * 10n ** 17n)).wait()
      expect(await token.balanceOf!(spender)).toBe(4n * 10n ** 17n)
    })

    it('permit() rejects a tampered signature and a signature over other values (InvalidSigner)', async () => {
      const deadline = 2n ** 40n
      const sig = await signPermit(5n, deadline)
      const tamperedS = `0x${(BigInt(sig.s) ^ 1n).toString(16).padStart(64, '0')}`
      for (const [value, s] of [
        [5n, tamperedS],
        [6n, sig.s],
      ] as const) {
        const err = await token.permit!.staticCall(owner, spender, value, deadline, sig.v, sig.r, s).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect((err as { revert?: { name: string } }).revert?.name).toBe('InvalidSigner')
      }
      await (await token.permit!(owner, spender, 5n, deadline, sig.v, sig.r, sig.s)).wait()
      expect(await token.allowance!(owner, spender)).toBe(5n)
    })
  })
})
