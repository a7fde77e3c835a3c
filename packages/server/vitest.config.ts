import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // Position in the root run (see /vitest.config.ts): after shared, before the apps.
    sequence: { groupOrder: 0 },
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
