import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, type FakeUpstream, faults, startFakeUpstream } from './support/fault-upstream.ts';
import { recordFigure } from './support/figures.ts';
import { isEnvelope, type Reply, type Session } from './support/http.ts';
import { mb, memoryOf } from './support/memory.ts';
import { scaled } from './support/soak.ts';
import { type SystemBff, startSystemBff } from './support/stack.ts';

// Every way the upstream can misbehave, one at a time, against the BFF as a real process: the
// browser gets the envelope with the status that says what happened, within the BFF's timeout;
// the BFF keeps serving everything else meanwhile; and its memory stays bounded however large or
// slow the upstream's answers are.

const TIMEOUT_MS = 2_000;
/** Slack on top of the timeout before a fault's answer counts as late (a loaded 2-core machine). */
const SLACK_MS = 6_000;
/** Peak resident memory may rise this much above the BFF's idle size, whatever the upstream sends. */
const PEAK_BOUND_MB = 160;
/**
 * Over several rounds of every fault (the soak), the later rounds' highest resident memory may be
 * at most this much above the earlier rounds' highest. (Measured: RSS wanders ±40 MB between
 * rounds as the allocator keeps and reuses freed buffers; a leak of the 8 MB answer buffer per
 * faulty read would add 30+ MB a round.)
 */
const ROUND_GROWTH_BOUND_MB = 48;

const REVIEWS = '/api/v1/reviews';
const SEND = '/api/v1/requests/send';

type Expectation = {
  name: string;
  fault: () => Behaviour;
  /** Status of a read (GET /api/v1/reviews). */
  read: number;
  /** Status of a send, and the outcome the journal records for it. */
  send: number;
  outcome: 'sent' | 'failed' | 'unknown';
  /** Headers the browser must get with a read (e.g. Retry-After). */
  readHeaders?: Record<string, string>;
  /** The fault holds its calls for a while: calls to healthy routes must not wait for them. */
  lingers?: boolean;
};

const MATRIX: Expectation[] = [
  {
    name: 'slow (under the timeout)',
    fault: () => faults.slow(TIMEOUT_MS / 2),
    read: 200,
    send: 200,
    outcome: 'sent',
    lingers: true,
  },
  { name: 'hanging', fault: faults.hang, read: 504, send: 504, outcome: 'unknown', lingers: true },
  {
    name: 'headers, then a body a byte at a time',
    fault: () => faults.drip(300),
    read: 504,
    send: 504,
    outcome: 'unknown',
    lingers: true,
  },
  {
    name: 'reset after reading the body',
    fault: faults.resetAfterBody,
    read: 502,
    send: 502,
    outcome: 'unknown',
  },
  {
    name: 'closed after reading the body',
    fault: faults.closeAfterBody,
    read: 502,
    send: 502,
    outcome: 'unknown',
  },
  { name: 'cut off mid-body', fault: faults.cutMidBody, read: 502, send: 502, outcome: 'unknown' },
  {
    name: '429 with Retry-After',
    fault: () => faults.rateLimited(30),
    read: 429,
    send: 429,
    outcome: 'failed',
    readHeaders: { 'retry-after': '30', 'ratelimit-remaining': '0' },
  },
  // The service's own 500 (`internal`) may come after a delivery: the send is unknown, not failed.
  { name: '500 envelope', fault: faults.serverError, read: 500, send: 500, outcome: 'unknown' },
  {
    name: '503 envelope',
    fault: faults.unavailable,
    read: 503,
    send: 503,
    outcome: 'failed',
    readHeaders: { 'retry-after': '2' },
  },
  {
    name: '503 page from a gateway',
    fault: () => faults.gatewayPage(503),
    read: 503,
    send: 503,
    outcome: 'failed',
  },
  {
    name: '502 page from a gateway',
    fault: () => faults.gatewayPage(502),
    read: 502,
    send: 502,
    outcome: 'unknown',
  },
  { name: 'malformed JSON', fault: faults.malformedJson, read: 502, send: 502, outcome: 'unknown' },
  { name: '50 MB body', fault: () => faults.hugeBody(50), read: 502, send: 502, outcome: 'unknown' },
  { name: 'wrong content type', fault: faults.wrongContentType, read: 502, send: 502, outcome: 'unknown' },
  {
    name: 'valid JSON, not the envelope',
    fault: () => faults.notEnvelope(),
    read: 502,
    send: 502,
    outcome: 'unknown',
  },
  {
    name: 'a JSON array',
    fault: () => faults.notEnvelope([{ id: 'r1' }]),
    read: 502,
    send: 502,
    outcome: 'unknown',
  },
];

