import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow suites run under `npm run test:stress` (vitest.stress.config.ts), `npm run test:crash` (vitest.crash.config.ts)
    // and `npm run test:tools` (vitest.tools.config.ts: the Hardhat example projects, forge, and a fork of Anvil).
    exclude: [...configDefaults.exclude, 'test/stress/**', 'test/crash.test.ts', 'test/hardhat-examples.test.ts', 'test/forge.test.ts', 'test/fork-history-anvil.test.ts'],
    reporters: ['default', './vitest.summary.ts'],
    // The type tests (test/*.test-d.ts): tsc over them and what they import, no run.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.typetest.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
