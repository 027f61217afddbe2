/**
 * Every option of createDevnet and listen (issue 22 item 2): good values accepted and
 * normalised (whole numbers given as bigints or numbers), bad ones refused with the
 * exact message, unknown keys with the nearest name. The tables run the checks in
 * process (no devnet per row); the last block shows through createDevnet and listen
 * that a refused option starts nothing, and the issue's own examples.
 */
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDevnet, InvalidOptionError, type Devnet, type DevnetOptions, type ListenOptions } from '../src/index.ts'
import { DEVNET_OPTION_RULES } from '../src/options/devnetRules.ts'
import { LISTEN_OPTION_RULES } from '../src/options/listenRules.ts'
import { grouped } from '../src/options/rules.ts'
import { checkDevnetOptions, validateDevnetOptions, validateListenOptions } from '../src/options/validate.ts'

/** Accepted: the value, or [given, as the devnet receives it]. Refused: [value, message]. */
interface Row {
  good: (unknown | { given: unknown; as: unknown })[]
  bad: [unknown, string][]
}
const as = (given: unknown, normalised: unknown) => ({ given, as: normalised })
const KEY = (byte: string) => `0x${byte.repeat(32)}`
const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

const WHOLE = (option: string, value: unknown, from: string, to: string): [unknown, string] => [value, `option ${option}: ${show(value)} is invalid. Allowed: a whole number from ${from} to ${to}.`]
const show = (value: unknown) => (typeof value === 'bigint' ? `${value}n` : JSON.stringify(value))
const LIMIT = (option: string): Row => ({
  good: [1, 2 ** 31 - 1, as(5n, 5)],
  bad: [WHOLE(option, 0, '1', '2,147,483,647'), WHOLE(option, 2 ** 31, '1', '2,147,483,647'), WHOLE(option, 1.5, '1', '2,147,483,647'), WHOLE(option, '10', '1', '2,147,483,647')],
})
const HARDFORKS = "one of 'istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague'"
const MNEMONIC = 'a BIP-39 mnemonic: 12, 15, 18, 21 or 24 words of the English word list, one space apart, with a valid checksum'
const ACCOUNTS = 'a whole number from 0 to 10,000, or a list of at most 10,000 accounts { privateKey, main?, gas? }'
const FORK = '{ url, restUrl?, blockNumber?, cache?, historyLimit?, remote? } (docs/fork.md)'
const SECP_KEY = 'a secp256k1 private key: 0x and 64 hex digits, not zero, below the curve order'

