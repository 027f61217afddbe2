/**
 * The one error base (issue 33): every error class of src/ extends DualnetError with a
 * code of the registry, every registered code has an answer on each surface (JSON-RPC,
 * REST, EIP-1193), and an error of each class answers on JSON-RPC and REST as it did
 * before the tables (the `instanceof` chains of toRpcError and the router, at 3ccb153).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DUALNET_ERROR_CODES, dualnetErrorCodes } from '../src/errors/codes.ts'
import { DualnetError, type DualnetErrorCode } from '../src/errors/base.ts'
import { RPC_ERROR_CONVENTIONS } from '../src/rpc/errorCodes.ts'
import { REST_ERROR_CONVENTIONS, restErrorOf } from '../src/rest/errorCodes.ts'
import { EIP1193_ERROR_CONVENTIONS, DevnetClosedError } from '../src/devnet/providerErrors.ts'
import { toRpcError } from '../src/rpc/dispatch.ts'
import { RpcError, RpcErrorCode } from '../src/rpc/errors.ts'
import { RestError, RestErrorCode } from '../src/rest/errors.ts'
import { SubscriptionLimitError } from '../src/rpc/subscriptions.ts'
import { RestNotFoundError } from '../src/devnet/types.ts'
import { InvalidOptionError } from '../src/errors/invalidOption.ts'
import { ForkOptionError } from '../src/fork/optionError.ts'
import { InvalidControlError } from '../src/controls/controls.ts'
import { FixtureAnonymousFunctionError } from '../src/devnet/fixtures.ts'
import { ExecutionFailedError, TransactionRejectedError, UnknownBlockError } from '../src/core/errors.ts'
import { ExecutionAbortedError, ExecutionTimeoutError } from '../src/evm/pacer.ts'
import { TraceTooLargeError } from '../src/evm/tracing/tracer.ts'
import { TraceUnavailableError } from '../src/evm/tracing/tracer.ts'
import { ChainMismatchError, CorruptDatabaseError, PersistenceError, UnsupportedVersionError } from '../src/persistence/errors.ts'
import { InvalidAddressError } from '../src/native/address.ts'
import { InvalidTransactionError } from '../src/native/transaction.ts'
import { DecodeError } from '../src/native/binaryReader.ts'
import { Eip155DecodeError } from '../src/native/eip155Envelope.ts'
import { SignatureVerificationError } from '../src/native/program.ts'
import { InvalidPublicKeyError } from '../src/native/publicKey.ts'
import { InvalidProgramError } from '../src/native/programParser.ts'
import { ScriptError } from '../src/native/script.ts'
import { InvalidTokenCallError, UnsupportedScriptError } from '../src/native/scriptErrors.ts'
import { NativeExecutionError } from '../src/native/tokenContract.ts'
import { ForkRemoteError } from '../src/fork/remote.ts'
import { RemoteErrorAnswer } from '../src/fork/history.ts'
import { GasSnapshotMismatchError } from '../src/gas/snapshots.ts'
import { CoverageError } from '../src/coverage/buildInfo.ts'
import { ExplorerRequestError } from '../src/explorer/api/errors.ts'
import { RemoteRestErrorAnswer } from '../src/fork/restHistory.ts'
import { NotForkedError } from '../src/fork/source.ts'
import { ForkMiss } from '../src/fork/miss.ts'

const ROOT = join(import.meta.dirname, '..')
const SERVER = RpcErrorCode.ServerError
const INTERNAL = RestErrorCode.InternalError

/** One error of a class, with its JSON-RPC error object and REST `Error`/`Result` as answered before the tables. */
interface Case {
  readonly err: DualnetError
  readonly rpc: { code: number; message: string; data?: unknown }
  /** `undefined`: no envelope (HTTP 404). */
  readonly rest: { code: number; result: unknown } | undefined
}

/** An error whose JSON-RPC answer is -32000 and REST answer 45001, both with its message. */
function plain(err: DualnetError): Case {
  return { err, rpc: { code: SERVER, message: err.message }, rest: { code: INTERNAL, result: err.message } }
}

