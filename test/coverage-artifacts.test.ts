/**
 * The compiler output coverage reads (src/coverage/buildInfo.ts, match.ts): Hardhat 2
 * and 3 build-info, Foundry's out/build-info, solc standard-JSON output whose sources
 * are read from the disk, the refusals (no such path, no compilation, not JSON), and
 * matching with immutables, metadata and library placeholders masked.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CoverageError, loadCompilations } from '../src/coverage/buildInfo.ts'
import { BytecodeMatcher } from '../src/coverage/match.ts'
import { artifactSourceTexts } from '../src/coverage/reporter.ts'
import { fromHex } from '../src/util/hex.ts'
import { BUILD_INFO, compiled, SOURCE_NAME, tempDir } from './coverage-support.ts'

const FILE = path.join(BUILD_INFO, 'branches.json')
const buildInfo = JSON.parse(readFileSync(FILE, 'utf8'))
const names = (c: Awaited<ReturnType<typeof loadCompilations>>) => c.contracts.map((k) => `${k.sourcePath}:${k.name}`)
const BOTH = [`${SOURCE_NAME}:Branches`, 'fixtures/coverage/Caller.sol:BranchesCaller']

describe('loadCompilations', () => {
  it('reads a Hardhat 2 project, a Foundry project and a build-info file', async () => {
    const hardhat = tempDir('dualnet-hh2-')
    mkdirSync(path.join(hardhat, 'artifacts', 'build-info'), { recursive: true })
    copyFileSync(FILE, path.join(hardhat, 'artifacts', 'build-info', 'a.json'))
    // An artifact beside it is no compilation, and is passed over.
    writeFileSync(path.join(hardhat, 'artifacts', 'build-info', 'b.json'), '{"_format":"hh-sol-artifact-1"}')
    expect(names(await loadCompilations([hardhat]))).toEqual(BOTH)
    const foundry = tempDir('dualnet-forge-')
    mkdirSync(path.join(foundry, 'out', 'build-info'), { recursive: true })
    copyFileSync(FILE, path.join(foundry, 'out', 'build-info', 'x.json'))
    const forge = await loadCompilations([foundry])
    expect(names(forge)).toEqual(BOTH)
    expect(forge.sources.get(SOURCE_NAME)!.root).toBe(foundry)
    expect(names(await loadCompilations([FILE]))).toEqual(BOTH)
  })

  it("reads Hardhat 3's input and output files as one", async () => {
    const dir = tempDir('dualnet-hh3-')
    const ids = path.join(dir, 'artifacts', 'build-info')
    mkdirSync(ids, { recursive: true })
    writeFileSync(path.join(ids, 'solc-0_8_26-1.json'), JSON.stringify({ _format: 'hh3-sol-build-info-1', id: 'solc-0_8_26-1', input: buildInfo.input }))
    writeFileSync(path.join(ids, 'solc-0_8_26-1.output.json'), JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id: 'solc-0_8_26-1', output: buildInfo.output }))
    const read = await loadCompilations([dir])
    expect(names(read)).toEqual(BOTH)
    expect(read.sources.get(SOURCE_NAME)!.content).toBe(buildInfo.input.sources[SOURCE_NAME].content)
    expect(read.contracts[0]!.methods.get('0x1003e2d2')).toBe('add(uint256)')
  })

  it("names a Hardhat 3 project's own source (project/...) by its file under the project root", async () => {
    const dir = tempDir('dualnet-hh3-names-')
    const ids = path.join(dir, 'artifacts', 'build-info')
    mkdirSync(ids, { recursive: true })
    mkdirSync(path.join(dir, 'fixtures', 'coverage'), { recursive: true })
    copyFileSync(SOURCE_NAME, path.join(dir, SOURCE_NAME))
    // Hardhat 3's source names: the project's files under project/, as its build-info holds them.
    const rename = (sources: Record<string, unknown>) => Object.fromEntries(Object.entries(sources).map(([name, value]) => [`project/${name}`, value]))
    const input = { ...buildInfo.input, sources: rename(buildInfo.input.sources) }
    const output = { ...buildInfo.output, sources: rename(buildInfo.output.sources), contracts: rename(buildInfo.output.contracts) }
    writeFileSync(path.join(ids, 'solc-0_8_26-2.json'), JSON.stringify({ _format: 'hh3-sol-build-info-1', id: 'solc-0_8_26-2', input }))
    writeFileSync(path.join(ids, 'solc-0_8_26-2.output.json'), JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id: 'solc-0_8_26-2', output }))
    const texts = await artifactSourceTexts([dir])
    // On disk: the file's path; not on disk (Caller.sol was not copied): the name in the compilation.
    expect([...texts.keys()].sort()).toEqual([path.join(dir, SOURCE_NAME), 'project/fixtures/coverage/Caller.sol'])
    expect(texts.get(path.join(dir, SOURCE_NAME))).toBe(buildInfo.input.sources[SOURCE_NAME].content)
  })

  it('reads standard-JSON output without its input, the sources from the disk', async () => {
    const file = path.join(tempDir('dualnet-solc-'), 'out.json')
    // No methodIdentifiers: the signatures come from the ABI.
    const output = structuredClone(buildInfo.output)
    delete output.contracts[SOURCE_NAME].Branches.evm.methodIdentifiers
    writeFileSync(file, JSON.stringify(output))
    const read = await loadCompilations([file])
    expect(names(read)).toEqual(BOTH)
    expect(read.sources.get(SOURCE_NAME)!.content).toBe(readFileSync(SOURCE_NAME, 'utf8'))
    expect(read.contracts[0]!.methods.get('0x1003e2d2')).toBe('add(uint256)')
  })

  it('refuses a missing path, a directory without compilations and a file that is not JSON', async () => {
    await expect(loadCompilations(['no/such/place'])).rejects.toThrow(new CoverageError('no/such/place: no such file or directory'))
    const empty = tempDir('dualnet-empty-')
    await expect(loadCompilations([empty])).rejects.toThrow(/no solc output with source maps and ASTs/)
    const bad = path.join(empty, 'bad.json')
    writeFileSync(bad, '{ not json')
    await expect(loadCompilations([bad])).rejects.toBeInstanceOf(CoverageError)
  })
})

describe('BytecodeMatcher', () => {
  it('masks immutables, the metadata trailer and library placeholders; init code by prefix', async () => {
    const { contracts } = await loadCompilations([FILE])
    const matcher = new BytecodeMatcher(contracts)
    const runtime = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
    const deployed = runtime.slice()
    // The immutable `owner` filled in, the metadata's hash changed.
    const { start, length } = Object.values(compiled.evm.deployedBytecode.immutableReferences as Record<string, { start: number; length: number }[]>)[0]![0]!
    deployed.fill(0xab, start, start + length)
    deployed[deployed.length - 10]! ^= 0xff
    expect(matcher.match(deployed, false)?.contract.name).toBe('Branches')
    // Any other byte changed: no match.
    const other = deployed.slice()
    other[10]! ^= 0xff
    expect(matcher.match(other, false)).toBeUndefined()
    expect(matcher.match(runtime, true)).toBeUndefined()
    const init = fromHex(`0x${compiled.evm.bytecode.object}${'00'.repeat(31)}07`)
    expect(matcher.match(init, true)?.contract.name).toBe('Branches')
    expect(matcher.match(init.subarray(0, 100), true)).toBeUndefined()
  })

  it('reads an unlinked library placeholder as a masked address', async () => {
    const file = path.join(tempDir('dualnet-link-'), 'out.json')
    const output = structuredClone(buildInfo.output)
    const evm = output.contracts[SOURCE_NAME].Branches.evm.deployedBytecode
    // 40 hex digits of the code (20 bytes at byte 100) replaced by a placeholder, as an unlinked library call leaves them.
    evm.object = `${evm.object.slice(0, 200)}__$0123456789abcdef0123456789abcdef01$__${evm.object.slice(240)}`
    writeFileSync(file, JSON.stringify({ input: buildInfo.input, output }))
    const matcher = new BytecodeMatcher((await loadCompilations([file])).contracts)
    const linked = fromHex(`0x${compiled.evm.deployedBytecode.object}`)
    linked.fill(0x11, 100, 120)
    expect(matcher.match(linked, false)?.contract.name).toBe('Branches')
  })
})
