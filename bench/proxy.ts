import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from 'autocannon';
import {
  type PostgresCluster,
  startPostgresCluster,
} from '../packages/server/test-support/postgres-cluster.ts';
import { type LoadResult, runLoad, runPaced } from './lib/load.ts';
import { ENTRIES, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import { summariseProfiles } from './lib/profile.ts';
import type { Section, Table, Target } from './lib/report.ts';

// Benchmark 1: what the BFF adds to every call, side by side with the API direct and a bare
// node:http keep-alive proxy (the floor), in one run on one machine. The BFF runs as in
// production: info logging to stdout, sessions, validation, the send journal, no bench mode.

export type ProxyOptions = {
  quick: boolean;
  /**
   * BFF_WORKERS of each BFF under test. The first is the one the targets are judged on; the others
   * are measured alongside for comparison.
   */
  workers: string[];
  /** Directory for V8 CPU profiles of the BFF (--cpu-prof); printed as a breakdown. */
  cpuProfDir?: string;
};

const READ_PATH = '/api/v1/reviews?page=1&limit=20';
const SEND_PATH = '/api/v1/requests/send';
const SEND_BODY = JSON.stringify({
  customerName: 'Bench Customer',
  customerPhone: '+14155551234',
  channel: 'sms',
});
const PASSWORD = 'bench-password-123';
const CONNECTIONS = [1, 10, 50];
/** The most CPU a send through the BFF may cost, in sends through the bare proxy (at 10 connections). */
const SEND_CPU_RATIO_MAX = 3;

type Variant = {
  name: string;
  kind: 'direct' | 'bare' | 'bff';
  server: Server;
  headers: Record<string, string>;
};

/** Each POST carries a fresh Idempotency-Key: every send is a new user intent. */
const freshKey = (request: Request): Request => ({
  ...request,
  headers: { ...request.headers, 'idempotency-key': randomUUID() },
});

/** The benchmark's read, or its send (a new intent each time), with the caller's headers. */
export function requestFor(endpoint: 'read' | 'send', headers: Record<string, string>): Request {
  if (endpoint === 'read') return { method: 'GET', path: READ_PATH, headers };
  return {
    method: 'POST',
    path: SEND_PATH,
    headers: { ...headers, 'content-type': 'application/json' },
    body: SEND_BODY,
    setupRequest: freshKey,
  };
}

type Measured = LoadResult & { proxyCpuUs: number | null; apiCpuUs: number };

async function measure(
  variant: Variant,
  api: Server,
  endpoint: 'read' | 'send',
  connections: number,
  seconds: number,
  rate?: number,
): Promise<Measured> {
  const proxy = variant.kind === 'direct' ? null : variant.server;
  const proxyBefore = proxy?.cpuMs() ?? 0;
  const apiBefore = api.cpuMs();
  const spec = {
    url: variant.server.url,
    connections,
    seconds,
    request: requestFor(endpoint, variant.headers),
  };
  const result = rate ? await runPaced({ ...spec, rate }) : await runLoad(spec);
  const perRequest = (ms: number) => (result.ok > 0 ? (ms * 1000) / result.ok : Number.NaN);
  return {
    ...result,
    proxyCpuUs: proxy ? perRequest(proxy.cpuMs() - proxyBefore) : null,
    apiCpuUs: perRequest(api.cpuMs() - apiBefore),
  };
}

/** A second of reads and of sends on each: the JIT, connection pools, SQLite caches, the BFF's session and query caches. */
export async function warmUp(targets: { server: Server; headers: Record<string, string> }[]): Promise<void> {
  for (const target of targets)
    for (const endpoint of ['read', 'send'] as const)
      await runLoad({
        url: target.server.url,
        connections: 10,
        seconds: 1,
        request: requestFor(endpoint, target.headers),
      });
}

/** Signs in as the benchmark's owner; returns the session cookie. */
export async function login(bffUrl: string): Promise<string> {
  const response = await fetch(`${bffUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bffUrl },
    body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`BFF login failed: HTTP ${response.status}`);
  const cookie = response.headers.getSetCookie()[0];
  if (!cookie) throw new Error('BFF login set no cookie');
  return cookie.split(';')[0]!;
}

/** The API for the proxy benchmarks: demo data, every limit lifted (the issue: frequency cap and rate limit off). */
export async function startBenchApi(dir: string): Promise<{ api: Server; keyFile: string }> {
  const keyFile = path.join(dir, 'api-key');
  const api = await startServer('api', ENTRIES.api, {
    logFile: path.join(dir, 'api.log'),
    env: {
      DATABASE_PATH: path.join(dir, 'api.db'),
      SEED_DEMO: '1',
      DEMO_KEY_FILE: keyFile,
      FREQUENCY_CAP_DAYS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      MONTHLY_SEND_ALLOWANCE: '0',
      LOG_LEVEL: 'info',
    },
  });
  return { api, keyFile };
}

/**
 * A BFF exactly as in production (LOG_LEVEL=info, sessions, validation, the journal) with its own
 * database and the benchmark's owner (see login). `entry`: another build's main.ts, to compare.
 */
export async function startBenchBff(
  dir: string,
  apiUrl: string,
  keyFile: string,
  options: { name: string; workers: string; nodeArgs?: string[]; entry?: string; databaseUrl?: string },
): Promise<Server> {
  const bffDb = path.join(dir, `${options.name}.db`);
  const database = {
    BFF_DATABASE_PATH: bffDb,
    ...(options.databaseUrl ? { BFF_DATABASE_URL: options.databaseUrl } : {}),
  };
  const addUser = ['user', 'add', '--email', 'bench@example.com', '--role', 'owner'];
  // Another build migrates its database with its own CLI (its schema may be older than this one's).
  if (options.entry) await runBuildCli(options.entry.replace(/main\.ts$/, 'cli.ts'), addUser, database);
  else await runCli('bff', addUser, { env: database, stdin: `${PASSWORD}\n` });
  return startServer(options.name, options.entry ?? ENTRIES.bff, {
    logFile: path.join(dir, `${options.name}.log`),
    nodeArgs: options.nodeArgs ?? [],
    env: {
      UPSTREAM_URL: apiUrl,
      UPSTREAM_API_KEY_FILE: keyFile,
      ...database,
      BFF_WORKERS: options.workers,
      BUSINESS_NAME: 'Harbour Street Coffee',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dir, 'no-dashboard'),
      // One user at full speed: the share's gate and UPSERT run on every call, never refusing.
      USER_RATE_LIMIT_PER_MINUTE: '1000000',
    },
  });
}

function runBuildCli(cli: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    child.stdin.end(`${PASSWORD}\n`);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cli} exited ${code}`))));
  });
}

