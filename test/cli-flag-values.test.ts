/**
 * CLI flag values (issue 19 item 4). A bad one is one line naming the flag and saying
 * what it takes, and exit code 1: the table runs the program's parser in process (the
 * same commander program and error output the CLI uses: spawning a process per value
 * would take minutes on a busy machine), and a few rows run as the real program to see
 * the line on stderr and the exit code. Good ones become the createDevnet and listen
 * options shown. `--help` lists every flag with its default.
 */
import { CommanderError, type Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { cliProgram, devnetOptionsOf, listenOptionsOf, parseFlags } from '../src/cli/flags.ts'
import { FLAG_ALIASES } from '../src/cli/flagAliases.ts'
import { checkOptionsOfFlags } from '../src/cli/optionFlags.ts'
import { startFailure } from '../src/cli/output.ts'
import { start } from './cli-support.ts'

/** What the program writes on stderr for `args`, and the exit code commander asked for: parsing, then the check of the options made (as runCli). */
async function refusal(args: string[]): Promise<{ line: string; exitCode: number }> {
  let written = ''
  const program: Command = cliProgram()
    .exitOverride()
    .configureOutput({ writeErr: (text) => (written += text), writeOut: () => {} })
  try {
    const flags = parseFlags(program, args)
    await checkOptionsOfFlags(program, () => devnetOptionsOf(flags), listenOptionsOf(flags))
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err
    return { line: written.trim(), exitCode: err.exitCode }
  }
  throw new Error(`accepted: ${args.join(' ')}`)
}

const invalid = (flag: string, value: string, why: string): [string[], string] => [[flag.split(' ')[0]!.replace(/,$/, ''), value], `dualnet: option '${flag}' argument '${value}' is invalid. ${why}`]
const LIMIT = 'Allowed: a whole number from 1 to 2,147,483,647.'
const limit = (flag: string) => invalid(flag, '0', LIMIT)
const PORT = 'Allowed: a whole number from 0 to 65,535.'
const HARDFORK = "Allowed: one of 'istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague'."
/** In the flag's words, not the option's (`{ step }`): issue 39. */
const CLOCK = "Allowed: 'wall', 'frozen', or N, each block N seconds after its parent, a whole number from 1 to 86,400."
const BOOKKEEPER_KEY = 'Allowed: a P-256 private key: 64 hex digits (0x optional), not zero, below the curve order.'
const UNBOUND_GAS = 'Allowed: a deadline in seconds after genesis, a whole number from 1 to 4,294,967,295.'
const MNEMONIC = 'Allowed: a BIP-39 mnemonic: 12, 15, 18, 21 or 24 words of the English word list, with a valid checksum.'
const CORS = "Allowed: '*' (any origin), 'none', or origins separated by commas."
const HOST = 'Allowed: an interface address or name to bind (127.0.0.1, ::1, 0.0.0.0, localhost, ...).'

/**
 * [arguments, the line]: at least one bad value per flag that takes one, and the
 * combinations refused. The "Allowed: …" parts are the createDevnet and listen rules'
 * (test/options.test.ts), the same checks.
 */
const REFUSED: [string[], string][] = [
  invalid('--restport <port>', '65536', PORT),
  invalid('--rpcport <port>', 'abc', PORT),
  [['-p', 'x'], `dualnet: option '-p, --port <port>' argument 'x' is invalid. ${PORT}`],
  [['--port', '1', '--rpcport', '2'], "dualnet: option '-p, --port <port>' cannot be used with option '--rpcport <port>'"],
  [['--host'], "dualnet: option '--host <host>' argument missing"],
  invalid('--host <host>', '', HOST),
  invalid('-f, --fork-url <url>', 'ws://127.0.0.1:8545', 'the fork URL must be an http(s) URL of a JSON-RPC node'),
  invalid('--fork-block-number <n>', '-1', 'Allowed: a whole number from 0 to 9,007,199,254,740,991.'),
  invalid('--fork-cache <dir>', '', 'the fork cache directory must not be empty'),
  invalid('--fork-rest-url <url>', 'ftp://127.0.0.1', "the fork URL must be an http(s) URL of the node's REST interface"),
  [['--fork-rest-url', 'http://127.0.0.1:20334'], "dualnet: option '--fork-rest-url <url>' needs --fork-url: it forks the same node's native state"],
  [['--fork-block-number', '3'], "dualnet: option '--fork-block-number <n>' needs --fork-url: it says where to fork the remote"],
  invalid('--artifacts <dir>', 'no/such/dir', 'No such file or directory. Allowed: the path of an existing file or directory.'),
  [['--artifacts', 'fixtures/artifacts'], "dualnet: option '--artifacts <dir>' needs --explorer: it names the contracts the explorer page shows"],
  [['--cors'], "dualnet: option '--cors <origins>' argument missing"],
  invalid('--cors <origins>', '', CORS),
  invalid('--cors <origins>', 'https://a.example,https://b example', CORS),
  invalid('--vhosts <names>', 'a.example,,b.example', 'the virtual hosts must be "*" or host names separated by commas'),
  invalid('--vhosts <names>', 'http://a.example', 'the virtual hosts must be "*" or host names separated by commas'),
  invalid('--block-context <mode>', 'geth', 'Allowed choices are node, ethereum.'),
  invalid('--profile <answers>', 'hardhat', 'Allowed choices are node, ethereum.'),
  invalid('--empty-storage <answer>', 'zero', 'Allowed choices are node, ethereum.'),
  invalid('--client-version <name>', 'anvil', 'Allowed choices are hardhat, node.'),
  invalid('--state-root <mode>', 'patricia', "Allowed: 'zero' or 'merkle'."),
  invalid('--chain-id <id>', '0', 'Allowed: a whole number from 1 to 9,007,199,254,740,991.'),
  invalid('--chain-id <id>', '1.5', 'Allowed: a whole number from 1 to 9,007,199,254,740,991.'),
  invalid('--hardfork <name>', 'frontier', HARDFORK),
  invalid('--hardfork <name>', 'shangai', `Did you mean 'shanghai'? ${HARDFORK}`),
  invalid('--timestamp <seconds>', '4294967296', 'Allowed: a whole number from 0 to 4,294,967,295.'),
  invalid('--timestamp <seconds>', '2024-01-01', 'Allowed: a whole number from 0 to 4,294,967,295.'),
  invalid('--clock <mode>', 'fast', CLOCK),
  invalid('--clock <mode>', 'weekly', CLOCK),
  invalid('--clock <mode>', '0', CLOCK),
  invalid('--clock <mode>', '86401', CLOCK),
  invalid('--bookkeeper-key <hex>', '0x12', BOOKKEEPER_KEY),
  invalid('--bookkeeper-key <hex>', '00'.repeat(32), BOOKKEEPER_KEY),
  invalid('--unbound-gas [deadline]', '0', UNBOUND_GAS),
  invalid('--unbound-gas [deadline]', 'soon', UNBOUND_GAS),
  invalid('-a, --accounts <n>', '10001', 'Allowed: a whole number from 0 to 10,000.'),
  invalid('--native-accounts <n>', '10001', 'Allowed: a whole number from 0 to 10,000.'),
  invalid('-m, --mnemonic <words>', 'test test junk', `3 words. ${MNEMONIC}`),
  invalid('-m, --mnemonic <words>', '  ', `No words. ${MNEMONIC}`),
  invalid('-m, --mnemonic <words>', 'Test test test test test test test test test test test junk', `Word 1, "Test", is not in the word list. ${MNEMONIC}`),
  invalid('-m, --mnemonic <words>', 'test test test test test test test test test test test test', `The checksum does not match. ${MNEMONIC}`),
  invalid('--balance <tokens>', '1.5', 'the balance must be a whole number'),
  invalid('--balance <tokens>', '1000000001', 'the balance must be at most 1,000,000,000'),
  [
    ['--balance', '100000000'],
    "dualnet: option '--balance <tokens>' argument '100000000' is invalid. 10 accounts of 100,000,000 tokens and 5 native accounts of 10,000 exceed the supply of 1,000,000,000 tokens",
  ],
  [['--no-mining', 'yes'], 'dualnet: too many arguments. Expected 0 arguments but got 1.'],
  invalid('-b, --block-time <seconds>', '86401', 'Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'),
  invalid('-b, --block-time <seconds>', '0.0001', 'Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'),
  invalid('--min-gas-price <gwei>', '0.5', 'Allowed: a whole number from 0 to 18,446,744,073,709,551,615.'),
  invalid('--gas-price <wei>', '1500000000', 'the gas price must be a whole number of gwei (a multiple of 1000000000 wei)'),
  invalid('--gas-price <wei>', '1gwei', 'the gas price must be a whole number of wei'),
  [['--gas-price', '1000000000', '--min-gas-price', '1'], "dualnet: option '--gas-price <wei>' cannot be used with option '--min-gas-price <gwei>'"],
  [['--disable-console-log', 'no'], 'dualnet: too many arguments. Expected 0 arguments but got 1.'],
  [['--db'], "dualnet: option '--db <dir>' argument missing"],
  [['--coverage'], "dualnet: option '--coverage <artifacts>' argument missing"],
  [['--coverage-dir'], "dualnet: option '--coverage-dir <dir>' argument missing"],
  [['--gas-report'], "dualnet: option '--gas-report <artifacts>' argument missing"],
  [['--gas-report-dir'], "dualnet: option '--gas-report-dir <dir>' argument missing"],
  [['--load-state'], "dualnet: option '--load-state <file>' argument missing"],
  [['--dump-state'], "dualnet: option '--dump-state <file>' argument missing"],
  [['--state'], "dualnet: option '--state <file>' argument missing"],
  limit('--body-limit <bytes>'),
  limit('--batch-limit <n>'),
  limit('--batch-response-limit <bytes>'),
  limit('--hex-limit <digits>'),
  limit('--json-depth-limit <n>'),
  limit('--logs-block-range <n>'),
  limit('--logs-result-limit <n>'),
  limit('--filter-limit <n>'),
  limit('--subscription-limit <n>'),
  limit('--trace-size-limit <bytes>'),
  limit('--mine-limit <n>'),
  limit('--trace-timeout <ms>'),
  limit('--batch-trace-timeout <ms>'),
  limit('--state-limit <bytes>'),
  limit('--ws-buffer-limit <bytes>'),
  invalid('--gas-snapshot <file>', '', 'Allowed: a non-empty path.'),
  invalid('--gas-snapshot-tolerance <percent>', '1e3', 'Allowed: a percentage from 0 to 1,000,000.'),
  [['--frobnicate'], "dualnet: unknown option '--frobnicate'"],
  // Aliases (Anvil's and the Hardhat tasks' spellings): the flag's check, and the line names the spelling given.
  invalid('--rest-port <port>', 'x', PORT),
  invalid('--rpc-port <port>', '65536', PORT),
  [['-p', '1', '--rpc-port', '2'], "dualnet: option '-p, --port <port>' cannot be used with option '--rpcport <port>'"],
  invalid('--hostname <host>', '', HOST),
  invalid('--allow-origin <origins>', '', CORS),
  invalid('--blockTime <seconds>', '-1', 'Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'),
  invalid('--rpc-url <url>', 'ws://127.0.0.1:8545', 'the fork URL must be an http(s) URL of a JSON-RPC node'),
  invalid('--fork <url>', 'localhost:8545', 'the fork URL must be an http(s) URL of a JSON-RPC node'),
  [['--no-mine', 'yes'], 'dualnet: too many arguments. Expected 0 arguments but got 1.'],
]

describe('bad flag values', () => {
  it.each(REFUSED)('%j', async (args, line) => {
    expect(await refusal(args)).toEqual({ line, exitCode: 1 })
  })

  it('every flag that takes a value has a refused value in the table', () => {
    const refusedFlags = new Set(REFUSED.flatMap(([args]) => args.filter((a) => a.startsWith('-'))))
    const takingValues = cliProgram().options.filter((o) => o.required || o.optional)
    expect(takingValues.filter((o) => !refusedFlags.has(o.long!) && !refusedFlags.has(o.short ?? '-'))).toEqual([])
  })

  it('the program itself: the line on stderr, nothing on stdout, exit code 1', async () => {
    const runs = [
      ['--hardfork', 'frontier'],
      ['--balance', '100000000'],
      ['--gas-price', '1500000000'],
      ['-m', 'test test test test test test test test test test test test'],
    ].map((args) => {
      const cli = start(args)
      let stdout = ''
      cli.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      return { args, cli, stdout: () => stdout }
    })
    for (const run of runs) {
      expect(await run.cli.exited).toBe(1)
      expect(run.stdout()).toBe('')
      expect(run.cli.output().trim()).toBe((await refusal(run.args)).line)
    }
  }, 120_000)
})

describe('--help and --version', () => {
  it('--help lists every flag with its default', () => {
    const program = cliProgram()
    const help = program.helpInformation()
    const describe = program.createHelp()
    for (const option of program.options) {
      // Aliases are not listed: the flag each stands for names it (below).
      if (option.hidden) continue
      expect(help).toContain(option.flags)
      if (option.long !== '--version') expect(describe.optionDescription(option), option.flags).toMatch(/\(.*default: [^)]+\)$/)
    }
  })

  it("each alias is hidden from the list and named in the description of the flag it stands for, with Anvil's and the Hardhat tasks' spellings", () => {
    const program = cliProgram()
    const describe = program.createHelp()
    for (const { alias, of } of FLAG_ALIASES) {
      const option = program.options.find((o) => o.long === alias)!
      expect(option.hidden, alias).toBe(true)
      expect(describe.optionDescription(program.options.find((o) => o.long === of)!), alias).toMatch(new RegExp(`\\(also [^)]*${alias}\\b`))
    }
    expect(FLAG_ALIASES.map((a) => a.alias)).toEqual(
      expect.arrayContaining(['--rest-port', '--rpc-port', '--hostname', '--no-mine', '--blockTime', '--rpc-url', '--no-console-log', '--allow-origin', '--no-cors', '--no-storage-caching']),
    )
  })

  it('--help and --version exit 0 on stdout', async () => {
    const [help, version] = [start(['--help']), start(['--version'])]
    expect(await help.exited).toBe(0)
    expect(help.output()).toContain('--hardfork <name>')
    expect(await version.exited).toBe(0)
    expect(version.output().trim()).toMatch(/^\d+\.\d+\.\d+/)
  }, 120_000)
})

