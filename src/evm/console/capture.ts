/**
 * Capture of Solidity `console.log` calls: the CALLs and STATICCALLs that
 * hardhat/console.sol and forge-std's console/console2 make to the console address
 * 0x000000000000000000636F6e736F6c652e6c6f67 (the bytes of "console.log"). On the
 * real chain that address is an empty account, so the call runs exactly as any call
 * to an empty account: the capture only copies the call data, it never changes the
 * frame (gas, state, return data). Installed on an EVM only when the devnet's
 * `console` option is on; without it the EVM carries no listener at all.
 */
import type { EVM, Message } from '@ethereumjs/evm'

/** The console address, 20 bytes: "console.log" in ASCII, left-padded with zeros. */
export const CONSOLE_ADDRESS = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0x63, 0x6f, 0x6e, 0x73, 0x6f, 0x6c, 0x65, 0x2e, 0x6c, 0x6f, 0x67])

/** Whether `address` (20 bytes) is the console address; the last byte first, so that most addresses cost one comparison. */
export function isConsoleAddress(address: Uint8Array): boolean {
  if (address[19] !== 0x67) return false
  for (let i = 0; i < 19; i++) if (address[i] !== CONSOLE_ADDRESS[i]) return false
  return true
}

/** The console calls of the execution under way, in call order. */
export interface ConsoleCapture {
  /** Returns the call data captured since the last take (selector included), and starts afresh; `undefined` when there was none. */
  take(): Uint8Array[] | undefined
}

/**
 * Makes `evm` record the data of every call frame addressed to the console address
 * (ethereumjs' `beforeMessage` event, emitted once per frame: one comparison per
 * frame, nothing per opcode). Frames that revert keep their lines, as Hardhat
 * prints them (its console logger collects every call to the address, reverted or not).
 */
export function captureConsoleCalls(evm: EVM): ConsoleCapture {
  let calls: Uint8Array[] | undefined
  evm.events.on('beforeMessage', (message: Message) => {
    const to = message.to
    if (to === undefined || !isConsoleAddress(to.bytes)) return
    ;(calls ??= []).push(message.data.slice())
  })
  return {
    take() {
      const taken = calls
      calls = undefined
      return taken
    },
  }
}
