/**
 * The explorer's contract artifacts (listen's `explorer: { artifacts }`, src/explorer/
 * artifacts.ts, api/contract.ts): a contract named by its code in Hardhat's per-contract
 * artifacts, Foundry's `out/`, and a build-info whose immutable differs per deployment;
 * the selector index across all artifacts; artifacts read when asked, so a project
 * compiled after the devnet started is found and a rebuild is read again; and the
 * refusals: a path that does not exist is an option error, a malformed address or
 * selector a 400.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface } from 'ethers'
import { Reverter, SelfDestruct, Token } from '../fixtures/index.ts'
import { ExplorerArtifacts } from '../src/explorer/artifacts.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { fromHex } from '../src/util/hex.ts'
import { BUILD_INFO, compiled, SOURCE_NAME, tempDir } from './coverage-support.ts'

const TOKEN_AT = '0x00000000000000000000000000000000000000a1'
const REVERTER_AT = '0x00000000000000000000000000000000000000a2'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

describe('the explorer API with artifacts', { timeout: 120_000 }, () => {
  let devnet: Devnet
  let api: (path: string) => Promise<{ status: number; body: any }>
  beforeAll(async () => {
    devnet = await createDevnet()
    const { explorerUrl } = await devnet.listen({ rest: false, explorer: { artifacts: 'fixtures/artifacts' } })
    api = async (p) => {
      const response = await fetch(`${explorerUrl}/api/${p}`)
      return { status: response.status, body: await response.json() }
    }
    await devnet.setCode(TOKEN_AT, Token.deployedBytecode)
    await devnet.setCode(REVERTER_AT, Reverter.deployedBytecode)
  })
  afterAll(() => devnet.close())

  it("names a contract by its code, with its functions', events' and errors' selectors", async () => {
    const token = await api(`contract/${TOKEN_AT}`)
    expect(token.status).toBe(200)
    expect(token.body.name).toBe('contracts/Token.sol:Token')
    const bySignature = new Map(token.body.abi.map((item: any) => [item.signature, item]))
    expect(bySignature.get('transfer(address,uint256)')).toMatchObject({ type: 'function', name: 'transfer', selector: '0xa9059cbb' })
    expect(bySignature.get('Transfer(address,address,uint256)')).toMatchObject({ type: 'event', selector: TRANSFER_TOPIC })
    expect(bySignature.get('InsufficientBalance(address,uint256,uint256)')).toMatchObject({
      type: 'error',
      selector: expect.stringMatching(/^0x[0-9a-f]{8}$/),
      inputs: [{ name: 'account', type: 'address' }, { name: 'balance' }, { name: 'needed' }],
    })
    expect((await api(`contract/${REVERTER_AT}`)).body.name).toBe('contracts/Reverter.sol:Reverter')
  })

  it('answers null for an account without code, and code none of the artifacts compiled', async () => {
    expect(await api(`contract/0x${'00'.repeat(19)}ff`)).toEqual({ status: 200, body: null })
    await devnet.setCode('0x00000000000000000000000000000000000000a3', '0x6000')
    expect(await api('contract/0x00000000000000000000000000000000000000a3')).toEqual({ status: 200, body: null })
  })

  it('names a contract as of a block: one that destroyed itself is named at a block it lived in', async () => {
    const [from] = (await devnet.rpc('eth_accounts')) as [string]
    const send = async (tx: Record<string, string>) => {
      const hash = await devnet.rpc('eth_sendTransaction', [{ from, gas: '0x100000', ...tx }])
      return (await devnet.rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string; contractAddress: string | null; status: string }
    }
    const deployed = await send({ data: SelfDestruct.bytecode })
    const address = deployed.contractAddress!
    const destroyed = await send({ to: address, data: new Interface(SelfDestruct.abi as never).encodeFunctionData('destroy', [from]) })
    expect(destroyed.status).toBe('0x1')
    expect(await devnet.rpc('eth_getCode', [address, 'latest'])).toBe('0x')
    expect((await api(`contract/${address}?block=${Number(deployed.blockNumber)}`)).body?.name).toBe('contracts/SelfDestruct.sol:SelfDestruct')
    expect((await api(`contract/${address}`)).body).toBeNull()
    // A block above the head reads the head.
    expect((await api(`contract/${TOKEN_AT}?block=999999`)).body?.name).toBe('contracts/Token.sol:Token')
  })

  it('finds a selector or an event topic across all the artifacts, each signature once', async () => {
    const transfer = await api(`signature/${TRANSFER_TOPIC}`)
    expect(transfer.status).toBe(200)
    // Token, TokenShanghai and PermitToken declare it: one signature, named by the first contract.
    expect(transfer.body).toEqual([{ contract: expect.stringMatching(/:/), item: expect.objectContaining({ type: 'event', signature: 'Transfer(address,address,uint256)' }) }])
    const [match] = (await api('signature/0xA9059CBB')).body
    expect(match.item).toMatchObject({ type: 'function', signature: 'transfer(address,uint256)' })
    expect(await api('signature/0x12345678')).toEqual({ status: 200, body: [] })
  })

  it('refuses a malformed address, selector or block with a 400 naming what it wanted', async () => {
    expect(await api('contract/0x12')).toEqual({ status: 400, body: { error: expect.stringContaining('an address is 0x and 40 hex digits') } })
    expect(await api('signature/0x1234')).toEqual({ status: 400, body: { error: 'a selector is 0x and 8 hex digits, or 64 of an event topic' } })
    expect(await api(`contract/${TOKEN_AT}?block=x`)).toEqual({ status: 400, body: { error: 'block is a block height, a whole number' } })
  })

  it('answers null and no signatures on a devnet listening without artifacts', async () => {
    const other = await createDevnet()
    try {
      const { explorerUrl } = await other.listen({ rest: false, explorer: true })
      await other.setCode(TOKEN_AT, Token.deployedBytecode)
      expect(await (await fetch(`${explorerUrl}/api/contract/${TOKEN_AT}`)).json()).toBeNull()
      expect(await (await fetch(`${explorerUrl}/api/signature/${TRANSFER_TOPIC}`)).json()).toEqual([])
    } finally {
      await other.close()
    }
  })

  it('refuses a path that does not exist as an option error, and listens on nothing', async () => {
    const other = await createDevnet()
    try {
      await expect(other.listen({ explorer: { artifacts: 'no/such/dir' } })).rejects.toThrow(
        'option explorer.artifacts: "no/such/dir" is invalid (no such file or directory). Allowed: the path of an existing file or directory.',
      )
      await expect(other.listen({ explorer: { artifacts: ['fixtures/artifacts', 'nope'] } })).rejects.toThrow('option explorer.artifacts[1]: "nope" is invalid (no such file or directory)')
      await expect(other.listen({ explorer: { artefacts: 'x' } as never })).rejects.toThrow('option explorer.artefacts is unknown. Did you mean explorer.artifacts?')
    } finally {
      await other.close()
    }
  })
})

describe('ExplorerArtifacts', () => {
  const tokenCode = fromHex(Token.deployedBytecode)

  it("reads Foundry's out/ without build-info, the name from the metadata's compilation target", async () => {
    const project = tempDir('dualnet-explorer-forge-')
    mkdirSync(path.join(project, 'out', 'Token.sol'), { recursive: true })
    const forge = {
      abi: Token.abi,
      bytecode: { object: Token.bytecode, sourceMap: '', linkReferences: {} },
      deployedBytecode: { object: Token.deployedBytecode, sourceMap: '', linkReferences: {}, immutableReferences: {} },
      metadata: { settings: { compilationTarget: { 'src/Token.sol': 'Token' } } },
    }
    writeFileSync(path.join(project, 'out', 'Token.sol', 'Token.json'), JSON.stringify(forge))
    expect((await new ExplorerArtifacts([project]).contractOf(tokenCode))?.name).toBe('src/Token.sol:Token')
  })

  it('matches a deployment whose immutable differs from the build-info (masked), in a Hardhat project', async () => {
    const project = tempDir('dualnet-explorer-hh-')
    mkdirSync(path.join(project, 'artifacts', 'build-info'), { recursive: true })
    copyFileSync(path.join(BUILD_INFO, 'branches.json'), path.join(project, 'artifacts', 'build-info', 'b.json'))
    const code = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
    const refs = Object.values(compiled.evm.deployedBytecode.immutableReferences as Record<string, { start: number; length: number }[]>).flat()
    expect(refs.length).toBeGreaterThan(0)
    for (const { start, length } of refs) code.fill(0x5a, start, start + length)
    const found = await new ExplorerArtifacts([project]).contractOf(code)
    expect(found?.name).toBe(`${SOURCE_NAME}:Branches`)
    expect(found?.abi.some((i) => i.signature === 'add(uint256)' && i.selector === '0x1003e2d2')).toBe(true)
  })

  it('reads the artifacts when asked: a project compiled after the start is found, a rebuild read again', async () => {
    const project = tempDir('dualnet-explorer-late-')
    // A project's root holds JSON that is not compiler output, or not JSON at all.
    writeFileSync(path.join(project, 'tsconfig.json'), '{ // comments\n "compilerOptions": {} }')
    writeFileSync(path.join(project, 'package.json'), '{"name":"p"}')
    const artifacts = new ExplorerArtifacts([project])
    expect(await artifacts.contractOf(tokenCode)).toBeNull()
    expect(await artifacts.signature(TRANSFER_TOPIC)).toEqual([])
    const dir = path.join(project, 'artifacts', 'contracts', 'Token.sol')
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, 'Token.json'), readFileSync('fixtures/artifacts/Token.json'))
    writeFileSync(path.join(dir, 'Token.dbg.json'), '{"_format":"hh-sol-dbg-1","buildInfo":"../../build-info/x.json"}')
    expect((await artifacts.contractOf(tokenCode))?.name).toBe('contracts/Token.sol:Token')
    expect(await artifacts.signature(TRANSFER_TOPIC)).toHaveLength(1)
    // Rebuilt as another contract: the old code is no longer named.
    writeFileSync(path.join(dir, 'Token.json'), readFileSync('fixtures/artifacts/Reverter.json'))
    expect(await artifacts.contractOf(tokenCode)).toBeNull()
    rmSync(path.join(project, 'artifacts'), { recursive: true })
    expect(await artifacts.signature(TRANSFER_TOPIC)).toEqual([])
  })

  it("reads Hardhat 3's per-contract artifacts without build-info, the immutables at their immutableReferences masked", async () => {
    const project = tempDir('dualnet-explorer-hh3-')
    const dir = path.join(project, 'artifacts', 'fixtures', 'coverage', 'Branches.sol')
    mkdirSync(dir, { recursive: true })
    const hh3 = {
      _format: 'hh3-artifact-1',
      contractName: 'Branches',
      sourceName: SOURCE_NAME,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      linkReferences: {},
      deployedLinkReferences: {},
      immutableReferences: compiled.evm.deployedBytecode.immutableReferences,
      inputSourceName: `project/${SOURCE_NAME}`,
      buildInfoId: 'solc-0_8_26-0',
    }
    writeFileSync(path.join(dir, 'Branches.json'), JSON.stringify(hh3))
    const code = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
    for (const { start, length } of Object.values(compiled.evm.deployedBytecode.immutableReferences as Record<string, { start: number; length: number }[]>).flat()) {
      code.fill(0x77, start, start + length)
    }
    expect((await new ExplorerArtifacts([project]).contractOf(code))?.name).toBe(`${SOURCE_NAME}:Branches`)
  })

  it("lists events of one signature apart when their topics differ (ERC-20's and ERC-721's Transfer), and reads ABIs without bytecode", async () => {
    const file = path.join(tempDir('dualnet-explorer-abi-'), 'out.json')
    const transfer = (indexedValue: boolean) => ({
      type: 'event',
      name: 'Transfer',
      anonymous: false,
      inputs: [
        { name: 'from', type: 'address', indexed: true },
        { name: 'to', type: 'address', indexed: true },
        { name: indexedValue ? 'tokenId' : 'value', type: 'uint256', indexed: indexedValue },
      ],
    })
    const output = {
      contracts: { 'contracts/I.sol': { IERC20: { abi: [transfer(false)] }, IERC721: { abi: [transfer(true)] }, Again: { abi: [transfer(false)] } } },
      sources: { 'contracts/I.sol': { id: 0 } },
    }
    writeFileSync(file, JSON.stringify(output))
    const found = await new ExplorerArtifacts([file]).signature(TRANSFER_TOPIC)
    expect(found.map((m) => [m.contract, m.item.inputs[2]!.name])).toEqual([
      ['contracts/I.sol:IERC20', 'value'],
      ['contracts/I.sol:IERC721', 'tokenId'],
    ])
  })

  it('reads solc standard-JSON output', async () => {
    const file = path.join(tempDir('dualnet-explorer-solc-'), 'out.json')
    const output = {
      contracts: { 'contracts/Token.sol': { Token: { abi: Token.abi, evm: { deployedBytecode: { object: Token.deployedBytecode.slice(2) } } } } },
      sources: { 'contracts/Token.sol': { id: 0 } },
    }
    writeFileSync(file, JSON.stringify(output))
    expect((await new ExplorerArtifacts([file]).contractOf(tokenCode))?.name).toBe('contracts/Token.sol:Token')
  })
})
