import type { TestProject } from 'vitest/node';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster.ts';

// vitest globalSetup: ONE PostgreSQL server for the whole test run, however many projects list
// this file (each project loads its own copy of the module, so the server is kept on globalThis
// and stopped by the last project's teardown). Tests reach it through `testPostgresUrl()`
// (databases.ts), each file in a fresh database of its own. With RD_TEST_POSTGRES_URL set, the
// tests use that server instead and nothing is started.

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

type Shared = { users: number; cluster: Promise<PostgresCluster | null> };
const KEY = Symbol.for('review-desk.test-postgres');
const registry = globalThis as { [KEY]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let shared = registry[KEY];
  if (shared === undefined) {
    const external = process.env.RD_TEST_POSTGRES_URL;
    shared = { users: 0, cluster: external ? Promise.resolve(null) : startPostgresCluster() };
    registry[KEY] = shared;
  }
  shared.users++;
  const cluster = await shared.cluster;
  const url = cluster?.url ?? (process.env.RD_TEST_POSTGRES_URL as string);
  project.provide('postgresUrl', url);
  // Processes the tests start (replicas, CLIs) inherit it.
  process.env.RD_TEST_POSTGRES_URL = url;
  const owner = shared;
  return async () => {
    owner.users--;
    if (owner.users > 0) return;
    delete registry[KEY];
    await cluster?.stop();
  };
}
