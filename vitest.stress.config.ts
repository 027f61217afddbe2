/**
 * `npm run test:stress`: the slow reliability suites (test/stress/: load, 1,000
 * devnets, 20,000 blocks, both views under concurrency, fuzzing over sockets) and the
 * fuzz targets of the default suite with DUALNET_FUZZ_SCALE times their cases. One
 * file at a time: load and memory figures mean nothing with another suite beside them.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts', 'test/fuzz-*.test.ts'],
    reporters: ['default', './vitest.summary.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    env: { DUALNET_FUZZ_SCALE: process.env.DUALNET_FUZZ_SCALE ?? '3' },
  },
})
