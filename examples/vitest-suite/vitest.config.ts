/**
 * The example suite's own vitest config: `npm run example:vitest` runs
 * `vitest run --config examples/vitest-suite/vitest.config.ts`. In your project, the
 * suite needs no special config: `useDevnet` registers its hooks in each file.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
  },
})
