import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { RECEIVER_CA_FILE } from '../test/support/webhook-receiver.ts';
import { type LoadResult, runPaced } from './lib/load.ts';
import { ENTRIES, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import { percentile, type Section, type Table, type Target } from './lib/report.ts';
import { sendRequest } from './lib/service-calls.ts';

// Benchmark: events out. The API (SQLite, the outbox provider) with ten webhook endpoints on the
// stand-in receiver of the test support (HTTPS, a process of its own: webhook-receiver-process.ts).
// A burst of 1,000 sends — 1,000 request.sent events, 10,000 deliveries — is written at once;
// while the dispatcher delivers it, sends are paced at a fixed rate and the service's own p50 (its
// request log) compared with the same pace and no webhooks at all. Run twice: ten healthy endpoints, then one of the ten hanging (each of its attempts waits
// out the 5 s timeout): the nine others must get the burst as fast as before.

export type WebhooksOptions = { quick: boolean };

const ENDPOINTS = 10;
const round = (n: number) => Math.round(n * 100) / 100;

type Run = {
  sendP50: number;
  sendP99: number;
  serverP50: number;
  healthyDone: number;
  lagP50: number;
  lagP99: number;
  delivered: number;
};

/** The receiver process: its HTTPS origin, and the arrivals it saw (each: arrival, event time). */
type Receiver = {
  origin: string;
  hang(path: string): Promise<void>;
  arrivals: Map<string, [number, number][]>;
  poll(): Promise<void>;
};

async function startReceiver(temp: string): Promise<{ server: Server; receiver: Receiver }> {
  const logFile = path.join(temp, 'receiver.log');
  const server = await startServer(
    'receiver',
    path.join(import.meta.dirname, 'webhook-receiver-process.ts'),
    {
      env: {},
      logFile,
    },
  );
  const origin = (JSON.parse(readFileSync(logFile, 'utf8').split('\n')[0]!) as { origin: string }).origin;
  const arrivals = new Map<string, [number, number][]>();
  return {
    server,
    receiver: {
      origin,
      arrivals,
      async hang(pathname) {
        await fetch(`${server.url}/hang?path=${encodeURIComponent(pathname)}`, { method: 'POST' });
      },
      async poll() {
        const fresh = (await (await fetch(`${server.url}/arrivals`)).json()) as Record<
          string,
          [number, number][]
        >;
        for (const [p, list] of Object.entries(fresh)) arrivals.set(p, [...(arrivals.get(p) ?? []), ...list]);
      },
    },
  };
}

/** The service's own duration (its request log) of the sends it answered after `from` bytes of it. */
function serverSendP50(logFile: string, from: number): number {
  const ms: number[] = [];
  for (const line of readFileSync(logFile, 'utf8').slice(from).split('\n')) {
    if (!line.includes('/api/v1/requests/send')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; ms?: number; status?: number };
      if (entry.msg === 'request' && entry.status === 200 && typeof entry.ms === 'number') ms.push(entry.ms);
    } catch {
      // not JSON
    }
  }
  return percentile(ms, 50);
}

async function makeKey(env: Record<string, string>, business: string): Promise<string> {
  await runCli(
    'api',
    ['business', 'create', business, `Bench ${business}`, '--review-url', 'https://example.com/r'],
    {
      env,
    },
  );
  const out = await runCli(
    'api',
    ['key', 'create', '--business', business, '--scopes', 'review_requests:write,webhooks:write'],
    { env },
  );
  return out.trim().split('\n').at(-1)!.trim();
}

async function pacedSends(server: Server, key: string, rate: number, seconds: number): Promise<LoadResult> {
  return runPaced({ url: server.url, connections: 8, seconds, rate, request: sendRequest(key, server.url) });
}

