import { CoverageError } from '../../coverage/buildInfo.ts'
import { defineMethod } from '../declare.ts'
import { boolean, optional } from '../paramSpecs.ts'

/**
 * dualnet_coverage: the Solidity coverage the devnet measured since the start or the last take, as istanbul's coverage data by file (what `coverage-final.json` holds) with the codes no artifact matched; `reset` (default true) starts afresh. -32000 without the `coverage` option.
 *
 * For a test runner in another process (docs/coverage.md): it merges the answer into
 * its own coverage map (istanbul-lib-coverage `merge`), or writes it as
 * `coverage-final.json`. The artifacts are read at each call, so a project compiled
 * after the devnet started is found.
 */
export const dualnet_coverage = defineMethod({
  name: 'dualnet_coverage',
  params: [optional(boolean('reset'), true)],
  fork: { kind: 'local' },
  handler: (ctx, [reset]) => {
    if (ctx.coverage === undefined) throw new CoverageError('coverage is off: start the devnet with the coverage option (createDevnet({ coverage }) or --coverage)')
    return ctx.coverage.take(reset)
  },
})
