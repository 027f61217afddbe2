import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow suites run under `npm run test:stress` (vitest.stress.config.ts) and `npm run test:crash` (vitest.crash.config.ts).
    exclude: [...configDefaults.exclude, 'test/stress/**', 'test/crash.test.ts'],
    reporters: ['default', './vitest.summary.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
