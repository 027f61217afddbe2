import { defineConfig } from 'vitest/config'

/** `npm run test:crash`: the CLI killed with SIGKILL mid-stream, ten restarts (about a minute; not part of `npm test`). */
export default defineConfig({
  test: {
    include: ['test/crash.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 30_000,
  },
})