const cases: Case[] = [
  {
    err: new RpcError(-32602, 'invalid argument 0: bad', { data: { param: 'address' } }),
    rpc: { code: -32602, message: 'invalid argument 0: bad', data: { param: 'address' } },
    rest: { code: INTERNAL, result: 'invalid argument 0: bad' },
  },
  { err: new SubscriptionLimitError('too many subscriptions'), rpc: { code: SERVER, message: 'too many subscriptions' }, rest: { code: INTERNAL, result: 'too many subscriptions' } },
  { err: new DevnetClosedError(), rpc: { code: 4900, message: 'the devnet is closed' }, rest: { code: INTERNAL, result: 'the devnet is closed' } },
  { err: new RestError(RestErrorCode.InvalidParams), rpc: { code: SERVER, message: 'INVALID PARAMS' }, rest: { code: 42002, result: '' } },
  { err: new RestError(RestErrorCode.Unknown, 'nonce too low'), rpc: { code: SERVER, message: 'INTERNAL ERROR, ErrUnknown' }, rest: { code: -1, result: 'nonce too low' } },
  { err: new RestNotFoundError('404 page not found: GET /x'), rpc: { code: SERVER, message: '404 page not found: GET /x' }, rest: undefined },
  plain(new InvalidOptionError('chainId', -1, 'a whole number from 1 to 9')),
  plain(new ForkOptionError('fork.url', 'x', 'an http(s) URL')),
  plain(new InvalidControlError('no snapshot 0x9')),
  plain(new FixtureAnonymousFunctionError()),
  plain(new TransactionRejectedError('nonce too low', { restCode: 45002 })),
  {
    err: new ExecutionFailedError('execution reverted', 'revert', Uint8Array.of(0x08, 0xc3, 0x79, 0xa0)),
    rpc: { code: 3, message: 'execution reverted', data: '0x08c379a0' },
    rest: { code: INTERNAL, result: 'execution reverted' },
  },
  plain(new ExecutionFailedError('out of gas', 'OUT_OF_GAS', new Uint8Array())),
  { err: new UnknownBlockError('block 9 is not known'), rpc: { code: SERVER, message: 'header not found' }, rest: { code: INTERNAL, result: 'block 9 is not known' } },
  plain(new ExecutionTimeoutError()),
  plain(new ExecutionAbortedError('the devnet is closing')),
  plain(new TraceTooLargeError('trace too large')),
  plain(new TraceUnavailableError('transaction 0x1 not found')),
  plain(new PersistenceError('not a state document')),
  plain(new ChainMismatchError('chain id 1 vs 2')),
  plain(new UnsupportedVersionError('version 9')),
  plain(new CorruptDatabaseError('bad entry')),
  plain(new GasSnapshotMismatchError('.gas-snapshot.json', [{ name: 'transfer', before: 51_000n, after: 52_000n }], 0)),
  plain(new CoverageError('coverage is off')),
  plain(new ExplorerRequestError('a hash is 64 hex digits, with or without 0x')),
  { err: new InvalidAddressError('invalid address'), rpc: { code: -32602, message: 'invalid address' }, rest: { code: INTERNAL, result: 'invalid address' } },
  // The node's convention where it has one; routes converted these themselves before and still do (rest/sendNative.ts, chain/nativeIntake.ts).
  { err: new InvalidTransactionError('unsupported transaction version 1'), rpc: { code: SERVER, message: 'unsupported transaction version 1' }, rest: { code: 43001, result: '' } },
  plain(new DecodeError('unexpected end', 6)),
  plain(new Eip155DecodeError('rlp: expected input list')),
  {
    err: new SignatureVerificationError('signature verification failed'),
    rpc: { code: SERVER, message: 'transaction verify signature fail' },
    rest: { code: 45021, result: 'transaction verify signature fail' },
  },
  plain(new InvalidPublicKeyError('not on the curve')),
  plain(new InvalidProgramError('wrong program')),
  plain(new ScriptError('expected a push', 2)),
  plain(new UnsupportedScriptError('APPCALL (0x67) at offset 3')),
  plain(new InvalidTokenCallError('main', 'transfer', 'negative amount')),
  plain(new NativeExecutionError('balance too low')),
  plain(new ForkRemoteError('http://127.0.0.1:1', { method: 'eth_getBalance', params: ['0x01', '0x64'] }, 'ECONNREFUSED (4 attempts)')),
  {
    err: new RemoteErrorAnswer({ code: -32000, message: 'transaction type not supported', data: '0x' }),
    rpc: { code: -32000, message: 'transaction type not supported', data: '0x' },
    rest: { code: INTERNAL, result: 'transaction type not supported' },
  },
  {
    err: new RemoteErrorAnswer({ code: -32005, message: 'query returned more than 10000 results' }),
    rpc: { code: -32005, message: 'query returned more than 10000 results' },
    rest: { code: INTERNAL, result: 'query returned more than 10000 results' },
  },
  {
    err: new RemoteRestErrorAnswer('/api/v1/block/details/height/9', 44003, ''),
    rpc: { code: SERVER, message: 'fork: the remote answered GET /api/v1/block/details/height/9 with error 44003' },
    rest: { code: 44003, result: '' },
  },
  plain(new ForkMiss('account 0x01', async () => {})),
  plain(new NotForkedError('main-token balances')),
]

/** Every error class declared in src/ (one that extends a class named …Error), but the base itself. */
function errorClassesInSource(): string[] {
  const names: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/^(?:export )?(?:abstract )?class (\w+) extends (\w+)/gm)) {
          if (/Error$/.test(m[2]!) && m[1] !== 'DualnetError') names.push(m[1]!)
        }
      }
    }
  }
  walk(join(ROOT, 'src'))
  return names.sort()
}

