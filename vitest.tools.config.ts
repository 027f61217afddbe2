/**
 * `npm run test:tools`: dualnet under other projects' tools, each a child process that
 * installs, compiles and starts its own program: the Hardhat example projects
 * (Hardhat 2, and Hardhat 3 on Node 22; in the latter, the plugin's coverage and gasReport keys: test/hardhat3-plugin-reports.test.ts), Foundry's forge (script --broadcast, test
 * --fork-url), forks of Foundry's Anvil (history before the fork; the EVM view,
 * test/fork-anvil.test.ts), the controls' answers beside Anvil's (test/controls-anvil.test.ts), traces and tracers beside Anvil's (test/trace-parity-anvil.test.ts, test/tracers-anvil.test.ts), and the packed package's types in new ES module and CommonJS
 * projects (skipLibCheck: false), and a built Otterscan (DUALNET_OTTERSCAN_DIST; skipped without) driven in Debian's
 * chromium against the CLI (test/otterscan-browser.test.ts), and dualnet's own explorer page in chromium (test/explorer-browser.test.ts, screenshots into docs/explorer/). A first run installs them (minutes); not part of
 * `npm test`, which stays under 5 minutes. CI runs it after `npm test`.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'test/hardhat-examples.test.ts',
      'test/hardhat3-plugin-reports.test.ts',
      'test/forge.test.ts',
      'test/fork-history-anvil.test.ts',
      'test/fork-anvil.test.ts',
      'test/package-types.test.ts',
      'test/controls-anvil.test.ts',
      'test/trace-parity-anvil.test.ts',
      'test/tracers-anvil.test.ts',
      'test/simulate-anvil.test.ts',
      'test/otterscan-browser.test.ts',
      'test/explorer-browser.test.ts',
    ],
    reporters: ['default', './vitest.summary.ts'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
})
