import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow suites run under `npm run test:stress` (vitest.stress.config.ts), `npm run test:crash` (vitest.crash.config.ts)
    // and `npm run test:tools` (vitest.tools.config.ts: the Hardhat example projects, forge, forks of Anvil, and the packed package's types).
    exclude: [
      ...configDefaults.exclude,
      'test/stress/**',
      'test/crash.test.ts',
      'test/hardhat-examples.test.ts',
      'test/hardhat3-plugin-reports.test.ts',
      'test/forge.test.ts',
      'test/fork-history-anvil.test.ts',
      'test/fork-anvil.test.ts',
      'test/trace-parity-anvil.test.ts',
      'test/tracers-anvil.test.ts',
      'test/controls-anvil.test.ts',
      'test/package-types.test.ts',
      'test/otterscan-browser.test.ts',
      'test/explorer-browser.test.ts',
    ],
    reporters: ['default', './vitest.summary.ts'],
    // The type tests (test/*.test-d.ts): tsc over them and what they import, no run.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.typetest.json' },
    // Limits catch a hang, not a slow machine: CI may share its cores (a run beside a CPU hog
    // and other jobs reached a load of 15 on 2 cores, and tests that spawn processes took
    // over 30 s there). No test here asserts a duration.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