/** Every createDevnet option (the type makes a missing one a compile error). */
const DEVNET: { [K in keyof Required<DevnetOptions>]: Row } = {
  chainId: {
    good: [1, 31337, Number.MAX_SAFE_INTEGER, as(31337n, 31337)],
    bad: [
      WHOLE('chainId', -1, '1', '9,007,199,254,740,991'),
      WHOLE('chainId', 1.5, '1', '9,007,199,254,740,991'),
      WHOLE('chainId', 0, '1', '9,007,199,254,740,991'),
      WHOLE('chainId', 2n ** 53n, '1', '9,007,199,254,740,991'),
      WHOLE('chainId', '1', '1', '9,007,199,254,740,991'),
    ],
  },
  hardfork: {
    good: ['istanbul', 'berlin', 'london', 'paris', 'shanghai', 'cancun', 'prague'],
    bad: [
      ['homestead', `option hardfork: "homestead" is invalid. Allowed: ${HARDFORKS}.`],
      ['osaka', `option hardfork: "osaka" is invalid. Allowed: ${HARDFORKS}.`],
      ['amsterdam', `option hardfork: "amsterdam" is invalid. Allowed: ${HARDFORKS}.`],
      ['Shanghai', `option hardfork: "Shanghai" is invalid. Did you mean 'shanghai'? Allowed: ${HARDFORKS}.`],
    ],
  },
  accounts: {
    good: [0, 1, 10_000, as(3n, 3), [], [{ privateKey: KEY('11') }], as([{ privateKey: KEY('11'), main: 5, gas: 7n }], [{ privateKey: KEY('11'), main: 5n, gas: 7n }])],
    bad: [
      [-2, `option accounts: -2 is invalid. Allowed: ${ACCOUNTS}.`],
      [10_001, `option accounts: 10001 is invalid. Allowed: ${ACCOUNTS}.`],
      [[{ privateKey: '0x12' }], `option accounts[0].privateKey: "0x12" is invalid. Allowed: ${SECP_KEY}.`],
      [[{ privateKey: KEY('ff') }], `option accounts[0].privateKey: "${KEY('ff')}" is invalid. Allowed: ${SECP_KEY}.`],
      [[{ privateKey: KEY('11'), main: -1n }], 'option accounts[0].main: -1n is invalid. Allowed: a whole number from 0 to 1,000,000,000,000,000,000.'],
      [[{ privateKey: KEY('11'), mian: 1n }], 'option accounts[0].mian is unknown. Did you mean accounts[0].main?'],
      [[{ privateKey: KEY('11') }, { privateKey: KEY('11') }], `option accounts[1].privateKey: "${KEY('11')}" is invalid (the key of accounts[0]). Allowed: a key no other account has.`],
      [
        [{ privateKey: KEY('11'), main: 10n ** 18n }],
        `option accounts: [{"privateKey":"0x11111111111111111111111111111111111111111111111111111111111... is invalid (main balances of 1,000,050,000,000,000,000 in all). Allowed: balances that, with the native accounts' 10,000 tokens each, fit in the supplies: 1,000,000,000,000,000,000 main units and 1,000,000,000,000,000,000,000,000,000 wei of gas.`,
      ],
    ],
  },
  nativeAccounts: { good: [0, 10_000, as(2n, 2)], bad: [WHOLE('nativeAccounts', 10_001, '0', '10,000'), WHOLE('nativeAccounts', -1, '0', '10,000')] },
  // The word list and checksum are checked by validateDevnetOptions (below); the table's synchronous check takes any string.
  mnemonic: { good: [ABANDON], bad: [[12, `option mnemonic: 12 is invalid. Allowed: ${MNEMONIC}.`]] },
  automine: {
    good: [true, false],
    bad: [
      ['yes', 'option automine: "yes" is invalid. Allowed: true or false.'],
      [1, 'option automine: 1 is invalid. Allowed: true or false.'],
    ],
  },
  blockTime: {
    good: [0, 0.5, 86_400, as(6n, 6)],
    bad: [
      [-5, 'option blockTime: -5 is invalid. Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'],
      [0.0005, 'option blockTime: 0.0005 is invalid. Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'],
      [86_401, 'option blockTime: 86401 is invalid. Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'],
    ],
  },
  genesisTimestamp: {
    good: [0, 1_700_000_000, 2 ** 32 - 1, as(1_700_000_000n, 1_700_000_000)],
    bad: [WHOLE('genesisTimestamp', 2 ** 32, '0', '4,294,967,295'), WHOLE('genesisTimestamp', 1.5, '0', '4,294,967,295')],
  },
  clock: {
    good: ['wall', 'frozen', { step: 12 }, as({ step: 12n }, { step: 12 })],
    bad: [
      ['sometimes', `option clock: "sometimes" is invalid. Allowed: 'wall' or 'frozen', or { step } with step a whole number of seconds from 1 to 86,400.`],
      [{ step: 0 }, 'option clock.step: 0 is invalid. Allowed: a whole number from 1 to 86,400.'],
      [{ stpe: 1 }, 'option clock.stpe is unknown. Did you mean clock.step?'],
    ],
  },
  db: { good: [new MemoryLevel()], bad: [[{}, 'option db: {} is invalid. Allowed: an abstract-level database (memory-level, classic-level, ...).']] },
  state: {
    good: [{ version: 1 }],
    bad: [['x', 'option state: "x" is invalid. Allowed: a state document: an object (devnet.dumpState(), a decoded anvil_dumpState result, or an Anvil state).']],
  },
  unboundGas: {
    good: [{}, { deadline: 3600 }, as({ deadline: 3600n }, { deadline: 3600 })],
    bad: [
      [{ deadline: 0 }, 'option unboundGas.deadline: 0 is invalid. Allowed: a whole number from 1 to 4,294,967,295.'],
      [{ dedline: 5 }, 'option unboundGas.dedline is unknown. Did you mean unboundGas.deadline?'],
      [true, 'option unboundGas: true is invalid. Allowed: { deadline? } with deadline a whole number of seconds from 1 to 4,294,967,295.'],
    ],
  },
  // The shape only (ForkOptionError, an InvalidOptionError); no remote is contacted here. What the remote refuses: test/fork-options.test.ts.
  fork: {
    good: [
      { url: 'http://127.0.0.1:1' },
      { url: 'https://node.example', restUrl: 'http://127.0.0.1:2', cache: false, remote: { timeout: 1, retries: 0, backoff: 0 } },
      as({ url: 'http://127.0.0.1:1', blockNumber: 7n }, { url: 'http://127.0.0.1:1', blockNumber: 7 }),
    ],
    bad: [
      ['http://x', `option fork: "http://x" is invalid. Allowed: ${FORK}.`],
      [{}, 'option fork.url: undefined is invalid. Allowed: an http(s) URL of a JSON-RPC node.'],
      [{ url: 'ftp://x' }, 'option fork.url: "ftp://x" is invalid. Allowed: an http(s) URL of a JSON-RPC node.'],
      [{ url: 'http://x', restUrl: 'ws://x' }, `option fork.restUrl: "ws://x" is invalid. Allowed: an http(s) URL of the node's REST interface.`],
      [{ url: 'http://x', blockNumber: -1 }, 'option fork.blockNumber: -1 is invalid. Allowed: a whole number from 0 to 9,007,199,254,740,991.'],
      [{ url: 'http://x', cache: '' }, 'option fork.cache: "" is invalid. Allowed: a directory (a non-empty string), or false for no disk cache.'],
      [{ url: 'http://x', remote: { timeout: 0 } }, 'option fork.remote.timeout: 0 is invalid. Allowed: a whole number from 1 to 2,147,483,647.'],
      [{ url: 'http://x', remote: { retries: 101 } }, 'option fork.remote.retries: 101 is invalid. Allowed: a whole number from 0 to 100.'],
      [{ urll: 'http://x' }, 'option fork.urll is unknown. Did you mean fork.url?'],
    ],
  },
  minGasPrice: {
    good: [0n, as(1, 1n), 2n ** 64n - 1n],
    bad: [
      WHOLE('minGasPrice', -1, '0', '18,446,744,073,709,551,615'),
      WHOLE('minGasPrice', 1.5, '0', '18,446,744,073,709,551,615'),
      WHOLE('minGasPrice', 2n ** 64n, '0', '18,446,744,073,709,551,615'),
      [2 ** 64, 'option minGasPrice: 18446744073709552000 is invalid (a number above 2^53 - 1 may have lost digits: give a bigint). Allowed: a whole number from 0 to 18,446,744,073,709,551,615.'],
    ],
  },
  clientVersion: { good: ['hardhat', 'node'], bad: [['anvil', `option clientVersion: "anvil" is invalid. Allowed: 'hardhat' or 'node'.`]] },
  profile: { good: ['node', 'ethereum'], bad: [['hardhat', `option profile: "hardhat" is invalid. Allowed: 'node' or 'ethereum'.`]] },
  blockContext: { good: ['node', 'ethereum'], bad: [['geth', `option blockContext: "geth" is invalid. Allowed: 'node' or 'ethereum'.`]] },
  emptyStorage: { good: ['node', 'ethereum'], bad: [['zero', `option emptyStorage: "zero" is invalid. Allowed: 'node' or 'ethereum'.`]] },
  stateRoot: { good: ['zero', 'merkle'], bad: [['node', `option stateRoot: "node" is invalid. Allowed: 'zero' or 'merkle'.`]] },
  bookkeeperKey: {
    good: [KEY('11')],
    bad: [
      ['0x00', 'option bookkeeperKey: "0x00" is invalid. Allowed: a P-256 private key: 0x and 64 hex digits, not zero, below the curve order.'],
      [KEY('00'), `option bookkeeperKey: "${KEY('00')}" is invalid. Allowed: a P-256 private key: 0x and 64 hex digits, not zero, below the curve order.`],
    ],
  },
  bodyLimit: LIMIT('bodyLimit'),
  batchLimit: LIMIT('batchLimit'),
  batchResponseLimit: LIMIT('batchResponseLimit'),
  hexLimit: LIMIT('hexLimit'),
  jsonDepthLimit: LIMIT('jsonDepthLimit'),
  logsBlockRange: LIMIT('logsBlockRange'),
  logsResultLimit: LIMIT('logsResultLimit'),
  filterLimit: LIMIT('filterLimit'),
  subscriptionLimit: LIMIT('subscriptionLimit'),
  traceSizeLimit: LIMIT('traceSizeLimit'),
  traceTimeout: LIMIT('traceTimeout'),
  batchTraceTimeout: LIMIT('batchTraceTimeout'),
  stateLimit: LIMIT('stateLimit'),
  wsBufferLimit: LIMIT('wsBufferLimit'),
  mineLimit: LIMIT('mineLimit'),
  console: { good: [true, false, () => {}], bad: [['yes', 'option console: "yes" is invalid. Allowed: true or false, or a function of one line.']] },
  coverage: {
    good: [{}, { artifacts: 'artifacts', dir: 'coverage' }, { artifacts: ['a', 'b'] }],
    bad: [
      [
        true,
        'option coverage: true is invalid. Allowed: { artifacts?, dir? } with artifacts a path or a list of paths (project, build-info directory or solc standard-JSON output) and dir a directory.',
      ],
      [{ artifacts: '' }, 'option coverage.artifacts: "" is invalid. Allowed: a non-empty path, or a list of 1 to 100 paths.'],
      [{ dir: 1 }, 'option coverage.dir: 1 is invalid. Allowed: a non-empty path.'],
      [{ artifact: 'a' }, 'option coverage.artifact is unknown. Did you mean coverage.artifacts?'],
    ],
  },
  gasReport: {
    good: [{}, { artifacts: 'artifacts', dir: 'gas', print: false }, { artifacts: ['a', 'b'] }],
    bad: [
      [{ print: 'no' }, 'option gasReport.print: "no" is invalid. Allowed: true or false.'],
      [{ dir: '' }, 'option gasReport.dir: "" is invalid. Allowed: a non-empty path.'],
    ],
  },
  gasSnapshot: {
    good: [{}, { file: 'snapshots/gas.json', check: true, tolerance: 0.5 }],
    bad: [
      [{ tolerance: -1 }, 'option gasSnapshot.tolerance: -1 is invalid. Allowed: a percentage from 0 to 1,000,000.'],
      [{ check: 'yes' }, 'option gasSnapshot.check: "yes" is invalid. Allowed: true or false.'],
      [{ files: 'a' }, 'option gasSnapshot.files is unknown. Did you mean gasSnapshot.file?'],
    ],
  },
}

