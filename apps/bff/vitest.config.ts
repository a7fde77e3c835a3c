import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bff',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Integration tests start real processes; give each file room on a busy machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