let upstream: FakeUpstream;
let bff: SystemBff;
let owner: Session;
let baseline: { rssMb: number; peakMb: number };
let phone = 2000;
const nextSend = () => ({ channel: 'sms', customerName: 'Fault Test', customerPhone: `+1415555${phone++}` });

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startSystemBff(upstream.url, { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
  owner = await bff.owner();
  // Warm up (JIT, pools, the session cache) before the baseline is taken.
  for (let i = 0; i < 50; i++) await owner.get(`${REVIEWS}?page=${1 + (i % 5)}`);
  baseline = memoryOf(bff.app.child.pid!);
});

afterAll(async () => {
  await bff?.cleanup();
  await upstream?.close();
});

function expectEnvelope(reply: Reply, label: string) {
  expect(isEnvelope(reply.json), `${label}: envelope, got ${reply.status} ${reply.text.slice(0, 200)}`).toBe(
    true,
  );
}

describe('a misbehaving upstream', () => {
  const rounds = scaled(1, 10, 'SOAK_FAULT_ROUNDS');
  const concurrent = 4;

  it(`each fault: the right status as the envelope, within the timeout, others still served, memory bounded (${rounds} round(s))`, async () => {
    const injectedBefore = upstream.injected;
    let faultyCalls = 0;
    const perRound: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const row of MATRIX) {
        upstream.reset();
        upstream.behaveOn(REVIEWS, row.fault());
        upstream.behaveOn(SEND, row.fault());
        const started = Date.now();
        const settledOrder: string[] = [];
        const faulty = Array.from({ length: concurrent }, (_, i) =>
          owner.get(`${REVIEWS}?page=${i + 1}`).then((reply) => {
            settledOrder.push('faulty');
            return reply;
          }),
        );
        const sendBody = nextSend();
        const sendKey = crypto.randomUUID();
        const send = owner.send(sendBody, sendKey).then((reply) => {
          settledOrder.push('faulty');
          return reply;
        });
        // Meanwhile, everything that does not touch the broken route is answered.
        const healthy = await Promise.all([
          owner.get('/api/v1/analytics?days=7'),
          owner.get('/auth/me'),
          owner.get('/bff/sends?limit=1'),
          bff.session().get('/healthz'),
        ]);
        settledOrder.push('healthy');
        const reads = await Promise.all(faulty);
        const sent = await send;
        const elapsed = Date.now() - started;
        faultyCalls += concurrent + 1;

        for (const reply of healthy)
          expect({ fault: row.name, status: reply.status }).toEqual({ fault: row.name, status: 200 });
        if (row.lingers) {
          // The healthy calls did not queue behind the held ones.
          expect({ fault: row.name, firstSettled: settledOrder[0] }).toEqual({
            fault: row.name,
            firstSettled: 'healthy',
          });
        }
        for (const reply of reads) {
          expect({ fault: row.name, read: reply.status }).toEqual({ fault: row.name, read: row.read });
          expectEnvelope(reply, row.name);
          for (const [name, value] of Object.entries(row.readHeaders ?? {}))
            expect(reply.headers[name]).toBe(value);
          // Nothing about the upstream leaks into the message.
          expect(reply.text).not.toContain(new URL(upstream.url).port);
        }
        expect({ fault: row.name, send: sent.status }).toEqual({ fault: row.name, send: row.send });
        expectEnvelope(sent, `${row.name} (send)`);
        expect(elapsed, `${row.name}: answered within the timeout`).toBeLessThan(TIMEOUT_MS + SLACK_MS);

        const history = await owner.get('/bff/sends?limit=1');
        expect({ fault: row.name, outcome: history.json.data.sends[0].outcome }).toEqual({
          fault: row.name,
          outcome: row.outcome,
        });
        // What a retry of the same intent gets: unknown outcomes are never sent again blindly.
        upstream.behaveOn(SEND, null);
        const retry = await owner.send(sendBody, sendKey);
        const expectedRetry = row.outcome === 'unknown' ? 409 : 200;
        expect({ fault: row.name, retry: retry.status }).toEqual({ fault: row.name, retry: expectedRetry });
        if (row.outcome === 'sent') expect(retry.headers['idempotency-replayed']).toBe('true');

        const memory = memoryOf(bff.app.child.pid!);
        expect(
          memory.peakMb - baseline.rssMb,
          `${row.name}: peak memory ${mb(memory.peakMb)} MB vs ${mb(baseline.rssMb)} MB idle`,
        ).toBeLessThan(PEAK_BOUND_MB);
      }
      perRound.push(mb(memoryOf(bff.app.child.pid!).rssMb));
    }
    upstream.reset();
    // Still alive, still healthy, nothing crashed on the way.
    expect(bff.app.child.exitCode).toBeNull();
    expect((await bff.session().get('/healthz')).status).toBe(200);
    expect((await owner.get(REVIEWS)).status).toBe(200);
    expect(bff.app.logs.join('\n')).not.toMatch(/uncaught exception|unhandled error/);

    const after = memoryOf(bff.app.child.pid!);
    const injected = upstream.injected - injectedBefore;
    recordFigure({ area: 'faults', what: 'fault kinds', value: MATRIX.length, summary: 'counted' });
    recordFigure({ area: 'faults', what: 'rounds of every fault', value: rounds, summary: 'counted' });
    recordFigure({
      area: 'faults',
      what: 'faults injected (upstream answers)',
      value: injected,
      summary: 'counted',
    });
    recordFigure({ area: 'faults', what: 'faulty calls through the BFF', value: faultyCalls });
    recordFigure({ area: 'faults', what: 'BFF RSS idle', value: mb(baseline.rssMb), unit: 'MB' });
    recordFigure({
      area: 'faults',
      what: 'BFF RSS peak − idle',
      value: `${mb(after.peakMb - baseline.rssMb)} (bound ${PEAK_BOUND_MB})`,
      unit: 'MB',
      summary: 'key',
    });
    recordFigure({ area: 'faults', what: 'BFF RSS after each round', value: perRound.join(' '), unit: 'MB' });
    // Freed answer buffers stay with the allocator (RSS does not fall back to idle): the promise
    // is a plateau, not a return to the start. A leak grows round after round; the soak, with
    // its ten rounds, compares the later rounds' highest RSS with the earlier rounds'.
    if (perRound.length >= 4) {
      const half = Math.floor(perRound.length / 2);
      const growth = mb(Math.max(...perRound.slice(half)) - Math.max(...perRound.slice(0, half)));
      recordFigure({
        area: 'faults',
        what: 'RSS growth, later vs earlier rounds',
        value: `${growth} (bound ${ROUND_GROWTH_BOUND_MB})`,
        unit: 'MB',
        summary: 'key',
      });
      expect(growth, `RSS by round: ${perRound.join(', ')} MB`).toBeLessThan(ROUND_GROWTH_BOUND_MB);
    }
  });

  it('a 429 storm is passed through, never retried by the BFF, and Retry-After reaches every caller', async () => {
    upstream.reset();
    upstream.behave(faults.rateLimited(17));
    const storm = await Promise.all(
      Array.from({ length: scaled(60, 600) }, (_, i) => owner.get(`${REVIEWS}?page=${1 + (i % 50)}`)),
    );
    expect(new Set(storm.map((r) => r.status))).toEqual(new Set([429]));
    expect(new Set(storm.map((r) => r.headers['retry-after']))).toEqual(new Set(['17']));
    for (const reply of storm) expectEnvelope(reply, '429 storm');
    // One upstream call per browser call: the BFF adds no retries of its own.
    expect(upstream.count(REVIEWS)).toBe(storm.length);
    upstream.reset();
    expect((await owner.get(REVIEWS)).status).toBe(200);
    recordFigure({ area: 'faults', what: '429 storm calls', value: storm.length, summary: 'counted' });
  });
});
