import { createHash, randomInt } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Request } from 'autocannon';
import { runLoad } from './lib/load.ts';
import { ENTRIES, repoRoot, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import { percentile, type Section, type Table, type Target } from './lib/report.ts';

// Benchmark 2: the service at scale. One business with a million reviews and a million requests
// (plus ten other businesses, so isolation is measured too) in a temporary database, generated
// with the API's own bulk path (`cli generate`). Sequential keep-alive calls over HTTP give the
// latency of each listed case; autocannon gives sends per second with the outbox provider.

export type ServiceOptions = { quick: boolean };

const SIZES = {
  full: { reviews: 1_000_000, requests: 1_000_000, others: 10, otherReviews: 20_000, otherRequests: 20_000 },
  quick: { reviews: 100_000, requests: 100_000, others: 10, otherReviews: 2_000, otherRequests: 2_000 },
};
const DAYS = 400;
const SEED = 1;
const CACHE_ROOT = path.join(tmpdir(), 'review-desk-bench-cache');

/**
 * The generated database depends on the schema, the generator and the store's write path, on the
 * sizes, and on the day (data is dated relative to now). Same key → same database: reuse it.
 */
function cacheKey(sizes: (typeof SIZES)['full']): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(path.join(repoRoot, 'apps/api/src/store/migrations/sqlite')).map(
      (f) => `apps/api/src/store/migrations/sqlite/${f}`,
    ),
    ...readdirSync(path.join(repoRoot, 'apps/api/src/store'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `apps/api/src/store/${f}`),
    'apps/api/src/domain/generate.ts',
    'apps/api/src/domain/ids.ts',
  ].sort();
  for (const file of files) hash.update(file).update(readFileSync(path.join(repoRoot, file)));
  hash.update(JSON.stringify({ sizes, DAYS, SEED, day: new Date().toISOString().slice(0, 10) }));
  return hash.digest('hex').slice(0, 16);
}

type Dataset = { db: string; key: string; generatedMs: number | null };

async function dataset(sizes: (typeof SIZES)['full'], log: (line: string) => void): Promise<Dataset> {
  const key = cacheKey(sizes);
  const dir = path.join(CACHE_ROOT, key);
  const db = path.join(dir, 'api.db');
  const keyFile = path.join(dir, 'api-key');
  if (existsSync(path.join(dir, 'complete'))) {
    return { db, key: readFileSync(keyFile, 'utf8').trim(), generatedMs: null };
  }
  // One cached database per size is enough; older ones are removed (each full one is ~0.6 GB).
  if (existsSync(CACHE_ROOT)) {
    for (const old of readdirSync(CACHE_ROOT)) {
      const marker = path.join(CACHE_ROOT, old, 'sizes.json');
      if (!existsSync(marker) || readFileSync(marker, 'utf8') === JSON.stringify(sizes))
        rmSync(path.join(CACHE_ROOT, old), { recursive: true, force: true });
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'sizes.json'), JSON.stringify(sizes));
  const env = { DATABASE_PATH: db };
  const cli = (args: string[]) => runCli('api', args, { env });
  const started = performance.now();
  log(
    `generating ${sizes.reviews.toLocaleString('en-US')} reviews + ${sizes.requests.toLocaleString('en-US')} requests (cached under ${dir})…`,
  );
  await cli(['business', 'create', 'big', 'Big Co', '--review-url', 'https://example.com/review']);
  await cli([
    'generate',
    '--business',
    'big',
    '--reviews',
    String(sizes.reviews),
    '--requests',
    String(sizes.requests),
    '--days',
    String(DAYS),
    '--seed',
    String(SEED),
  ]);
  for (let i = 1; i <= sizes.others; i++) {
    await cli(['business', 'create', `other-${i}`, `Other ${i}`, '--review-url', 'https://example.com/o']);
    await cli([
      'generate',
      '--business',
      `other-${i}`,
      '--reviews',
      String(sizes.otherReviews),
      '--requests',
      String(sizes.otherRequests),
      '--days',
      String(DAYS),
      '--seed',
      String(SEED + i),
    ]);
  }
  const created = await cli([
    'key',
    'create',
    '--business',
    'big',
    '--scopes',
    'reviews:read,analytics:read,review_requests:write',
  ]);
  const apiKey = created.trim().split('\n').at(-1)!.trim();
  writeFileSync(keyFile, apiKey, { mode: 0o600 });
  const generatedMs = performance.now() - started;
  writeFileSync(path.join(dir, 'complete'), String(generatedMs));
  return { db, key: apiKey, generatedMs };
}

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

const round = (value: number) => Math.round(value * 100) / 100;

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

