/**
 * `npm run test:tools`: dualnet under other projects' tools, each a child process that
 * installs, compiles and starts its own program: the Hardhat example projects
 * (Hardhat 2, and Hardhat 3 on Node 22), Foundry's forge (script --broadcast, test
 * --fork-url), and a fork of Foundry's Anvil (history before the fork). A first run
 * installs them (minutes); not part of `npm test`, which stays under 5 minutes. CI runs
 * it after `npm test`.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/hardhat-examples.test.ts', 'test/forge.test.ts', 'test/fork-history-anvil.test.ts'],
    reporters: ['default', './vitest.summary.ts'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
})
