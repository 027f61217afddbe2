/**
 * Shared pieces of the fuzz tests (test/fuzz-rpc.test.ts, test/fuzz-rest.test.ts and
 * their long runs under `npm run test:stress`): the run settings, value generators
 * biased towards what parsers get wrong (near-miss hex, huge numbers, wrong arity,
 * prototype keys), the chain fingerprint that "changes nothing" is checked against,
 * and the check that a failure is one of the devnet's own errors, not a crash.
 * Not a test file itself: vitest only collects `*.test.ts`.
 */
import fc from 'fast-check'
import type { Devnet } from '../src/index.ts'
import { chainOf } from '../src/devnet/provider.ts'

/**
 * Run settings of a target whose default-suite figure is `defaultRuns`:
 * `DUALNET_FUZZ_RUNS` sets the cases per target outright (a long run),
 * `DUALNET_FUZZ_SCALE` multiplies the defaults (`npm run test:stress` uses 3), and
 * `DUALNET_FUZZ_SEED` fixes the seed (default 1337, so CI is reproducible; a failure
 * prints the seed and path that replay it).
 */
export function fuzzSettings(defaultRuns: number): { numRuns: number; seed: number } {
  const scale = Number(process.env.DUALNET_FUZZ_SCALE ?? 1)
  const runs = Math.round(Number(process.env.DUALNET_FUZZ_RUNS ?? defaultRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1)))
  const seed = Number(process.env.DUALNET_FUZZ_SEED ?? 1337)
  return { numRuns: Number.isSafeInteger(runs) && runs > 0 ? runs : defaultRuns, seed: Number.isSafeInteger(seed) ? seed : 1337 }
}

const HEX_DIGITS = '0123456789abcdefABCDEF'.split('')
const hexDigits = (min: number, max: number) => fc.array(fc.constantFrom(...HEX_DIGITS), { minLength: min, maxLength: max }).map((a) => a.join(''))

/**
 * Strings that are almost what a hex parser accepts: right and wrong lengths, leading
 * zeros, no or upper-case prefix, odd length, a stray character, sign, padding, very long.
 * `known` adds real values (addresses, hashes) so that valid inputs reach deeper code.
 */
export function nearMissHex(known: readonly string[] = []): fc.Arbitrary<string> {
  const real = known.length > 0 ? [fc.constantFrom(...known)] : []
  return fc.oneof(
    ...real,
    ...real,
    fc.bigInt({ min: 0n, max: 2n ** 70n }).map((n) => `0x${n.toString(16)}`),
    fc.nat({ max: 40 }).map((n) => `0x${n.toString(16)}`),
    hexDigits(0, 8).map((d) => `0x${d}`),
    fc.constantFrom(20, 32, 19, 21, 31, 33, 64, 65).chain((n) => hexDigits(n * 2, n * 2).map((d) => `0x${d}`)),
    hexDigits(1, 6).map((d) => `0x0${d}`),
    hexDigits(1, 70).map((d) => d),
    hexDigits(1, 8).map((d) => `0X${d}`),
    hexDigits(1, 9).map((d) => `0x${d}g`),
    hexDigits(1, 8).map((d) => `-0x${d}`),
    hexDigits(1, 8).map((d) => ` 0x${d} `),
    fc.constantFrom('0x', '0x0', '0x00', '0x-1', '0x+1', '0x1.5', '0x 1', '0x\u0000', '0xZZ', '', '0', '00', 'x1', '0x1e3'),
    hexDigits(63, 70).map((d) => `0x${d}`),
    fc.integer({ min: 1, max: 4096 }).map((n) => `0x${'f'.repeat(n)}`),
    fc.integer({ min: 1, max: 2048 }).map((n) => `0x${'00'.repeat(n)}`),
  )
}

/**
 * Hex (without 0x) of one of `sources` (hex without 0x) with one byte flipped, cut
 * short, extended, or with a byte put in front: near-miss encodings of real
 * transactions, for the decoders.
 */
