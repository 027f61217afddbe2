import { defineMethod } from '../declare.ts'

/**
 * debug_freeOSMemory: null, after a full garbage collection when Node runs with
 * `--expose-gc` (V8's `gc()`); without it, nothing more is done: V8 gives memory back
 * to the operating system on its own, and no API lets a server force it. go-ethereum
 * calls Go's runtime/debug.FreeOSMemory; reth and Anvil answer null without acting
 * (foundry crates/anvil/src/eth/api.rs `debug_free_os_memory`).
 */
export const debug_freeOSMemory = defineMethod({
  name: 'debug_freeOSMemory',
  params: [],
  fork: { kind: 'local' },
  handler: () => {
    const gc = (globalThis as { gc?: () => void }).gc
    if (typeof gc === 'function') gc()
    return null
  },
})
