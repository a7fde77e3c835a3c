import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bff',
    // Position in the root run (see /vitest.config.ts).
    sequence: { groupOrder: 2 },
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // One PostgreSQL server for the run: the stores' tests run on both engines.
    globalSetup: ['../../packages/server/test-support/postgres-setup.ts'],
    // The files mostly wait on the processes they start: two at a time halves the run.
    maxWorkers: 2,
    // Integration tests start real processes; give each file room on a busy machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