export async function serviceBenchmark(options: ServiceOptions): Promise<Section> {
  const sizes = options.quick ? SIZES.quick : SIZES.full;
  const data = await dataset(sizes, (line) => console.log(line));
  const temp = tempDir('rd-bench-service-');
  let api: Server | undefined;
  try {
    const db = path.join(temp.dir, 'api.db');
    copyFileSync(data.db, db);
    api = await startServer('api', ENTRIES.api, {
      logFile: path.join(temp.dir, 'api.log'),
      env: {
        DATABASE_PATH: db,
        FREQUENCY_CAP_DAYS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        MONTHLY_SEND_ALLOWANCE: '0',
        DELIVERY_PROVIDER: 'outbox',
        // Any hour: a send at night would be held for the sending window.
        QUIET_HOURS: 'off',
        LOG_LEVEL: 'info',
      },
    });
    const count = options.quick ? 300 : 1000;
    const total = sizes.reviews;
    const lastPage = Math.ceil(total / 20);
    const cases: { name: string; path: string; target: 'list' | 'analytics' | 'analytics365' }[] = [
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

    const measured: { name: string; target: string; client: number[]; prefix: string; note: string }[] = [];
    for (const [i, c] of cases.entries()) {
      await sequential(`${api.url}${c.path}`, data.key, 50, `warm-${i}-`);
      const prefix = `bench-${i}-`;
      const { latencies, body } = await sequential(`${api.url}${c.path}`, data.key, count, prefix);
      const list = body.data;
      const note = Array.isArray(list?.reviews)
        ? `total ${list.total?.toLocaleString('en-US')}, ${(list!.reviews as unknown[]).length} rows`
        : `${list?.daily?.length ?? 0} days`;
      measured.push({ name: c.name, target: c.target, client: latencies, prefix, note });
    }
    // The API writes its log asynchronously: give it a moment to reach the file.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const server = serverDurations(api.logFile);

    const rows: Table['rows'] = [];
    const targets: Target[] = [];
    let worstListP50 = 0;
    let worstListP99 = 0;
    let worstListCase = '';
    for (const m of measured) {
      const s = server.get(m.prefix) ?? [];
      const p50 = percentile(m.client, 50);
      const p99 = percentile(m.client, 99);
      rows.push([
        m.name,
        round(p50),
        round(p99),
        round(Math.max(...m.client)),
        s.length ? round(percentile(s, 50)) : null,
        s.length ? round(percentile(s, 99)) : null,
        m.note,
      ]);
      if (m.target === 'list') {
        if (p99 > worstListP99) worstListCase = m.name;
        worstListP50 = Math.max(worstListP50, p50);
        worstListP99 = Math.max(worstListP99, p99);
      }
      if (m.target === 'analytics365') {
        targets.push({
          name: 'analytics days=365, p50 over HTTP',
          target: '≤ 10 ms',
          measured: `${round(p50)} ms (p99 ${round(p99)} ms)`,
          met: p50 <= 10,
        });
      }
    }
    targets.unshift(
      {
        name: 'list, every case, p50 over HTTP',
        target: '≤ 2 ms',
        measured: `worst ${round(worstListP50)} ms`,
        met: worstListP50 <= 2,
      },
      {
        name: 'list, every case, p99 over HTTP',
        target: '≤ 10 ms',
        measured: `worst ${round(worstListP99)} ms (${worstListCase})`,
        met: worstListP99 <= 10,
      },
    );

    // Sends per second: POST /api/v1/requests/send with the outbox provider (every send is a
    // transaction: request, outbox message, roll-ups), many callers at once.
    const sendSeconds = options.quick ? 3 : 10;
    const sendRows: Table['rows'] = [];
    let bestSends = 0;
    for (const connections of [1, 10, 50]) {
      const before = api.cpuMs();
      const result = await runLoad({
        url: api.url,
        connections,
        seconds: sendSeconds,
        request: sendRequest(data.key, api.url),
      });
      const cpu = ((api.cpuMs() - before) * 1000) / Math.max(1, result.ok);
      bestSends = Math.max(bestSends, result.rps);
      sendRows.push([
        String(connections),
        Math.round(result.rps),
        round(result.p50),
        round(result.p99),
        Math.round(cpu),
        String(result.failed),
      ]);
    }
    targets.push({
      name: 'sends per second (outbox provider, over HTTP)',
      target: '≥ 1,000/s',
      measured: `${Math.round(bestSends).toLocaleString('en-US')}/s`,
      met: bestSends >= 1000,
    });

    const scale = `${sizes.reviews.toLocaleString('en-US')} reviews and ${sizes.requests.toLocaleString('en-US')} requests for one business; ${sizes.others} other businesses with ${sizes.otherReviews.toLocaleString('en-US')} of each`;
    return {
      name: 'Service at scale',
      tables: [
        {
          title: `GET over HTTP, ${count} sequential keep-alive calls per case — ${scale}`,
          note: 'Client: request sent → last byte read, in the benchmark process. Server: the API’s own request log (request received → answer written).',
          columns: ['case', 'p50 ms', 'p99 ms', 'max ms', 'server p50', 'server p99', 'answer'],
          rows,
        },
        {
          title: `POST /api/v1/requests/send, ${sendSeconds} s per row (SMS through the outbox provider)`,
          note: 'Each send: validation, phone check, one transaction (request, outbox message, roll-ups, usage).',
          columns: ['conns', 'sends/s', 'p50 ms', 'p99 ms', 'API CPU µs/send', 'errors'],
          rows: sendRows,
        },
      ],
      targets,
      notes: [
        data.generatedMs === null
          ? 'Data: reused from the cache (same schema, generator, sizes and day).'
          : `Data generated with \`cli generate\` in ${(data.generatedMs / 1000).toFixed(0)} s (cached for later runs the same day).`,
        'API: LOG_LEVEL=info (stdout to a file), FREQUENCY_CAP_DAYS=0, RATE_LIMIT_PER_MINUTE=0, MONTHLY_SEND_ALLOWANCE=0.',
      ],
    };
  } finally {
    await api?.stop();
    temp.cleanup();
  }
}
