import { CoverageError } from '../../coverage/buildInfo.ts'
import { defineMethod } from '../declare.ts'

/**
 * dualnet_gasReport: the gas report of the mined transactions since the start: per contract and function the transactions and internal calls with min / median / max gas, and each contract's deployments and code size. -32000 without the `gasReport` option.
 *
 * The same report `devnet.close()` prints and writes (docs/coverage.md "Gas report"),
 * for a runner in another process; nothing is reset.
 */
export const dualnet_gasReport = defineMethod({
  name: 'dualnet_gasReport',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    if (ctx.gasReport === undefined) throw new CoverageError('the gas report is off: start the devnet with the gasReport option (createDevnet({ gasReport }) or --gas-report)')
    return ctx.gasReport.report()
  },
})
