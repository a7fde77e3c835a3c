import { defineConfig } from 'vitest/config';

// One run for every workspace's unit and integration tests; each workspace names its project.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/api', 'apps/bff', 'apps/web', 'test'],
  },
});