export function mutatedHex(sources: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...sources), fc.nat(), fc.integer({ min: 1, max: 255 }), fc.constantFrom('flip', 'cut', 'append', 'prefix')).map(([hex, at, byte, how]) => {
    const bytes = Buffer.from(hex, 'hex')
    const i = at % bytes.length
    if (how === 'cut') return bytes.subarray(0, i).toString('hex')
    if (how === 'append') return Buffer.concat([bytes, Buffer.alloc((byte % 8) + 1, byte)]).toString('hex')
    if (how === 'prefix') return Buffer.concat([Buffer.from([byte]), bytes]).toString('hex')
    bytes[i] = bytes[i]! ^ byte
    return bytes.toString('hex')
  })
}

/** The node's REST form of a signed EIP-155 transaction (0x-hex RLP): `00 d3` ‖ var-bytes(RLP), hex without 0x (reference §2.4). */
export function eip155Envelope(raw: string): string {
  const rlp = raw.slice(2)
  const n = rlp.length / 2
  const length = n < 0xfd ? n.toString(16).padStart(2, '0') : `fd${Buffer.from([n & 0xff, n >> 8]).toString('hex')}`
  return `00d3${length}${rlp}`
}

/** Numbers and number-like values at the edges: huge, negative, fractional, non-finite, bigint, digit strings. */
export const hugeNumbers: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    2 ** 31,
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    2 ** 64,
    1e21,
    1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    0.5,
    -0.5,
  ),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }),
  fc.bigInt({ min: 0n, max: 2n ** 300n }).map((n) => `0x${n.toString(16)}`),
  fc.bigInt({ min: 0n, max: 2n ** 300n }).map((n) => n.toString()),
  fc.constantFrom('0x' + 'f'.repeat(64), '0x1' + '0'.repeat(64), '0x' + 'f'.repeat(16), '0xffffffff', '0x100000000', '0x20000000000000'),
)

/** Object keys an attacker or a careless client sends: prototype names, the method's own fields, odd ones. */
const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'from',
  'to',
  'gas',
  'gasPrice',
  'value',
  'data',
  'input',
  'nonce',
  'type',
  'chainId',
  'fromBlock',
  'toBlock',
  'address',
  'topics',
  'blockHash',
  'blockNumber',
  'requireCanonical',
  'main',
  'gas',
  'Action',
  'Version',
  'Data',
  '',
  ' ',
  'jsonrpc',
  'id',
  'method',
  'params',
]

/**
 * Any value a JSON-RPC parameter could be: JSON values, near-miss hex, huge numbers,
 * tags, objects with the fields parsers look at (and prototype keys), nested arrays.
 */
export function paramValue(known: readonly string[]): fc.Arbitrary<unknown> {
  const hex = nearMissHex(known)
  const tags = fc.constantFrom('latest', 'earliest', 'pending', 'safe', 'finalized', 'LATEST', 'Latest', 'head', 'null', 'undefined', 'true')
  const leaf: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 4, arbitrary: hex },
    { weight: 2, arbitrary: hugeNumbers },
    { weight: 1, arbitrary: tags },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, '', [], {}) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  )
  // Call and filter objects whose fields are mostly of the right kind, so that parsing gets past the first field.
  const field = fc.oneof({ weight: 3, arbitrary: hex }, { weight: 1, arbitrary: hugeNumbers }, { weight: 1, arbitrary: fc.constantFrom(null, undefined, tags) })
  const callObject = fc.record({ from: field, to: field, gas: field, gasPrice: field, value: field, data: field, input: field, nonce: field }, { requiredKeys: [] })
  const filterObject = fc.record(
    {
      fromBlock: fc.oneof(hex, tags),
      toBlock: fc.oneof(hex, tags),
      blockHash: hex,
      address: fc.oneof(hex, fc.array(hex, { maxLength: 3 })),
      topics: fc.array(fc.oneof(hex, fc.constant(null), fc.array(hex, { maxLength: 2 })), { maxLength: 5 }),
    },
    { requiredKeys: [] },
  )
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: callObject },
      { weight: 1, arbitrary: filterObject },
      { weight: 2, arbitrary: objectOf(fc.constantFrom(...KEYS), tie('tree')) },
      { weight: 1, arbitrary: fc.array(tie('tree'), { maxLength: 4 }) },
    ),
  }))
  return tree
}