const PORT = (option: string): Row => ({
  good: [0, 8545, 65_535, as(8545n, 8545)],
  bad: [WHOLE(option, 65_536, '0', '65,535'), WHOLE(option, -1, '0', '65,535'), WHOLE(option, '8545', '0', '65,535')],
})

/** Every listen option. */
const LISTEN: { [K in keyof Required<ListenOptions>]: Row } = {
  host: { good: ['127.0.0.1', '::1', 'localhost'], bad: [['', 'option host: "" is invalid. Allowed: an interface address or name to bind (127.0.0.1, ::1, 0.0.0.0, localhost, ...).']] },
  rpcPort: PORT('rpcPort'),
  restPort: PORT('restPort'),
  rest: { good: [true, false], bad: [['yes', 'option rest: "yes" is invalid. Allowed: true or false.']] },
  log: { good: [() => {}], bad: [[1, 'option log: 1 is invalid. Allowed: a function of one line.']] },
  cors: {
    good: ['*', 'https://a.example', ['https://a.example'], [], false],
    bad: [
      [true, `option cors: true is invalid. Allowed: '*' (any origin) or an origin, or a list of origins, or false.`],
      [['https://a.example', ''], 'option cors[1]: "" is invalid. Allowed: an origin.'],
    ],
  },
  vhosts: {
    good: ['*', 'dev.local', ['a.example', 'b.example']],
    bad: [
      [[], `option vhosts: [] is invalid. Allowed: '*' or a host name, or a non-empty list of host names.`],
      ['', `option vhosts: "" is invalid. Allowed: '*' or a host name, or a non-empty list of host names.`],
    ],
  },
  explorer: {
    good: [true, false, {}, { artifacts: 'fixtures/artifacts' }, { artifacts: ['fixtures/artifacts', 'fixtures/coverage/build-info/branches.json'] }],
    bad: [
      [
        'yes',
        'option explorer: "yes" is invalid. Allowed: true or false, or { artifacts? } with artifacts an existing path (a Hardhat or Foundry project, an artifacts or build-info directory, or solc standard-JSON output), or a list of 1 to 100 such paths.',
      ],
      [{ artifacts: 'no/such/dir' }, 'option explorer.artifacts: "no/such/dir" is invalid (no such file or directory). Allowed: the path of an existing file or directory.'],
      [
        { artifacts: [] },
        'option explorer.artifacts: [] is invalid. Allowed: an existing path (a Hardhat or Foundry project, an artifacts or build-info directory, or solc standard-JSON output), or a list of 1 to 100 such paths.',
      ],
      [
        { artifacts: 7 },
        'option explorer.artifacts: 7 is invalid. Allowed: an existing path (a Hardhat or Foundry project, an artifacts or build-info directory, or solc standard-JSON output), or a list of 1 to 100 such paths.',
      ],
    ],
  },
}

