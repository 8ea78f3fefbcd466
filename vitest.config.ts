import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'studio/test/**/*.test.ts'],
    setupFiles: ['test/support/setup-shaper.ts'],
    testTimeout: 30_000,
    // Each file gets its own worker; rendering is CPU-bound and the CI machine has 2 cores.
    maxWorkers: 2,
  },
});
