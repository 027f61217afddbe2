/**
 * Printing console.log lines (issue 9): the chain hands the call data an execution
 * captured (ExecutionOutcome.consoleCalls) to the devnet's `console` sink, one line
 * per call, in order. The decoder (src/evm/console/format.ts and its ABI library) is
 * loaded on the first console call only.
 */

/** Receives one console.log line (no trailing newline). */
export type ConsoleSink = (line: string) => void

let formatting: Promise<typeof import('../evm/console/format.ts')> | undefined

/**
 * Formats `calls` as Hardhat does and gives each line to `sink`. Calls that are not
 * console.log overloads print nothing. A sink that throws does not disturb the
 * execution that logged: its error is dropped.
 */
export async function printConsoleCalls(sink: ConsoleSink, calls: readonly Uint8Array[]): Promise<void> {
  const { formatConsoleCall } = await (formatting ??= import('../evm/console/format.ts'))
  for (const data of calls) {
    const line = formatConsoleCall(data)
    if (line === undefined) continue
    try {
      sink(line)
    } catch {
      // The sink is the user's; a failing one must not fail a block or a call.
    }
  }
}
