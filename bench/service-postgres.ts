import { copyFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  type PostgresCluster,
  startPostgresCluster,
} from '../packages/server/test-support/postgres-cluster.ts';
import { startRoundRobin } from '../test/support/round-robin.ts';
import { generateHistory } from './lib/generate.ts';
import { runLoad } from './lib/load.ts';
import { ENTRIES, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import type { Table } from './lib/report.ts';
import {
  BENCH_API_ENV,
  type Measured,
  measureApi,
  round,
  sendRequest,
  sendSeconds,
} from './lib/service-calls.ts';

// The service benchmark's PostgreSQL half: the same generated data moved into a local PostgreSQL
// 18 (durable settings, on the same cores as everything else) with the service's own
// `migrate-to-postgres`, the same calls against the service on it, then one vs two API replicas
// on that database behind the test support's round-robin. Also: what loading data costs each way
// (generate into SQLite and copy, or generate straight into PostgreSQL), on one slice.

/** The origin sends through the balancer carry. */
const BALANCED_ORIGIN = 'https://reviews.example.com';

/** The slice both ways of loading are timed on. */
const SLICE = { reviews: 100_000, requests: 100_000 };

export type PostgresFigures = { measured: Measured; replicas: Table; loading: Table; notes: string[] };

export async function postgresBenchmark(options: {
  sqliteFile: string;
  key: string;
  quick: boolean;
  reviews: number;
}): Promise<PostgresFigures> {
  const temp = tempDir('rd-bench-service-pg-');
  const servers: Server[] = [];
  let cluster: PostgresCluster | null = null;
  try {
    cluster = await startPostgresCluster({ durable: true });
    const url = await createDatabase(cluster.url, 'api');
    const source = path.join(temp.dir, 'source.db');
    copyFileSync(options.sqliteFile, source);
    let started = performance.now();
    await runCli('api', ['migrate-to-postgres', url], { env: { DATABASE_PATH: source } });
    const copyMs = performance.now() - started;

    // The replicas accept the balancer's callers as a deployment's would accept its public address.
    const env = { DATABASE_URL: url, ALLOWED_ORIGINS: BALANCED_ORIGIN, ...BENCH_API_ENV };
    const start = async (n: number) => {
      const server = await startServer(`api-pg-${n}`, ENTRIES.api, {
        logFile: path.join(temp.dir, `api-${n}.log`),
        env,
      });
      servers.push(server);
      return server;
    };
    const first = await start(1);
    const measured = await measureApi(first, options.key, options.quick, options.reviews);
    const second = await start(2);
    // Warm the second replica as the first was by its measurement, or the comparison would time
    // its compiler warming up.
    for (const request of [readRequest(options.key), sendRequest(options.key, second.url)])
      await runLoad({ url: second.url, connections: 10, seconds: options.quick ? 2 : 5, request });
    const replicas = await oneVersusTwo([first, second], options.key, options.quick);
    for (const server of servers.splice(0)) await server.stop();

    // Loading, both ways, on the same slice.
    const viaSqlite = path.join(temp.dir, 'slice.db');
    started = performance.now();
    await generateSlice({ DATABASE_PATH: viaSqlite });
    const sqliteGenerateMs = performance.now() - started;
    const sliceCopyUrl = await createDatabase(cluster.url, 'slice_copy');
    started = performance.now();
    await runCli('api', ['migrate-to-postgres', sliceCopyUrl], { env: { DATABASE_PATH: viaSqlite } });
    const sliceCopyMs = performance.now() - started;
    const direct = await createDatabase(cluster.url, 'slice_direct');
    started = performance.now();
    await generateSlice({ DATABASE_URL: direct });
    const directMs = performance.now() - started;
    const s = (ms: number) => round(ms / 1000);
    const loading: Table = {
      title: `Loading ${SLICE.reviews.toLocaleString('en-US')} reviews + ${SLICE.requests.toLocaleString('en-US')} requests into PostgreSQL, two ways`,
      note: '`cli generate` (the API’s loader) into SQLite then `migrate-to-postgres`, or `cli generate` with DATABASE_URL straight into PostgreSQL.',
      columns: ['way', 'generate s', 'copy s', 'total s'],
      rows: [
        [
          'generate into SQLite, then migrate-to-postgres',
          s(sqliteGenerateMs),
          s(sliceCopyMs),
          s(sqliteGenerateMs + sliceCopyMs),
        ],
        ['generate with DATABASE_URL', s(directMs), null, s(directMs)],
      ],
    };
    return {
      measured,
      replicas,
      loading,
      notes: [
        `PostgreSQL: a local PostgreSQL 18, durable settings (fsync, synchronous commit), on the same two cores as the APIs and the load; the data copied from the SQLite file with \`migrate-to-postgres\` in ${s(copyMs)} s (every table, counts verified, then VACUUM (ANALYZE)).`,
      ],
    };
  } finally {
    for (const server of servers) await server.stop();
    await cluster?.stop();
    temp.cleanup();
  }
}

const readRequest = (key: string) => ({
  method: 'GET' as const,
  path: '/api/v1/reviews?page=1&limit=20',
  headers: { 'x-api-key': key },
});

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function generateSlice(env: Record<string, string>): Promise<void> {
  const cli = (args: string[]) => runCli('api', args, { env });
  await cli(['business', 'create', 'slice', 'Slice Co', '--review-url', 'https://example.com/review']);
  await generateHistory(cli, 'slice', { ...SLICE, days: 400 });
}

/**
 * Reads and sends through the round-robin with one API replica behind it, then two, all on the
 * one PostgreSQL database.
 */
async function oneVersusTwo(apis: Server[], key: string, quick: boolean): Promise<Table> {
  const rows: Table['rows'] = [];
  const connections = 50;
  for (const n of [1, 2]) {
    const targets = apis.slice(0, n);
    const balancer = await startRoundRobin(targets.map((api) => api.url));
    try {
      const calls = [
        { name: 'GET reviews page 1', request: readRequest(key) },
        { name: 'send', request: sendRequest(key, BALANCED_ORIGIN) },
      ];
      for (const call of calls) {
        const before = targets.reduce((sum, api) => sum + api.cpuMs(), 0);
        const result = await runLoad({
          url: balancer.url,
          connections,
          seconds: sendSeconds(quick),
          request: call.request,
        });
        const cpu = targets.reduce((sum, api) => sum + api.cpuMs(), 0) - before;
        rows.push([
          `${n} × API`,
          call.name,
          Math.round(result.rps),
          round(result.p50),
          round(result.p99),
          Math.round((cpu * 1000) / Math.max(1, result.ok)),
          String(result.failed),
        ]);
      }
    } finally {
      await balancer.close();
    }
  }
  return {
    title: `One vs two API replicas on PostgreSQL behind the round-robin, ${connections} connections, ${sendSeconds(quick)} s per row`,
    note: 'The balancer runs in the benchmark process beside the load generator; PostgreSQL, the replicas, the balancer and the load share two cores.',
    columns: ['replicas', 'call', 'req/s', 'p50 ms', 'p99 ms', 'API CPU µs/req', 'errors'],
    rows,
  };
}