describe('accepted values, as createDevnet and listen receive them', () => {
  const parse = (args: string[]) => parseFlags(cliProgram().exitOverride(), args)

  it('--hardfork in any case, merge for paris; --clock; --unbound-gas with and without a deadline; --bookkeeper-key with or without 0x', async () => {
    expect(parse(['--hardfork', 'Merge']).hardfork).toBe('paris')
    expect(parse(['--hardfork', 'SHANGHAI']).hardfork).toBe('shanghai')
    expect(parse(['--clock', 'frozen']).clock).toBe('frozen')
    expect(parse(['--clock', '12']).clock).toEqual({ step: 12 })
    expect((await devnetOptionsOf(parse(['--unbound-gas']))).unboundGas).toEqual({})
    expect((await devnetOptionsOf(parse(['--unbound-gas', '3600']))).unboundGas).toEqual({ deadline: 3600 })
    expect((await devnetOptionsOf(parse([]))).unboundGas).toBeUndefined()
    expect(parse(['--bookkeeper-key', 'AB'.repeat(32)]).bookkeeperKey).toBe(`0x${'ab'.repeat(32)}`)
  })

  it('--gas-price in wei and --min-gas-price in gwei set the same minimum; --no-mining and --disable-console-log', async () => {
    expect((await devnetOptionsOf(parse(['--gas-price', '3000000000']))).minGasPrice).toBe(3n)
    expect((await devnetOptionsOf(parse(['--min-gas-price', '7']))).minGasPrice).toBe(7n)
    expect((await devnetOptionsOf(parse([]))).minGasPrice).toBe(0n)
    expect(await devnetOptionsOf(parse(['--no-mining', '--disable-console-log']))).toMatchObject({ automine: false, console: false })
    expect(await devnetOptionsOf(parse([]))).toMatchObject({ automine: true, console: true, hardfork: 'istanbul', chainId: 12345, clock: 'wall' })
  })

  it('--balance makes explicit accounts from the mnemonic with that many tokens of each kind; without it, a count', async () => {
    expect((await devnetOptionsOf(parse(['-a', '3']))).accounts).toBe(3)
    const options = await devnetOptionsOf(parse(['--accounts', '2', '--balance', '7', '-m', '  test test test test test test test test test test test   junk ']))
    expect(options.mnemonic).toBe('test test test test test test test test test test test junk')
    expect(options.accounts).toEqual([
      { privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', main: 7n * 10n ** 9n, gas: 7n * 10n ** 18n },
      { privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', main: 7n * 10n ** 9n, gas: 7n * 10n ** 18n },
    ])
  })

  it('-p and --rpcport, --cors lists and none, --vhosts', () => {
    expect(listenOptionsOf(parse(['-p', '8545']))).toMatchObject({ rpcPort: 8545, restPort: 20334, rest: false, host: '127.0.0.1', cors: '*' })
    expect(listenOptionsOf(parse(['--rpcport', '0', '--cors', 'https://a.example, https://b.example'])).cors).toEqual(['https://a.example', 'https://b.example'])
    expect(listenOptionsOf(parse(['--cors', 'none'])).cors).toBe(false)
    expect(listenOptionsOf(parse([])).vhosts).toEqual(['localhost'])
    expect(listenOptionsOf(parse(['--vhosts', '*'])).vhosts).toBe('*')
    expect(listenOptionsOf(parse(['--vhosts', 'a.example, B.example'])).vhosts).toEqual(['a.example', 'B.example'])
    expect(listenOptionsOf(parse([])).explorer).toBe(false)
    expect(listenOptionsOf(parse(['--explorer'])).explorer).toBe(true)
    expect(listenOptionsOf(parse(['--explorer', '--artifacts', 'fixtures/artifacts'])).explorer).toEqual({ artifacts: 'fixtures/artifacts' })
  })

  it("aliases set what the flag they stand for sets: the Hardhat task's --rest-port, --rpc-port, Hardhat's --hostname and --fork, Anvil's spellings", async () => {
    expect(listenOptionsOf(parse(['--rest', '--rest-port', '0', '--rpc-port', '8546', '--hostname', '0.0.0.0']))).toMatchObject({ restPort: 0, rpcPort: 8546, host: '0.0.0.0', rest: true })
    expect(listenOptionsOf(parse(['--rest-port=7', '--rpc-port=8']))).toMatchObject({ restPort: 7, rpcPort: 8 })
    expect(listenOptionsOf(parse(['--allow-origin', 'https://a.example'])).cors).toEqual(['https://a.example'])
    expect(listenOptionsOf(parse(['--no-cors'])).cors).toBe(false)
    expect(await devnetOptionsOf(parse(['--no-mine', '--blockTime', '2', '--no-console-log']))).toMatchObject({ automine: false, blockTime: 2, console: false })
    for (const alias of ['--rpc-url', '--fork']) expect(parse([alias, 'http://127.0.0.1:8545']).forkUrl).toBe('http://127.0.0.1:8545')
    expect(parse(['--rpc-url', 'http://127.0.0.1:8545', '--no-storage-caching']).forkCache).toBe(false)
    // Without the aliases, the defaults stand.
    expect(parse([])).toMatchObject({ restport: 20334, rpcport: 20339, host: '127.0.0.1', cors: '*', mining: true, blockTime: 0, disableConsoleLog: false })
    expect(parse([]).forkCache).toBeUndefined()
  })

  it('--profile, --block-context, --empty-storage and --client-version', async () => {
    expect(await devnetOptionsOf(parse([]))).toMatchObject({ profile: 'node', blockContext: undefined, emptyStorage: undefined, clientVersion: 'hardhat' })
    expect(await devnetOptionsOf(parse(['--profile', 'ethereum', '--empty-storage', 'node']))).toMatchObject({ profile: 'ethereum', blockContext: undefined, emptyStorage: 'node' })
    expect(await devnetOptionsOf(parse(['--block-context', 'ethereum', '--client-version', 'node']))).toMatchObject({ blockContext: 'ethereum', clientVersion: 'node' })
  })
})

describe('a port in use', () => {
  const inUse = (port: number) => Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`), { code: 'EADDRINUSE', port })
  const flags = { rpcport: 20339, restport: 20334, rest: true, port: undefined }

  it('names the server and the flag of the port taken, and suggests 0 (any free port)', () => {
    expect(startFailure(inUse(20339), flags)).toBe('the JSON-RPC port is in use: address already in use 127.0.0.1:20339. Pass --rpcport 0 for any free port, or another port')
    expect(startFailure(inUse(20334), flags)).toBe('the REST port is in use: address already in use 127.0.0.1:20334. Pass --restport 0 for any free port, or another port')
    // -p given: its name.
    expect(startFailure(inUse(8545), { ...flags, port: 8545 })).toBe('the JSON-RPC port is in use: address already in use 127.0.0.1:8545. Pass --port 0 for any free port, or another port')
    // Both servers given one port: both flags.
    expect(startFailure(inUse(9000), { ...flags, rpcport: 9000, restport: 9000 })).toBe(
      'a port is in use: address already in use 127.0.0.1:9000. Pass --rpcport 0 and --restport 0 for any free ports, or other ports (the two servers need a port each)',
    )
    // Another failure: its message as it is.
    expect(startFailure(new Error('the database is locked'), flags)).toBe('the database is locked')
  })
})