/** Runs one table against its check. */
function table(name: string, rows: Record<string, Row>, rules: object, check: (options: unknown) => Record<string, unknown>) {
  describe(name, () => {
    it('covers every option the validator knows', () => {
      expect(Object.keys(rows).sort()).toEqual(Object.keys(rules).sort())
    })
    for (const [option, row] of Object.entries(rows)) {
      it(`${option}: accepted values, as the devnet receives them`, () => {
        for (const good of row.good) {
          const [given, normalised] = typeof good === 'object' && good !== null && 'given' in good ? [good.given, (good as unknown as { as: unknown }).as] : [good, good]
          expect(check({ [option]: given })[option], `${option}: ${String(given)}`).toEqual(normalised)
        }
      })
      it.each(row.bad)(`${option}: refuses %s`, (value, message) => {
        let thrown: unknown
        try {
          check({ [option]: value })
        } catch (err) {
          thrown = err
        }
        expect(thrown).toBeInstanceOf(InvalidOptionError)
        expect((thrown as Error).message).toBe(message)
      })
    }
  })
}

table('createDevnet options', DEVNET, DEVNET_OPTION_RULES, (o) => checkDevnetOptions(o) as Record<string, unknown>)
table('listen options', LISTEN, LISTEN_OPTION_RULES, (o) => validateListenOptions(o) as Record<string, unknown>)

