/**
 * The CLI's gas snapshot flags (issue 38): --gas-snapshot writes dualnet_gasSnapshot's
 * measurements into the file; --gas-snapshot-check refuses a change at once and, on
 * stop, lists every change and exits with code 1; --gas-snapshot-tolerance takes a
 * percentage. Real CLI processes on real ports.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CommanderError } from 'commander'
import { afterAll, describe, expect, it } from 'vitest'
import { cliProgram, devnetOptionsOf, parseFlags } from '../src/cli/flags.ts'
import { rpcAnswer, rpcCall, started, stop } from './cli-support.ts'

const dir = mkdtempSync(join(tmpdir(), 'dualnet-cli-gas-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Sends a value transfer from dev account 0 to 1, with `data`, and resolves to its hash. */
async function transfer(rpcUrl: string, data = '0x'): Promise<string> {
  const [from, to] = (await rpcCall(rpcUrl, 'eth_accounts')) as string[]
  return (await rpcCall(rpcUrl, 'eth_sendTransaction', [{ from, to, value: '0x1', data }])) as string
}

describe('the CLI’s gas snapshots', { timeout: 120_000 }, () => {
  it('--gas-snapshot writes each measurement into the file', async () => {
    const file = join(dir, 'write.json')
    const cli = await started(['--rpcport', '0', '--quiet', '--accounts', '2', '--gas-snapshot', file])
    try {
      expect(await rpcCall(cli.rpcUrl, 'dualnet_gasSnapshot', ['value transfer', await transfer(cli.rpcUrl)])).toBe('0x5208')
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'value transfer': '21000' })
    } finally {
      expect(await stop(cli)).toBe(0)
    }
  })

  it('--gas-snapshot-check refuses a change at once, then lists every change on stop and exits with 1', async () => {
    const file = join(dir, 'check.json')
    writeFileSync(file, JSON.stringify({ 'value transfer': '21000', 'with data': '21000' }))
    const cli = await started(['--rpcport', '0', '--quiet', '--accounts', '2', '--gas-snapshot', file, '--gas-snapshot-check'])
    expect(await rpcCall(cli.rpcUrl, 'dualnet_gasSnapshot', ['value transfer', await transfer(cli.rpcUrl)])).toBe('0x5208')
    const refused = await rpcAnswer(cli.rpcUrl, 'dualnet_gasSnapshot', ['with data', await transfer(cli.rpcUrl, '0x01020304')])
    expect(refused.error).toMatchObject({ code: -32000, message: `1 gas snapshot differs from ${file}` })
    expect(await stop(cli)).toBe(1)
    expect(cli.output()).toContain(`dualnet: 1 gas snapshot differs from ${file}\nwith data: 21000 → 21064 (+64, +0.30%)`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'value transfer': '21000', 'with data': '21000' })
  })

  it('takes the tolerance as a percentage and refuses anything else, naming the flag', async () => {
    const options = await devnetOptionsOf(parseFlags(cliProgram(), ['--gas-snapshot-check', '--gas-snapshot-tolerance', '0.5']))
    expect(options.gasSnapshot).toEqual({ file: undefined, check: true, tolerance: 0.5 })
    expect((await devnetOptionsOf(parseFlags(cliProgram(), []))).gasSnapshot).toBeUndefined()
    let written = ''
    const program = cliProgram()
      .exitOverride()
      .configureOutput({ writeErr: (text) => (written += text), writeOut: () => {} })
    expect(() => parseFlags(program, ['--gas-snapshot-tolerance', '-1'])).toThrow(CommanderError)
    expect(written.trim()).toBe("dualnet: option '--gas-snapshot-tolerance <percent>' argument '-1' is invalid. Allowed: a percentage from 0 to 1,000,000.")
  })
})