/** Objects built key by key with `Object.defineProperty`, so `__proto__` becomes an own key as JSON.parse makes it. */
function objectOf(keys: fc.Arbitrary<string>, values: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(keys, values), { maxLength: 5 }).map((entries) => {
    const o: Record<string, unknown> = {}
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
    return o
  })
}

/**
 * The params of one call: mostly an argument list of the method's arity (`arity`, when
 * known, as [required, max]), else any length, or a wrong non-array value.
 */
export function paramsOf(known: readonly string[], arity?: readonly [number, number]): fc.Arbitrary<unknown> {
  const value = paramValue(known)
  const right = arity === undefined ? [] : [{ weight: 12, arbitrary: fc.array(value, { minLength: arity[0], maxLength: arity[1] }) }]
  return fc.oneof(...right, { weight: 4, arbitrary: fc.array(value, { maxLength: 5 }) }, { weight: 1, arbitrary: value })
}

/**
 * What "the chain did not change" compares: height, head hash, pool size, the
 * mining mode and every account record (nonce, main, gas, code hash) at the head. Reads the ledger
 * directly, so it is cheap enough to take around every fuzz case.
 */
export function fingerprint(devnet: Devnet): string {
  const chain = chainOf(devnet)
  const accounts: string[] = []
  for (const key of chain.world.accountKeys()) {
    const a = chain.world.getAccount(key, chain.height)
    accounts.push(`${key}:${a.nonce}:${a.main}:${a.gas}:${a.codeHash ?? ''}`)
  }
  accounts.sort()
  return `${chain.height}|${Buffer.from(chain.latest.hash).toString('hex')}|${chain.mempool.size}|automine ${chain.automine}|${accounts.join(',')}`
}

/** JavaScript's own errors: a failure caused by one of these is a crash inside the devnet, not a refusal. */
const CRASHES = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError]

/** The JavaScript error in `err`'s cause chain, if any (a bug the fuzzer found). */
export function crashIn(err: unknown): Error | undefined {
  const seen = new Set<unknown>()
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e)
    if (CRASHES.some((C) => e instanceof C)) return e as Error
  }
  return undefined
}

/** Whether `text` leaks an internal detail (a stack frame or a file path). */
export function leaksInternals(text: string): boolean {
  return /\n\s+at |\/work\/|node_modules|file:\/\/|\.ts:\d+/.test(text)
}

/** Rejects after `ms` if `promise` has not settled: the "answer within bounded time" property. */
export async function within<T>(ms: number, promise: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what()}`)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Collects unhandled rejections and process warnings while a fuzz target runs: a
 * warning is Node noticing something wrong that still "worked" (a timer delay that
 * overflowed to 1 ms, a listener leak), which an answer alone would not show.
 */
export function watchUnhandled(): { readonly count: number; stop(): void; reasons: unknown[] } {
  const reasons: unknown[] = []
  const onRejection = (reason: unknown) => reasons.push(reason)
  process.on('unhandledRejection', onRejection)
  // Wrapped rather than listened to: the test runner may take 'warning' events for itself.
  const emitWarning = process.emitWarning
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    reasons.push(typeof warning === 'string' ? warning : `${warning.name}: ${warning.message}`)
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest)
  } as typeof process.emitWarning
  return {
    get count() {
      return reasons.length
    },
    reasons,
    stop: () => {
      process.off('unhandledRejection', onRejection)
      process.emitWarning = emitWarning
    },
  }
}

/** A short rendering of any value (bigints, undefined, long strings) for counterexample messages. */
export function show(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v === undefined ? '<undefined>' : v))
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text
}
