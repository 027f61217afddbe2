/**
 * createDevnet(): one ledger, its EVM, and the JSON-RPC surface, as function calls
 * and on a socket (design/ARCHITECTURE.md).
 *
 * Start-up loads only what the first request needs: fastify and the server plugins
 * are imported by `listen()`, dev keys of the default mnemonic come from a table,
 * key arithmetic runs on Node's native curves, and without a `db` option nothing is
 * persisted.
 *
 * The parts, by job: devnet/types.ts (the public types), devnet/create.ts
 * (composition: options to ledger and contexts), devnet/provider.ts (the running
 * devnet: EIP-1193 provider, REST client, controls, reset, close), devnet/servers.ts
 * (`listen()`'s servers).
 */
export { createDevnet } from './devnet/create.ts'
export { RestNotFoundError } from './devnet/types.ts'
export type { DevAccount, Devnet, DevnetUrls, NativeDevAccount, RequestArguments, RestClient } from './devnet/types.ts'
