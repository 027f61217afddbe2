import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { hash, param } from '../paramSpecs.ts'
import { InvalidControlError } from '../../controls/errors.ts'
import { toHexRaw, toQuantity } from '../../util/hex.ts'

/** Longest measurement name, in characters. */
const NAME_LIMIT = 1_024

/**
 * dualnet_gasSnapshot(name, transactionHash): records the gas the mined transaction
 * used (its receipt's `gasUsed`) under `name` in the devnet's gas snapshot file, and
 * returns it as a quantity (docs/gas-snapshots.md), for a test runner in another
 * process, as `devnet.gasSnapshot` does in process. In check mode (option
 * `gasSnapshot.check`, the CLI's `--gas-snapshot-check`) a gas that moved beyond the
 * tolerance, or a name the file lacks, is refused with -32000 naming the file's gas and
 * the new one; the CLI lists every such change at exit and exits with code 1. A
 * transaction the devnet has not mined: -32000.
 */
export const dualnet_gasSnapshot = defineMethod({
  name: 'dualnet_gasSnapshot',
  params: [
    param<string, string>('name', (value, index) => {
      if (typeof value !== 'string' || value === '' || value.length > NAME_LIMIT) throw invalidArgument(index, `a gas snapshot name is a string of 1 to ${NAME_LIMIT} characters`)
      return value
    }),
    hash('transactionHash'),
  ],
  fork: { kind: 'local' },
  handler: (ctx, [name, transactionHash]) => {
    const found = ctx.chain.transaction(toHexRaw(transactionHash))
    if (found === undefined) throw new InvalidControlError(`transaction 0x${toHexRaw(transactionHash)} is not mined on this devnet`)
    return toQuantity(ctx.gasSnapshots.record(name, found.record.gasUsed))
  },
})
