/**
 * Config of the suite the CI recipe runs against a dualnet started by the CLI
 * (examples/ci/github-actions.yml); it reads the node's URLs from the environment.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
  },
})
