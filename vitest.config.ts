import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'studio/test/**/*.test.ts'],
    // Render threads run the same sources as the test (bundled from src/ on first use).
    setupFiles: ['test/support/setup-shaper.ts', 'test/support/render-thread.ts'],
    testTimeout: 30_000,
    // Each file gets its own worker; rendering is CPU-bound and the CI machine has 2 cores.
    maxWorkers: 2,
    // The font folder of the run starts empty, whatever the machine installed (./data/fonts), so every
    // test sees the bundled families only unless it installs some itself, in a folder of its own.
    env: { IMPRINT_FONTS_DIR: mkdtempSync(join(tmpdir(), 'imprint-test-fonts-')) },
  },
});
