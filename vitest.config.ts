// Three projects: pure unit tests, integration tests against the real stack started in test/setup/global.ts, and the
// fault suite (test/faults/, docs/faults.md) on a stack of its own whose processes it kills and restarts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/global.ts'],
          setupFiles: ['test/support/stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          globalSetup: ['test/faults/setup.ts'],
          setupFiles: ['test/support/stack.ts', 'test/faults/support/setup-file.ts'],
          // The large size (FOLIO_FAULTS_SCALE=large) runs 40 kills and a 20,000-item tree: up to an hour here.
          testTimeout: process.env.FOLIO_FAULTS_SCALE === 'large' ? 3_600_000 : 900_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
