import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type FakeGoogle, googleSettings, startFakeGoogle } from '../test/support/fake-google/server.ts';
import { ENTRIES, type Server, startServer, tempDir } from './lib/processes.ts';
import { median, percentile, type Section, type Table, type Target } from './lib/report.ts';
import { login, startBenchBff } from './proxy.ts';

// The review inbox's benchmark, service side: what answering a review through the BFF adds to
// the API direct (replies to reviews left through the customer page: no Google stand-in in the
// path), and the Google job against the stand-in: a first sync of 10,000 reviews, then an
// incremental one. The inbox in the browser is measured in inbox-browser.ts.

const ACCOUNT = '1098765432101234567';
const LOCATION = '70000000000000000001';
const GOOGLE_REVIEWS = 10_000;
const SYNC_SECONDS = 10;

type Caller = { url: string; headers: Record<string, string> };

async function call(caller: Caller, method: string, url: string, body?: unknown) {
  const response = await fetch(`${caller.url}${url}`, {
    method,
    headers: {
      ...caller.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { success: boolean; data: Record<string, unknown> };
  if (response.status !== 200)
    throw new Error(`${method} ${url}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Pending reviews left through the customer page, by id (each is answered once, by one caller). */
async function pendingDirect(direct: Caller, wanted: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ids.length < wanted; page++) {
    const data = await call(
      direct,
      'GET',
      `/api/v1/reviews?status=pending&platform=direct&limit=100&page=${page}`,
    );
    const reviews = data.reviews as { id: string }[];
    if (reviews.length === 0) break;
    ids.push(...reviews.map((r) => r.id));
  }
  return ids;
}

/** One call's wall time in ms as the caller sees it, and the review's version after it. */
async function timed(caller: Caller, method: string, url: string, body?: unknown) {
  const started = performance.now();
  const review = await call(caller, method, url, body);
  return { ms: performance.now() - started, version: review.version as number };
}

type Times = { reply: number[]; withdraw: number[] };

/**
 * Replies to pending reviews, each withdrawn again at once (so the demo's reviews can be
 * answered over and over): the direct caller answers one half of them, the BFF the other.
 */
async function replyOverhead(direct: Caller, bff: Caller, quick: boolean) {
  const per = quick ? 40 : 200;
  const warm = 10;
  const ids = await pendingDirect(direct, 100);
  if (ids.length < 20) throw new Error(`only ${ids.length} pending reviews to answer`);
  const half = Math.floor(ids.length / 2);
  const times = { direct: { reply: [], withdraw: [] } as Times, bff: { reply: [], withdraw: [] } as Times };
  const cycle = async (caller: Caller, id: string, i: number, into: Times | null) => {
    const path = `/api/v1/reviews/${id}/reply`;
    const replied = await timed(caller, 'POST', path, { text: `Thank you for your visit (${i}).` });
    const withdrawn = await timed(caller, 'DELETE', `${path}?version=${replied.version}`);
    into?.reply.push(replied.ms);
    into?.withdraw.push(withdrawn.ms);
  };
  // Interleaved, one call at a time: both paths see the same database and the same machine load.
  for (let i = 0; i < per + warm; i++) {
    const measured = i >= warm;
    await cycle(direct, ids[i % half]!, i, measured ? times.direct : null);
    await cycle(bff, ids[half + (i % half)]!, i, measured ? times.bff : null);
  }
  return times;
}

async function connection(api: Caller) {
  const data = await call(api, 'GET', '/api/v1/integrations/google');
  return data.connection as { lastSyncAt: string | null; lastError: string | null } | null;
}

/** Polls the connection (the benchmark's own wait; the service is not told) until `done`. */
async function until(api: Caller, done: (c: Awaited<ReturnType<typeof connection>>) => boolean) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const c = await connection(api);
    if (done(c)) return c;
    if (c?.lastError) throw new Error(`sync failed: ${c.lastError}`);
    if (Date.now() > deadline) throw new Error('sync did not finish in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function googleSync(api: Caller, fake: FakeGoogle) {
  fake.reviewsOf(ACCOUNT, LOCATION);
  const start = Date.now() - GOOGLE_REVIEWS * 60_000;
  fake.addReviews(
    ACCOUNT,
    LOCATION,
    Array.from({ length: GOOGLE_REVIEWS }, (_, i) => ({
      rating: ((i % 5) + 1) as 1 | 2 | 3 | 4 | 5,
      comment: i % 9 === 0 ? null : `Google review number ${i}: the coffee, the staff, the wait.`,
      createTime: start + i * 60_000,
      ...(i % 3 === 0 ? { reply: `Thanks, guest ${i}` } : {}),
    })),
  );
  const refreshToken = fake.issueRefreshToken([`${ACCOUNT}/${LOCATION}`]);
  // The demo data has synced reviews of its own: what the sync stores is counted from there.
  const before = (await call(api, 'GET', '/api/v1/reviews?platform=google&limit=1')).total as number;
  const lists = fake.count('list');
  const started = performance.now();
  await call(api, 'PUT', '/api/v1/integrations/google', {
    accountId: `accounts/${ACCOUNT}`,
    locationId: LOCATION,
    refreshToken,
  });
  const first = await until(api, (c) => c?.lastSyncAt != null);
  const firstMs = performance.now() - started;
  const firstPages = fake.count('list') - lists;
  const synced = await call(api, 'GET', '/api/v1/reviews?platform=google&limit=1');

  // Five new reviews on Google's side; the next run (GOOGLE_SYNC_SECONDS later) reads what is new.
  fake.addReviews(
    ACCOUNT,
    LOCATION,
    Array.from({ length: 5 }, (_, i) => ({ rating: 5 as const, comment: `New one ${i}` })),
  );
  const listsBefore = fake.count('list');
  await until(api, (c) => c?.lastSyncAt != null && c.lastSyncAt !== first?.lastSyncAt);
  const incrementalPages = fake.count('list') - listsBefore;
  const after = await call(api, 'GET', '/api/v1/reviews?platform=google&limit=1');
  return {
    firstMs,
    firstPages,
    stored: (synced.total as number) - before,
    incrementalPages,
    incrementalStored: (after.total as number) - (synced.total as number),
  };
}

export async function inboxBenchmark(options: { quick: boolean }): Promise<Section> {
  const temp = tempDir('rd-bench-inbox-');
  const servers: Server[] = [];
  const fake = await startFakeGoogle();
  try {
    const keyFile = path.join(temp.dir, 'api-key');
    const api = await startServer('api', ENTRIES.api, {
      logFile: path.join(temp.dir, 'api.log'),
      env: {
        DATABASE_PATH: path.join(temp.dir, 'api.db'),
        SEED_DEMO: '1',
        DEMO_KEY_FILE: keyFile,
        SECRETS_KEY_FILE: path.join(temp.dir, 'api-secrets-key'),
        FREQUENCY_CAP_DAYS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        MONTHLY_SEND_ALLOWANCE: '0',
        LOG_LEVEL: 'info',
        ...googleSettings(fake),
        GOOGLE_SYNC_SECONDS: String(SYNC_SECONDS),
      },
    });
    servers.push(api);
    const apiKey = readFileSync(keyFile, 'utf8').trim();
    const bff = await startBenchBff(temp.dir, api.url, keyFile, { name: 'bff', workers: '1' });
    servers.push(bff);
    const direct: Caller = { url: api.url, headers: { 'x-api-key': apiKey, origin: api.url } };
    const viaBff: Caller = {
      url: bff.url,
      headers: { cookie: await login(bff.url), 'x-csrf': '1', origin: bff.url },
    };

    const replies = await replyOverhead(direct, viaBff, options.quick);
    const sync = await googleSync(direct, fake);

    const p = (sample: number[], q: number) => Math.round(percentile(sample, q) * 100) / 100;
    const added = median(replies.bff.reply) - median(replies.direct.reply);
    const line = (name: string, sample: number[]): Table['rows'][number] => [
      name,
      p(sample, 50),
      p(sample, 90),
      p(sample, 99),
      sample.length,
    ];
    const rows: Table['rows'] = [
      line('reply, API direct', replies.direct.reply),
      line('reply, through the BFF', replies.bff.reply),
      line('withdraw, API direct', replies.direct.withdraw),
      line('withdraw, through the BFF', replies.bff.withdraw),
    ];
    const targets: Target[] = [
      {
        name: 'answering through the BFF, added p50',
        target: '≤ 20 ms',
        measured: `${added.toFixed(2)} ms`,
        met: added <= 20,
      },
      {
        name: `first sync of ${GOOGLE_REVIEWS.toLocaleString('en')} Google reviews`,
        target: '≤ 30 s',
        measured: `${(sync.firstMs / 1000).toFixed(2)} s (${sync.firstPages} pages, ${sync.stored} stored)`,
        met: sync.firstMs <= 30_000 && sync.stored === GOOGLE_REVIEWS,
      },
      {
        name: 'incremental sync',
        target: 'reads one page',
        measured: `${sync.incrementalPages} page(s), ${sync.incrementalStored} new stored`,
        met: sync.incrementalPages === 1 && sync.incrementalStored === 5,
      },
    ];
    return {
      name: 'Review inbox: answering and the Google sync',
      tables: [
        {
          title: 'POST and DELETE /api/v1/reviews/{id}/reply, one call at a time, interleaved, ms',
          note: 'Pending reviews left through the customer page, each answered (the reply goes to the customer through the dev outbox) and withdrawn again at once: no Google stand-in in the path. A fresh Idempotency-Key each; the API direct and the BFF each have their own half of the reviews.',
          columns: ['path', 'p50', 'p90', 'p99', 'calls'],
          rows,
        },
        {
          title: 'Google sync against the stand-in (same machine, real HTTP, pageSize 50)',
          columns: ['sync', 'reviews on Google', 'list calls', 'stored', 'time'],
          rows: [
            ['first', GOOGLE_REVIEWS, sync.firstPages, sync.stored, `${(sync.firstMs / 1000).toFixed(2)} s`],
            ['incremental (5 new)', GOOGLE_REVIEWS + 5, sync.incrementalPages, sync.incrementalStored, '—'],
          ],
        },
      ],
      targets,
      notes: [
        'First sync: from the connection (PUT /api/v1/integrations/google, which tries the token and schedules the job) until the connection reports its last sync, polled every 20 ms; the job runs in the API process as in production.',
        `Incremental: the next run, GOOGLE_SYNC_SECONDS=${SYNC_SECONDS} later, stops at the first review it has seen.`,
      ],
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await fake.close();
    temp.cleanup();
  }
}
