/**
 * The CLI's warm-up: once it has printed its URLs, it loads what the first transaction
 * would load (the EVM's chunk, the EVM itself, libsecp256k1's binding) while the user's
 * test runner is still starting, so that its first deployment does not pay for them
 * (docs/performance.md, "CLI start"). It changes nothing: the EVM is built by a call
 * (`eth_call` of the zero address, at the latest block, whose result is dropped), and no
 * block, transaction or state is written. A fork's devnet skips it: its call would read
 * the zero address from the remote.
 */
import type { Devnet } from '../index.ts'
import { libsecp256k1 } from '../util/secp256k1.ts'

/** The zero address, called with no data: the cheapest call that builds the EVM. */
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * How long after the URLs are printed the warm-up starts, in milliseconds: a client
 * already polling for the server (a CI script's wait loop, the peer bench's 5 ms polls)
 * gets its first answer before the warm-up's module loading (about 40 ms of the main
 * thread) holds the event loop.
 */
const WARM_UP_DELAY_MS = 25

/**
 * Starts the warm-up of `devnet` {@link WARM_UP_DELAY_MS} after the call. The promise
 * resolves when it is done and never rejects: a failure is left to the first transaction,
 * which loads the same and reports it.
 */
export function warmUp(devnet: Devnet): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      try {
        libsecp256k1()
      } catch {
        // Reported by the first signature recovery, which loads it again.
      }
      devnet.rpcUntyped('eth_call', [{ to: ZERO_ADDRESS, data: '0x' }, 'latest']).then(
        () => resolve(),
        () => resolve(),
      )
    }, WARM_UP_DELAY_MS)
  })
}