describe('the error and the options object', () => {
  it('InvalidOptionError carries option, value, allowed and (for a suggestion) the nearest name', () => {
    const err = (() => {
      try {
        checkDevnetOptions({ chainId: -1 })
      } catch (e) {
        return e as InvalidOptionError
      }
    })()!
    expect(err).toMatchObject({ name: 'InvalidOptionError', option: 'chainId', value: -1, allowed: 'a whole number from 1 to 9,007,199,254,740,991', unknown: false })
  })

  it("numbers in messages are grouped as toLocaleString('en-US') groups them (without its ICU set-up)", () => {
    const values = [0, 7, -12, 999, 1_000, -65_535, 86_400, 4_294_967_295, Number.MAX_SAFE_INTEGER, 1.5, 10n ** 30n, -(10n ** 19n)]
    expect(values.map(grouped)).toEqual([
      '0',
      '7',
      '-12',
      '999',
      '1,000',
      '-65,535',
      '86,400',
      '4,294,967,295',
      '9,007,199,254,740,991',
      '1.5',
      '1,000,000,000,000,000,000,000,000,000,000',
      '-10,000,000,000,000,000,000',
    ])
  })

  it('unknown keys: the nearest known name, or the list of names when none is near', () => {
    expect(() => checkDevnetOptions({ chainID: 1 })).toThrow('option chainID is unknown. Did you mean chainId?')
    expect(() => checkDevnetOptions({ automining: true })).toThrow('option automining is unknown. Did you mean automine?')
    expect(() => validateListenOptions({ hots: 'x' })).toThrow('option hots is unknown. Did you mean host?')
    expect(() => checkDevnetOptions({ frobnicate: 1 })).toThrow(`option frobnicate is unknown. Allowed: ${Object.keys(DEVNET_OPTION_RULES).join(', ')}.`)
  })

  it('the options themselves: an object or nothing', () => {
    expect(checkDevnetOptions(undefined)).toEqual({})
    expect(() => checkDevnetOptions(5)).toThrow('options: 5 is invalid. Allowed: an object of createDevnet options.')
    expect(() => checkDevnetOptions(null)).toThrow('options: null is invalid. Allowed: an object of createDevnet options.')
    expect(() => validateListenOptions([])).toThrow('options: [] is invalid. Allowed: an object of listen options.')
  })

  it('the mnemonic: BIP-39 words and checksum', async () => {
    await expect(validateDevnetOptions({ mnemonic: ABANDON })).resolves.toEqual({ mnemonic: ABANDON })
    const refused = (mnemonic: string, reason: string) =>
      expect(validateDevnetOptions({ mnemonic })).rejects.toThrow(`option mnemonic: ${JSON.stringify(mnemonic)} is invalid (${reason}). Allowed: ${MNEMONIC}.`)
    await refused(ABANDON.replace(/about$/, 'abandon'), 'the checksum does not match')
    await refused(ABANDON.replace(/^abandon/, 'Abandon'), 'word 1, "Abandon", is not in the word list')
    await refused(ABANDON.replace(/about$/, 'aboot'), 'word 12, "aboot", is not in the word list')
    await refused('abandon about', '2 words')
    await refused(ABANDON.replace(' ', '  '), 'the words must be one space apart, without leading or trailing space')
  })
})

