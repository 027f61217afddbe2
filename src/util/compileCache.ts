/**
 * Node's on-disk compile cache (V8 code cache, Node ≥ 22.8: `module.enableCompileCache()`)
 * for the modules loaded after this one: the CLI's own, fastify, and the EVM and its
 * packages on the first transaction. A fresh CLI process then deserialises their
 * compiled code instead of parsing and compiling it again.
 * Imported first by the CLI's entry (src/cli.ts), an application. Not by the library:
 * the cache is process-wide, and in a user's test process it would also hold their own
 * modules, whose coverage (V8's, as vitest collects it) would then miss block counts;
 * such users can set NODE_COMPILE_CACHE themselves.
 *
 * Node's own switches apply: `NODE_COMPILE_CACHE=<dir>` moves the cache (default
 * `<os.tmpdir()>/node-compile-cache`) and `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 * Not enabled while V8 coverage is collected through `NODE_V8_COVERAGE` (c8, `node
 * --test --experimental-test-coverage`): functions read from the cache have no
 * block-level coverage (Node's documented limitation). A no-op on Node 20, which has
 * no such API; never throws (Node reports failures in its return value).
 */
import * as nodeModule from 'node:module'

const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache

if (enableCompileCache !== undefined && process.env.NODE_V8_COVERAGE === undefined) enableCompileCache()
