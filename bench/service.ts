import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateHistory } from './lib/generate.ts';
import { ENTRIES, repoRoot, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import { percentile, type Section, type Table, type Target } from './lib/report.ts';
import { BENCH_API_ENV, type Measured, measureApi, round, sendSeconds } from './lib/service-calls.ts';
import { postgresBenchmark } from './service-postgres.ts';

export { sendRequest } from './lib/service-calls.ts';

// Benchmark 2: the service at scale. One business with a million reviews and a million requests
// (plus ten other businesses, so isolation is measured too) in a temporary database, generated
// with the API's own loader (`cli generate`). Sequential keep-alive calls over HTTP give the
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
    ...readdirSync(path.join(repoRoot, 'apps/api/src/store/migrations')).map(
      (f) => `apps/api/src/store/migrations/${f}`,
    ),
    // The stores (store/ composes each feature's store.ts), the roll-ups and the demo's loader.
    ...readdirSync(path.join(repoRoot, 'apps/api/src'), { recursive: true, encoding: 'utf8' })
      .filter(
        (f) => /(^store\/[^/]+|store|request-rollup|^demo\/[^/]+)\.ts$/.test(f) && !f.endsWith('.test.ts'),
      )
      .map((f) => `apps/api/src/${f}`),
    'apps/api/src/ids.ts',
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
  await generateHistory(cli, 'big', {
    reviews: sizes.reviews,
    requests: sizes.requests,
    days: DAYS,
    seed: SEED,
  });
  for (let i = 1; i <= sizes.others; i++) {
    await cli(['business', 'create', `other-${i}`, `Other ${i}`, '--review-url', 'https://example.com/o']);
    await generateHistory(cli, `other-${i}`, {
      reviews: sizes.otherReviews,
      requests: sizes.otherRequests,
      days: DAYS,
      seed: SEED + i,
    });
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

/** The targets for one engine's figures. */
function targetsOf(engine: string, m: Measured): Target[] {
  const list = m.cases.filter((c) => c.target === 'list');
  const worstP50 = Math.max(...list.map((c) => c.p50));
  const worst99 = list.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const year = m.cases.find((c) => c.target === 'analytics365')!;
  const bestSends = Math.max(...m.sends.map((s) => s.rps));
  return [
    {
      name: `${engine}: list, every case, p50 over HTTP`,
      target: '≤ 2 ms',
      measured: `worst ${round(worstP50)} ms`,
      met: worstP50 <= 2,
    },
    {
      name: `${engine}: list, every case, p99 over HTTP`,
      target: '≤ 10 ms',
      measured: `worst ${round(worst99.p99)} ms (${worst99.name})`,
      met: worst99.p99 <= 10,
    },
    {
      name: `${engine}: analytics days=365, p50 over HTTP`,
      target: '≤ 10 ms',
      measured: `${round(year.p50)} ms (p99 ${round(year.p99)} ms)`,
      met: year.p50 <= 10,
    },
    {
      name: `${engine}: sends per second (outbox provider, over HTTP)`,
      target: '≥ 1,000/s',
      measured: `${Math.round(bestSends).toLocaleString('en-US')}/s`,
      met: bestSends >= 1000,
    },
  ];
}

export async function serviceBenchmark(options: ServiceOptions): Promise<Section> {
  const sizes = options.quick ? SIZES.quick : SIZES.full;
  const data = await dataset(sizes, (line) => console.log(line));
  const temp = tempDir('rd-bench-service-');
  let api: Server | undefined;
  let onSqlite: Measured;
  try {
    const db = path.join(temp.dir, 'api.db');
    copyFileSync(data.db, db);
    api = await startServer('api', ENTRIES.api, {
      logFile: path.join(temp.dir, 'api.log'),
      env: { DATABASE_PATH: db, ...BENCH_API_ENV },
    });
    onSqlite = await measureApi(api, data.key, options.quick, sizes.reviews);
  } finally {
    await api?.stop();
    temp.cleanup();
  }
  // The same data, the same calls, with the service on PostgreSQL; then one vs two replicas.
  const pg = await postgresBenchmark({
    sqliteFile: data.db,
    key: data.key,
    quick: options.quick,
    reviews: sizes.reviews,
  });
  const onPostgres = pg.measured;

  const rows: Table['rows'] = onSqlite.cases.map((c, i) => {
    const p = onPostgres.cases[i]!;
    const server = (x: number[]) => (x.length ? round(percentile(x, 50)) : null);
    return [
      c.name,
      round(c.p50),
      round(c.p99),
      round(p.p50),
      round(p.p99),
      server(c.server),
      server(p.server),
      c.note,
    ];
  });
  const sendRows: Table['rows'] = [];
  for (const [engine, m] of [
    ['SQLite', onSqlite],
    ['PostgreSQL', onPostgres],
  ] as const) {
    for (const s of m.sends) {
      sendRows.push([
        engine,
        String(s.connections),
        Math.round(s.rps),
        round(s.p50),
        round(s.p99),
        Math.round(s.cpuUsPerSend),
        String(s.failed),
      ]);
    }
  }

  const scale = `${sizes.reviews.toLocaleString('en-US')} reviews and ${sizes.requests.toLocaleString('en-US')} requests for one business; ${sizes.others} other businesses with ${sizes.otherReviews.toLocaleString('en-US')} of each`;
  return {
    name: 'Service at scale',
    tables: [
      {
        title: `GET over HTTP, ${options.quick ? 300 : 1000} sequential keep-alive calls per case, SQLite beside PostgreSQL — ${scale}`,
        note: 'Client: request sent → last byte read, in the benchmark process. Server: the API’s own request log (request received → answer written).',
        columns: [
          'case',
          'SQLite p50 ms',
          'SQLite p99 ms',
          'PostgreSQL p50 ms',
          'PostgreSQL p99 ms',
          'server p50 SQLite',
          'server p50 PostgreSQL',
          'answer',
        ],
        rows,
      },
      {
        title: `POST /api/v1/requests/send, ${sendSeconds(options.quick)} s per row (SMS through the outbox provider)`,
        note: 'Each send: validation, phone check, one transaction (request, outbox message, roll-ups, usage).',
        columns: ['engine', 'conns', 'sends/s', 'p50 ms', 'p99 ms', 'API CPU µs/send', 'errors'],
        rows: sendRows,
      },
      pg.replicas,
      pg.loading,
    ],
    targets: [...targetsOf('SQLite', onSqlite), ...targetsOf('PostgreSQL', onPostgres)],
    notes: [
      data.generatedMs === null
        ? 'Data: reused from the cache (same schema, generator, sizes and day).'
        : `Data generated with \`cli generate\` in ${(data.generatedMs / 1000).toFixed(0)} s (cached for later runs the same day).`,
      ...pg.notes,
      'API: LOG_LEVEL=info (stdout to a file), FREQUENCY_CAP_DAYS=0, RATE_LIMIT_PER_MINUTE=0, MONTHLY_SEND_ALLOWANCE=0.',
    ],
  };
}