describe('through createDevnet and listen: nothing starts', () => {
  let devnet: Devnet | undefined
  afterEach(async () => {
    await devnet?.close()
    devnet = undefined
  })

  it("the issue's examples all fail naming the option, before the database is opened", async () => {
    // A database whose every method is a spy: the check looks at its shape, and nothing may call it.
    const db = Object.fromEntries(['open', 'close', 'get', 'batch', 'iterator'].map((m) => [m, vi.fn()]))
    const cases: [Record<string, unknown>, string][] = [
      [{ chainId: -1 }, 'option chainId: -1 is invalid. Allowed: a whole number from 1 to 9,007,199,254,740,991.'],
      [{ chainId: 1.5 }, 'option chainId: 1.5 is invalid. Allowed: a whole number from 1 to 9,007,199,254,740,991.'],
      [{ accounts: -2 }, `option accounts: -2 is invalid. Allowed: ${ACCOUNTS}.`],
      [{ clock: 'sometimes' }, `option clock: "sometimes" is invalid. Allowed: 'wall' or 'frozen', or { step } with step a whole number of seconds from 1 to 86,400.`],
      [{ blockTime: -5 }, 'option blockTime: -5 is invalid. Allowed: a number of seconds from 0 to 86,400, in whole milliseconds (0: off).'],
      [{ automine: 'yes' }, 'option automine: "yes" is invalid. Allowed: true or false.'],
      [
        { mnemonic: 'test test test test test test test test test test test test' },
        `option mnemonic: "test test test test test test test test test test test test" is invalid (the checksum does not match). Allowed: ${MNEMONIC}.`,
      ],
      [{ chainID: 1 }, 'option chainID is unknown. Did you mean chainId?'],
      [{ hardfork: 'homestead' }, `option hardfork: "homestead" is invalid. Allowed: ${HARDFORKS}.`],
      [{ hardfork: 'osaka' }, `option hardfork: "osaka" is invalid. Allowed: ${HARDFORKS}.`],
      [{ hardfork: 'amsterdam' }, `option hardfork: "amsterdam" is invalid. Allowed: ${HARDFORKS}.`],
    ]
    for (const [options, message] of cases) {
      const refusal = await createDevnet({ ...(options as DevnetOptions), db: db as never }).then(
        () => undefined,
        (err: unknown) => err,
      )
      expect(refusal, message).toBeInstanceOf(InvalidOptionError)
      expect((refusal as Error).message).toBe(message)
    }
    for (const method of Object.values(db)) expect(method).not.toHaveBeenCalled()
  })

  it('minGasPrice as a whole number is the same as the bigint: the pool asks 1 gwei, and sends work', async () => {
    devnet = await createDevnet({ minGasPrice: 1, accounts: 2, nativeAccounts: 0, console: false })
    expect(await devnet.rpc('eth_gasPrice')).toBe('0x3b9aca00')
    const [from, to] = devnet.accounts
    const hash = await devnet.rpc('eth_sendTransaction', [{ from: from!.address, to: to!.address, value: '0x1', gasPrice: '0x3b9aca00' }])
    expect(await devnet.rpc('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
  })

  it("a valid mnemonic of its own derives its keys (BIP-39 test vector: \"abandon … about\", m/44'/60'/0'/0/0)", async () => {
    devnet = await createDevnet({ mnemonic: ABANDON, accounts: 1, nativeAccounts: 0, console: false })
    expect(devnet.accounts[0]!.address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
  })

  it('listen: a bad option binds nothing, and a good listen afterwards starts the servers', async () => {
    devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false })
    await expect(devnet.listen({ rpcPort: 65_536 })).rejects.toThrow('option rpcPort: 65536 is invalid. Allowed: a whole number from 0 to 65,535.')
    await expect(devnet.listen({ reset: true } as never)).rejects.toThrow('option reset is unknown. Did you mean rest?')
    const { rpcUrl } = await devnet.listen({ rest: false })
    const answer = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
  })
})
