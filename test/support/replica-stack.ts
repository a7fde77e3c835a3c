import { openDatabase } from '@review-desk/server/db/open';
import type { Database } from '@review-desk/server/db/types';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { Session } from './http.ts';
import { type RunningApp, runCli, startApp, tempDir } from './processes.ts';
import { type RoundRobin, startRoundRobin } from './round-robin.ts';
import { ALL_SCOPES, BUSINESS, bffTestEnv, OWNER } from './stack.ts';

// The whole scaled-out topology as real processes: a round-robin in front of two BFFs on one
// PostgreSQL database, whose upstream is a second round-robin in front of two API processes on
// another PostgreSQL database, as docs/deploy.md lays it out. Both balancers pass over a replica
// whose process is gone (a refused connection), as a load balancer's health check would.

/** The address callers reach the API at (its PUBLIC_ORIGIN; the BFFs send it as UPSTREAM_ORIGIN). */
const API_ORIGIN = 'https://reviews.example.com';

export type ReplicaStack = {
  /** The front balancer: what a browser reaches. */
  front: RoundRobin;
  /** The balancer in front of the two APIs: the BFFs' upstream. */
  apiBalancer: RoundRobin;
  bffs: [RunningApp, RunningApp];
  apis: [RunningApp, RunningApp];
  /** The service's database (requests, outbox, counters) and the BFFs' (journal, sessions). */
  serviceDb: Database;
  bffDb: Database;
  serviceDatabaseUrl: string;
  /** A browser session on `base` (the front balancer unless given), signed in as the first owner. */
  owner(base?: string): Promise<Session>;
  /** The API's CLI on the service's database. */
  apiCli(args: string[]): Promise<string>;
  stop(): Promise<void>;
};

export async function startReplicaStack(): Promise<ReplicaStack> {
  const [serviceDatabase, bffDatabase] = await Promise.all([
    createPostgresDatabase(),
    createPostgresDatabase(),
  ]);
  const apiEnv = {
    DATABASE_URL: serviceDatabase.url,
    DATABASE_POOL_SIZE: '6',
    DEV_OUTBOX: '1',
    PUBLIC_ORIGIN: API_ORIGIN,
    FREQUENCY_CAP_DAYS: '0',
    MONTHLY_SEND_ALLOWANCE: '1000000',
    LOG_LEVEL: 'warn',
  };
  // Started together: both migrate (one does, under the lock).
  const apis = (await Promise.all([startApp('api', { env: apiEnv }), startApp('api', { env: apiEnv })])) as [
    RunningApp,
    RunningApp,
  ];
  const apiCli = (args: string[]) => runCli('api', args, { env: { DATABASE_URL: serviceDatabase.url } });
  await apiCli(['business', 'create', BUSINESS.slug, BUSINESS.name]);
  const created = await apiCli([
    'key',
    'create',
    '--business',
    BUSINESS.slug,
    '--scopes',
    ALL_SCOPES,
    '--rate-limit',
    '1000000',
  ]);
  const key = created.trim().split('\n').at(-1)!.trim();
  if (!key.startsWith('rd_')) throw new Error(`key create printed no key:\n${created}`);
  const apiBalancer = await startRoundRobin(
    apis.map((a) => a.url),
    { skipRefused: true },
  );

  const temp = tempDir('rd-replica-stack-');
  const bffEnv = bffTestEnv(apiBalancer.url, key, temp.dir, {
    BFF_DATABASE_URL: bffDatabase.url,
    BFF_DATABASE_POOL_SIZE: '4',
    UPSTREAM_ORIGIN: API_ORIGIN,
    UPSTREAM_TIMEOUT_MS: '10000',
    FREQUENCY_CAP_DAYS: '0',
    LOG_LEVEL: 'warn',
  });
  // Started together: one migrates and one creates the first owner.
  const bffs = (await Promise.all([startApp('bff', { env: bffEnv }), startApp('bff', { env: bffEnv })])) as [
    RunningApp,
    RunningApp,
  ];
  const front = await startRoundRobin(
    bffs.map((b) => b.url),
    { skipRefused: true },
  );
  const [serviceDb, bffDb] = await Promise.all([
    openDatabase({ url: serviceDatabase.url, poolSize: 2 }),
    openDatabase({ url: bffDatabase.url, poolSize: 2 }),
  ]);
  return {
    front,
    apiBalancer,
    bffs,
    apis,
    serviceDb,
    bffDb,
    serviceDatabaseUrl: serviceDatabase.url,
    async owner(base = front.url) {
      const session = new Session(base);
      const reply = await session.login(OWNER.email, OWNER.password);
      if (reply.status !== 200) throw new Error(`owner login failed: ${reply.status} ${reply.text}`);
      return session;
    },
    apiCli,
    async stop() {
      await front.close();
      await Promise.all(bffs.map((b) => b.stop()));
      await apiBalancer.close();
      await Promise.all(apis.map((a) => a.stop()));
      await Promise.all([serviceDb.close(), bffDb.close()]);
      await Promise.all([serviceDatabase.drop(), bffDatabase.drop()]);
      temp.cleanup();
    },
  };
}