describe('the error registry', () => {
  it('has an answer for every code on every surface, and no answer for a code it lacks', () => {
    for (const table of [RPC_ERROR_CONVENTIONS, REST_ERROR_CONVENTIONS, EIP1193_ERROR_CONVENTIONS]) {
      expect(Object.keys(table).sort()).toEqual([...dualnetErrorCodes].sort())
    }
    for (const code of dualnetErrorCodes) {
      const rpc = RPC_ERROR_CONVENTIONS[code]
      expect(rpc.code === 'own' || Number.isInteger(rpc.code), code).toBe(true)
      const rest = REST_ERROR_CONVENTIONS[code]
      expect('http' in rest || rest.error === 'own' || Number.isInteger(rest.error), code).toBe(true)
      const eip1193 = EIP1193_ERROR_CONVENTIONS[code]
      expect(eip1193 === 'rpc' || Number.isInteger(eip1193), code).toBe(true)
    }
  })

  it('names a docs page that exists for every code', () => {
    for (const code of dualnetErrorCodes) {
      const file = DUALNET_ERROR_CODES[code].docsPath.split('#')[0]!
      expect(existsSync(join(ROOT, file)), `${code}: ${file}`).toBe(true)
    }
  })

  it('is what every error class of src/ carries: each extends DualnetError with a code whose registry entry names it', () => {
    const declared = errorClassesInSource()
    const covered = new Set(cases.map((c) => c.err.name))
    for (const name of declared) expect(covered.has(name), `${name} has a case in this test`).toBe(true)
    const registered = new Set<string>(Object.values(DUALNET_ERROR_CODES).map((info) => info.className))
    for (const name of declared) expect(registered.has(name), `${name} is in the registry`).toBe(true)
    for (const { err } of cases) {
      expect(err).toBeInstanceOf(DualnetError)
      expect(DUALNET_ERROR_CODES[err.dualnetCode].className).toBe(err.name)
      expect(err.docsPath).toBe(DUALNET_ERROR_CODES[err.dualnetCode].docsPath)
    }
    // Every code but none is carried by some error above.
    const carried = new Set<DualnetErrorCode>(cases.map((c) => c.err.dualnetCode))
    expect(dualnetErrorCodes.filter((code) => !carried.has(code))).toEqual([])
  })

  it('leaves no class of src/ extending Error itself, but DualnetError', () => {
    const direct: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (entry.name.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/^(?:export )?(?:abstract )?class (\w+) extends Error\b/gm)) direct.push(m[1]!)
      }
    }
    walk(join(ROOT, 'src'))
    expect(direct).toEqual(['DualnetError'])
  })
})

describe('an error of each class', () => {
  it.each(cases.map((c) => [c.err.name, c] as const))('%s answers on JSON-RPC as before', (_name, { err, rpc }) => {
    const answer = toRpcError(err)
    expect(answer).toBeInstanceOf(RpcError)
    expect(answer.toJSON()).toEqual(rpc)
    // The original stays reachable: as is, or as the cause.
    expect(answer === err || answer.cause === err).toBe(true)
  })

  it.each(cases.map((c) => [c.err.name, c] as const))('%s answers on REST as before', (_name, { err, rest }) => {
    expect(restErrorOf(err)).toEqual(rest)
  })

  it('answers as before when it is not dualnet’s: -32000 and 45001 with its text', () => {
    expect(toRpcError(new TypeError('x is not a function')).toJSON()).toEqual({ code: SERVER, message: 'x is not a function' })
    expect(toRpcError('thrown text').toJSON()).toEqual({ code: SERVER, message: 'thrown text' })
    expect(restErrorOf(new TypeError('x is not a function'))).toEqual({ code: INTERNAL, result: 'x is not a function' })
  })

  it('keeps its cause, and gives the cause’s text as details (viem’s BaseError)', () => {
    const low = new DecodeError('unexpected end', 6)
    const err = new InvalidTransactionError(low.message, { cause: low })
    expect(err.cause).toBe(low)
    expect(err.details).toBe('unexpected end at offset 6')
    expect(err.walk((e) => e instanceof DecodeError)).toBe(low)
    expect(err.shortMessage).toBe(err.message)
    // No cause given: no `cause` property, as with Error.
    expect('cause' in new InvalidControlError('x')).toBe(false)
    expect(new InvalidControlError('x').details).toBeUndefined()
  })

  it('keeps the EIP-1193 code of a closed devnet: 4900, an RpcError', () => {
    const err = new DevnetClosedError()
    expect(err).toBeInstanceOf(RpcError)
    expect(err.toJSON()).toEqual({ code: 4900, message: 'the devnet is closed' })
    expect(EIP1193_ERROR_CONVENTIONS[err.dualnetCode]).toBe(4900)
  })
})