/** The burst and the paced sends beside it; the lag of each healthy endpoint's burst events. */
async function burstRun(
  server: Server,
  key: string,
  receiver: Receiver,
  options: { hanging: boolean; rate: number; seconds: number; burst: number },
): Promise<Run> {
  const tag = options.hanging ? 'h' : 'n';
  for (let i = 0; i < ENDPOINTS; i++) {
    const pathname = `/${tag}${i}`;
    if (options.hanging && i === 0) await receiver.hang(pathname);
    const made = await fetch(`${server.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ url: `${receiver.origin}${pathname}`, events: ['request.sent'] }),
    });
    if (made.status !== 201) throw new Error(`creating an endpoint answered ${made.status}`);
  }
  const healthy = Array.from({ length: ENDPOINTS }, (_, i) => `/${tag}${i}`).slice(options.hanging ? 1 : 0);
  const started = Date.now();
  // The burst: `burst` sends at once (20 in flight), each one event to every endpoint.
  const body = sendRequest(key, server.url);
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next++ < options.burst) {
        const request = body.setupRequest!(body, {});
        await fetch(`${server.url}${request.path}`, {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: request.body as string,
        });
      }
    }),
  );
  const logged = statSync(server.logFile).size;
  const paced = await pacedSends(server, key, options.rate, options.seconds);
  const serverP50 = serverSendP50(server.logFile, logged);
  const expected = options.burst + paced.ok;
  const deadline = Date.now() + 180_000;
  const count = (p: string) => receiver.arrivals.get(p)?.length ?? 0;
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await receiver.poll();
  } while (healthy.some((p) => count(p) < expected) && Date.now() < deadline);
  const arrived = healthy.flatMap((p) => receiver.arrivals.get(p) ?? []);
  const lags = arrived.map(([at, event]) => at - event);
  return {
    sendP50: paced.p50,
    sendP99: paced.p99,
    serverP50,
    healthyDone: (Math.max(...arrived.map(([at]) => at)) - started) / 1000,
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    delivered: arrived.length,
  };
}

export async function webhooksBenchmark(options: WebhooksOptions): Promise<Section> {
  const temp = tempDir('rd-bench-webhooks-');
  const { server: receiverServer, receiver } = await startReceiver(temp.dir);
  let api: Server | undefined;
  try {
    const db = path.join(temp.dir, 'api.db');
    const env = { DATABASE_PATH: db, SECRETS_KEY_FILE: path.join(temp.dir, 'secrets-key') };
    const keys = {
      quiet: await makeKey(env, 'quiet'),
      normal: await makeKey(env, 'normal'),
      hanging: await makeKey(env, 'hanging'),
    };
    api = await startServer('api', ENTRIES.api, {
      logFile: path.join(temp.dir, 'api.log'),
      env: {
        ...env,
        FREQUENCY_CAP_DAYS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        MONTHLY_SEND_ALLOWANCE: '0',
        QUIET_HOURS: 'off',
        WEBHOOKS_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: RECEIVER_CA_FILE,
        LOG_LEVEL: 'info',
      },
    });
    const shape = { rate: 50, seconds: options.quick ? 4 : 10, burst: options.quick ? 300 : 1_000 };
    // Warm-up, then the baseline: the same pace, no endpoint anywhere.
    await pacedSends(api, keys.quiet, shape.rate, 2);
    const logged = statSync(api.logFile).size;
    const baseline = await pacedSends(api, keys.quiet, shape.rate, shape.seconds);
    const baselineServer = serverSendP50(api.logFile, logged);
    const normal = await burstRun(api, keys.normal, receiver, { ...shape, hanging: false });
    const hanging = await burstRun(api, keys.hanging, receiver, { ...shape, hanging: true });
    const moved = (p50: number) => (p50 - baselineServer) / baselineServer;
    const table: Table = {
      title: `${shape.burst} sends at once to a business with ${ENDPOINTS} endpoints (one event each to every endpoint), then ${shape.rate} sends/s for ${shape.seconds} s`,
      note: 'Send p50/p99: the paced sends while the burst is delivered. Healthy done: from the burst’s start until every healthy endpoint had every event. Lag: event time to arrival, healthy endpoints.',
      columns: [
        'case',
        'send p50 ms',
        'send p99 ms',
        'service p50 ms',
        'service p50 vs baseline',
        'healthy done s',
        'lag p50 ms',
        'lag p99 ms',
        'delivered',
      ],
      rows: [
        [
          'baseline (no endpoints)',
          round(baseline.p50),
          round(baseline.p99),
          round(baselineServer),
          '—',
          null,
          null,
          null,
          null,
        ],
        ...[
          ['10 healthy endpoints', normal],
          ['9 healthy + 1 hanging', hanging],
        ].map(([name, run]) => {
          const r = run as Run;
          return [
            name as string,
            round(r.sendP50),
            round(r.sendP99),
            round(r.serverP50),
            `${(moved(r.serverP50) * 100).toFixed(1)} %`,
            round(r.healthyDone),
            Math.round(r.lagP50),
            Math.round(r.lagP99),
            r.delivered,
          ];
        }),
      ],
    };
    const worst = Math.max(moved(normal.serverP50), moved(hanging.serverP50));
    const targets: Target[] = [
      {
        name: 'send p50 (the service’s own) while 1,000 events go to 10 endpoints, against no webhooks',
        target: '≤ +10 %',
        measured: `${(worst * 100).toFixed(1)} %`,
        met: worst <= 0.1,
      },
      {
        name: 'healthy endpoints served while one hangs, against none hanging',
        target: '≤ 1.25× the time',
        measured: `${round(hanging.healthyDone / normal.healthyDone)}×`,
        met: hanging.healthyDone <= normal.healthyDone * 1.25,
      },
    ];
    return {
      name: 'Webhooks',
      tables: [table],
      targets,
      notes: [
        'API: SQLite, outbox provider, LOG_LEVEL=info (its request log gives the service’s own durations); the receiver (HTTPS, keep-alive) in a process of its own; all on the same cores as the load generator.',
        'Each process claims at most 4 deliveries per endpoint at a time and none of an endpoint it is still attempting: the hanging one holds its own lane only.',
      ],
    };
  } finally {
    await api?.stop();
    await receiverServer.stop();
    temp.cleanup();
  }
}
