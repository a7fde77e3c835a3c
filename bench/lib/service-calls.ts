import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { Request } from 'autocannon';
import { runLoad } from './load.ts';
import type { Server } from './processes.ts';
import { percentile } from './report.ts';

// What the service benchmark measures against one API process, whichever database is behind it:
// each GET case as sequential keep-alive calls (client and server latency), then sends per second.

/** Sequential keep-alive GETs; returns client-side latencies (ms) and the last body. */
async function sequential(
  url: string,
  apiKey: string,
  count: number,
  requestIdPrefix: string,
): Promise<{
  latencies: number[];
  body: { data?: { total?: number; reviews?: unknown[]; daily?: unknown[] } };
}> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let body = {};
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const text = await new Promise<string>((resolve, reject) => {
        const request = http.get(
          url,
          { agent, headers: { 'x-api-key': apiKey, 'x-request-id': `${requestIdPrefix}${i}` } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
              else resolve(Buffer.concat(chunks).toString('utf8'));
            });
          },
        );
        request.on('error', reject);
      });
      latencies.push(performance.now() - started);
      if (i === count - 1) body = JSON.parse(text);
    }
  } finally {
    agent.destroy();
  }
  return { latencies, body };
}

/** Server-side durations (the API's own request log: received → answer written), by request id prefix. */
function serverDurations(logFile: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"msg":"request"') || !line.includes('"reqId":"bench-')) continue;
    const entry = JSON.parse(line) as { reqId: string; ms: number };
    const prefix = entry.reqId.slice(0, entry.reqId.lastIndexOf('-') + 1);
    const list = out.get(prefix) ?? [];
    list.push(entry.ms);
    out.set(prefix, list);
  }
  return out;
}

export const round = (value: number) => Math.round(value * 100) / 100;

/** POST send straight to the API, an SMS to a different customer each time, as real traffic
 * would be (never the 0000 fault hook). */
export function sendRequest(key: string, origin: string): Request {
  return {
    method: 'POST',
    path: '/api/v1/requests/send',
    headers: { 'x-api-key': key, origin, 'content-type': 'application/json' },
    body: '{}',
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({
        customerName: 'Bench Customer',
        customerPhone: `+1415555${String(randomInt(1000, 10000))}`,
        channel: 'sms',
      }),
    }),
  };
}

/** What one API answered: each GET case's latencies, and sends per second at 1, 10 and 50 callers. */
export type Measured = {
  cases: {
    name: string;
    target: CaseTarget;
    p50: number;
    p99: number;
    max: number;
    server: number[];
    note: string;
  }[];
  sends: {
    connections: number;
    rps: number;
    p50: number;
    p99: number;
    cpuUsPerSend: number;
    failed: number;
  }[];
};
type CaseTarget = 'list' | 'analytics' | 'analytics365';

/** The env of an API under load: nothing refused, nothing held, access lines logged. */
export const BENCH_API_ENV = {
  FREQUENCY_CAP_DAYS: '0',
  RATE_LIMIT_PER_MINUTE: '0',
  MONTHLY_SEND_ALLOWANCE: '0',
  DELIVERY_PROVIDER: 'outbox',
  // Any hour: a send at night would be held for the sending window.
  QUIET_HOURS: 'off',
  LOG_LEVEL: 'info',
};

function cases(total: number): { name: string; path: string; target: CaseTarget }[] {
  const lastPage = Math.ceil(total / 20);
  return [
    { name: 'no filter, page 1', path: '/api/v1/reviews?page=1&limit=20', target: 'list' },
    { name: 'status=pending', path: '/api/v1/reviews?status=pending', target: 'list' },
    { name: 'status=responded', path: '/api/v1/reviews?status=responded', target: 'list' },
    { name: 'status=ignored', path: '/api/v1/reviews?status=ignored', target: 'list' },
    { name: 'minRating=5', path: '/api/v1/reviews?minRating=5', target: 'list' },
    { name: 'minRating=3', path: '/api/v1/reviews?minRating=3', target: 'list' },
    {
      name: 'status=pending&minRating=5',
      path: '/api/v1/reviews?status=pending&minRating=5',
      target: 'list',
    },
    {
      name: 'status=ignored&minRating=4',
      path: '/api/v1/reviews?status=ignored&minRating=4',
      target: 'list',
    },
    { name: 'page=500', path: '/api/v1/reviews?page=500', target: 'list' },
    {
      name: `last page (${lastPage.toLocaleString('en-US')})`,
      path: `/api/v1/reviews?page=${lastPage}`,
      target: 'list',
    },
    { name: 'limit=100', path: '/api/v1/reviews?limit=100', target: 'list' },
    { name: 'analytics days=7', path: '/api/v1/analytics?days=7', target: 'analytics' },
    { name: 'analytics days=30', path: '/api/v1/analytics?days=30', target: 'analytics' },
    { name: 'analytics days=365', path: '/api/v1/analytics?days=365', target: 'analytics365' },
  ];
}

/** Every GET case (sequential keep-alive calls), then sends per second, against one API. */
export async function measureApi(
  api: Server,
  key: string,
  quick: boolean,
  reviews: number,
): Promise<Measured> {
  const count = quick ? 300 : 1000;
  const out: Measured = { cases: [], sends: [] };
  const prefixes: string[] = [];
  for (const [i, c] of cases(reviews).entries()) {
    await sequential(`${api.url}${c.path}`, key, 50, `warm-${i}-`);
    const prefix = `bench-${i}-`;
    const { latencies, body } = await sequential(`${api.url}${c.path}`, key, count, prefix);
    const list = body.data;
    const note = Array.isArray(list?.reviews)
      ? `total ${list.total?.toLocaleString('en-US')}, ${(list!.reviews as unknown[]).length} rows`
      : `${list?.daily?.length ?? 0} days`;
    prefixes.push(prefix);
    out.cases.push({
      name: c.name,
      target: c.target,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      server: [],
      note,
    });
  }
  // The API writes its log asynchronously: give it a moment to reach the file.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const server = serverDurations(api.logFile);
  out.cases.forEach((c, i) => {
    c.server = server.get(prefixes[i]!) ?? [];
  });
  // Sends per second: POST /api/v1/requests/send with the outbox provider (every send is a
  // transaction: request, outbox message, roll-ups), many callers at once.
  for (const connections of [1, 10, 50]) {
    const before = api.cpuMs();
    const result = await runLoad({
      url: api.url,
      connections,
      seconds: sendSeconds(quick),
      request: sendRequest(key, api.url),
    });
    out.sends.push({
      connections,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      cpuUsPerSend: ((api.cpuMs() - before) * 1000) / Math.max(1, result.ok),
      failed: result.failed,
    });
  }
  return out;
}

export const sendSeconds = (quick: boolean) => (quick ? 3 : 10);