const ms = (value: number) => Math.round(value * 1000) / 1000;

export async function proxyBenchmark(options: ProxyOptions): Promise<Section> {
  const temp = tempDir('rd-bench-proxy-');
  const servers: Server[] = [];
  let postgres: PostgresCluster | null = null;
  const seconds = options.quick ? 1.5 : 5;
  const pacedSeconds = options.quick ? 2 : 6;
  try {
    const { api, keyFile } = await startBenchApi(temp.dir);
    servers.push(api);
    const apiKey = readFileSync(keyFile, 'utf8').trim();

    const bffs: { workers: string; server: Server }[] = [];
    for (const [i, workers] of options.workers.entries()) {
      const bff = await startBenchBff(temp.dir, api.url, keyFile, {
        name: `bff-${workers}`,
        workers,
        nodeArgs: options.cpuProfDir && i === 0 ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [],
      });
      servers.push(bff);
      bffs.push({ workers, server: bff });
    }
    // The first BFF again with its database (users, sessions, journal) on PostgreSQL, durable
    // settings, on this machine: what the journal's engine adds to a send.
    postgres = await startPostgresCluster({ durable: true });
    const onPostgres = await startBenchBff(temp.dir, api.url, keyFile, {
      name: 'bff-postgres',
      workers: options.workers[0] ?? '1',
      databaseUrl: postgres.url,
    });
    servers.push(onPostgres);
    const bare = await startServer('bare', ENTRIES.bareProxy, {
      logFile: path.join(temp.dir, 'bare.log'),
      env: { TARGET: api.url, API_KEY: apiKey },
    });
    servers.push(bare);

    const variants: Variant[] = [
      { name: 'API direct', kind: 'direct', server: api, headers: { 'x-api-key': apiKey, origin: api.url } },
      { name: 'bare proxy', kind: 'bare', server: bare, headers: {} },
    ];
    for (const { workers, server } of bffs) {
      variants.push({
        name: `BFF ×${workers}`,
        kind: 'bff',
        server,
        headers: { cookie: await login(server.url), 'x-csrf': '1', origin: server.url },
      });
    }
    const judged = variants.find((v) => v.kind === 'bff')!.name;
    const onPostgresName = `${judged} · PostgreSQL`;
    variants.push({
      name: onPostgresName,
      kind: 'bff',
      server: onPostgres,
      headers: { cookie: await login(onPostgres.url), 'x-csrf': '1', origin: onPostgres.url },
    });

    await warmUp(variants);

    const tables: Table[] = [];
    const targets: Target[] = [];
    const saturated: Record<string, Record<number, Record<string, Measured>>> = {};
    let sendThroughput = '';
    for (const endpoint of ['read', 'send'] as const) {
      saturated[endpoint] = {};
      const rows: Table['rows'] = [];
      for (const connections of CONNECTIONS) {
        const byVariant: Record<string, Measured> = {};
        // Interleaved per connection count, so every variant sees the same machine state.
        for (const variant of variants) {
          byVariant[variant.name] = await measure(variant, api, endpoint, connections, seconds);
        }
        saturated[endpoint]![connections] = byVariant;
        for (const variant of variants) {
          const m = byVariant[variant.name]!;
          const isBff = variant.kind === 'bff';
          rows.push([
            String(connections),
            variant.name,
            Math.round(m.rps),
            ms(m.p50),
            ms(m.p99),
            m.proxyCpuUs === null ? null : Math.round(m.proxyCpuUs),
            Math.round(m.apiCpuUs),
            isBff ? m.rps / byVariant['API direct']!.rps : null,
            isBff ? m.rps / byVariant['bare proxy']!.rps : null,
            m.failed > 0 ? String(m.failed) : '0',
          ]);
        }
      }
      tables.push({
        title:
          endpoint === 'read'
            ? `GET ${READ_PATH} — unpaced, ${seconds} s per cell`
            : `POST ${SEND_PATH} (fresh Idempotency-Key each) — unpaced, ${seconds} s per cell`,
        note: 'req/s = 2xx answers per second; latency from request written to answer read (ms); CPU = user+system time of the proxy process(es) and of the API per answered request.',
        columns: [
          'conns',
          'target',
          'req/s',
          'p50 ms',
          'p99 ms',
          'proxy CPU µs/req',
          'API CPU µs/req',
          'BFF/direct',
          'BFF/bare',
          'errors',
        ],
        rows,
      });
      // A read is a relay: held to the bare proxy's throughput. A send validates, checks the session
      // and the fair share and commits the journal before and after: held to a multiple of the
      // relay's CPU at 10 connections, its throughput (which follows every process's CPU on a
      // shared machine) reported in the notes.
      const throughput = [10, 50].map((connections) => {
        const cell = saturated[endpoint]![connections]!;
        return { connections, ratio: cell[judged]!.rps / cell['bare proxy']!.rps };
      });
      if (endpoint === 'read')
        for (const { connections, ratio } of throughput)
          targets.push({
            name: `GET reviews: ${judged}/bare throughput at ${connections} connections`,
            target: '≥ 0.85',
            measured: ratio.toFixed(2),
            met: ratio >= 0.85,
          });
      else {
        const cell = saturated.send![10]!;
        const bff = cell[judged]!.proxyCpuUs!;
        const bare = cell['bare proxy']!.proxyCpuUs!;
        targets.push({
          name: `POST send: ${judged} CPU per send against the bare proxy's at 10 connections (SQLite journal)`,
          target: `≤ ${SEND_CPU_RATIO_MAX}×`,
          measured: `${(bff / bare).toFixed(2)}× (${Math.round(bff)} against ${Math.round(bare)} µs)`,
          met: bff / bare <= SEND_CPU_RATIO_MAX,
        });
        sendThroughput = throughput.map((t) => `${t.ratio.toFixed(2)} at ${t.connections}`).join(', ');
      }
    }

    // Paced: a fixed rate below saturation, so p50 is service time rather than queueing.
    const pacedRows: Table['rows'] = [];
    const paces = [
      { endpoint: 'read' as const, rate: options.quick ? 500 : 1000 },
      { endpoint: 'send' as const, rate: options.quick ? 150 : 300 },
    ];
    for (const { endpoint, rate } of paces) {
      const byVariant: Record<string, Measured> = {};
      for (const variant of variants)
        byVariant[variant.name] = await measure(variant, api, endpoint, 10, pacedSeconds, rate);
      const direct = byVariant['API direct']!.p50;
      for (const variant of variants) {
        const m = byVariant[variant.name]!;
        pacedRows.push([
          endpoint === 'read' ? 'GET reviews' : 'POST send',
          variant.name,
          rate,
          Math.round(m.rps),
          ms(m.p50),
          ms(m.p90),
          ms(m.p99),
          variant.kind === 'direct' ? null : ms(m.p50 - direct),
          m.proxyCpuUs === null ? null : Math.round(m.proxyCpuUs),
          Math.round(m.apiCpuUs),
        ]);
      }
      const addedBff = byVariant[judged]!.p50 - direct;
      const addedBare = byVariant['bare proxy']!.p50 - direct;
      targets.push({
        name: `${endpoint === 'read' ? 'GET reviews' : 'POST send'}: ${judged} added p50 at ${rate} req/s`,
        target: `≤ bare's added p50 + 0.3 ms (${(addedBare + 0.3).toFixed(2)} ms)`,
        measured: `${addedBff.toFixed(2)} ms (bare ${addedBare.toFixed(2)} ms)`,
        met: addedBff <= addedBare + 0.3,
      });
    }
    tables.push({
      title: `Paced runs — 10 connections, fixed overall rate, ${pacedSeconds} s each`,
      note: 'Below saturation latency is service time, not queueing; added p50 = p50 through the proxy − p50 direct.',
      columns: [
        'endpoint',
        'target',
        'rate',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'added p50 ms',
        'proxy CPU µs/req',
        'API CPU µs/req',
      ],
      rows: pacedRows,
    });

    const notes = [
      `BFF ×N = BFF_WORKERS=N; targets are judged on ${judged}${options.workers.length > 1 ? ', the other setting is measured alongside for comparison' : ''}. LOG_LEVEL=info with stdout to a file; sessions, validation and the send journal on, as in production.`,
      'API started with FREQUENCY_CAP_DAYS=0, RATE_LIMIT_PER_MINUTE=0, MONTHLY_SEND_ALLOWANCE=0, demo data, outbox delivery.',
      'Load generator: autocannon in the benchmark process, on the same cores as the API and the proxies.',
      `POST send, ${judged}/bare throughput (reported, not a target): ${sendThroughput} connections.`,
      `${onPostgresName}: the same BFF with BFF_DATABASE_URL on a local PostgreSQL 18 (durable settings, same cores); its added p50 beside the SQLite journal's is what the engine costs a call.`,
    ];
    if (options.cpuProfDir) {
      for (const server of [...servers].reverse()) await server.stop();
      servers.length = 0;
      tables.push(
        summariseProfiles(options.cpuProfDir, 'BFF CPU profile (all runs): self time by where it is spent'),
      );
    }
    return { name: 'Proxy overhead', tables, targets, notes };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await postgres?.stop();
    temp.cleanup();
  }
}
