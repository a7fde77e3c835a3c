import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  defaultBehaviour,
  type FakeUpstream,
  faults,
  startFakeUpstream,
} from './support/fault-upstream.ts';
import { recordFigure } from './support/figures.ts';
import { FUZZ_SEED } from './support/fuzz.ts';
import { isEnvelope, type Reply, type Session } from './support/http.ts';
import { scaled } from './support/soak.ts';
import {
  outboxCount,
  type SystemApi,
  type SystemBff,
  startSystemApi,
  startSystemBff,
  waitFor,
} from './support/stack.ts';

// At most one send per user intent, whatever fails. Each intent (one Idempotency-Key, one body)
// is submitted, double- and triple-submitted and retried while the upstream answers, hangs,
// resets, refuses or garbles; then the sends that reached the upstream are counted. Exactly one
// per intent, or zero — and then the dashboard's history says `unknown` or `failed`. Never two.

const SEND = '/api/v1/requests/send';
const TIMEOUT_MS = 600;

/** Faults of the send exchange, and whether the upstream may have acted on a request it answered so. */
const SEND_FAULTS: Record<string, { behaviour: () => Behaviour; mayHaveSent: boolean }> = {
  ok: { behaviour: () => defaultBehaviour, mayHaveSent: true },
  slow: { behaviour: () => faults.slow(TIMEOUT_MS / 3), mayHaveSent: true },
  hang: { behaviour: faults.hang, mayHaveSent: true },
  resetAfterBody: { behaviour: faults.resetAfterBody, mayHaveSent: true },
  closeAfterBody: { behaviour: faults.closeAfterBody, mayHaveSent: true },
  malformedJson: { behaviour: faults.malformedJson, mayHaveSent: true },
  notEnvelope: { behaviour: () => faults.notEnvelope(), mayHaveSent: true },
  hugeBody: { behaviour: () => faults.hugeBody(3), mayHaveSent: true },
  gateway502: { behaviour: () => faults.gatewayPage(502), mayHaveSent: true },
  // Definite refusals: the service says it did nothing.
  rateLimited: { behaviour: () => faults.rateLimited(1), mayHaveSent: false },
  serverError: { behaviour: faults.serverError, mayHaveSent: false },
  unavailable: { behaviour: faults.unavailable, mayHaveSent: false },
};

let upstream: FakeUpstream;
let bff: SystemBff;
let owner: Session;
/** Every send the upstream received: whose it was, and whether it may have gone out. */
const received: { name: string; mayHaveSent: boolean }[] = [];
let runs = 0;
let intents = 0;

function countingFault(name: string): Behaviour {
  const fault = SEND_FAULTS[name]!;
  const behaviour = fault.behaviour();
  return (req, res, socket) => {
    const body = JSON.parse(req.body.toString('utf8')) as { customerName: string };
    received.push({ name: body.customerName, mayHaveSent: fault.mayHaveSent });
    behaviour(req, res, socket);
  };
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startSystemBff(upstream.url, { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
  owner = await bff.owner();
});

afterAll(async () => {
  await bff?.cleanup();
  await upstream?.close();
});

const stepArb = fc.record({
  intent: fc.nat({ max: 2 }),
  copies: fc.constantFrom(1, 1, 1, 2, 3),
  fault: fc.constantFrom(...Object.keys(SEND_FAULTS)),
});

describe('at most once under faults (a recording upstream)', () => {
  const numRuns = scaled(40, 500, 'AT_MOST_ONCE_RUNS');

  it(`random submits, double submits and retries under every fault: never two sends per intent (${numRuns} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
        runs++;
        const run = Array.from({ length: 3 }, (_, i) => ({
          key: crypto.randomUUID(),
          body: {
            channel: 'sms',
            customerName: `Intent ${runs}-${i}-${crypto.randomUUID().slice(0, 8)}`,
            customerPhone: `+1415555${String(2000 + ((runs * 3 + i) % 7000)).padStart(4, '0')}`,
          },
          replies: [] as Reply[],
        }));
        intents += 3;
        for (const step of steps) {
          const intent = run[step.intent]!;
          upstream.behaveOn(SEND, countingFault(step.fault));
          const replies = await Promise.all(
            Array.from({ length: step.copies }, () => owner.send(intent.body, intent.key)),
          );
          intent.replies.push(...replies);
        }
        upstream.behaveOn(SEND, null);

        const history = (await owner.get('/bff/sends?limit=100')).json.data.sends as {
          customerName: string;
          outcome: string;
        }[];
        for (const intent of run) {
          const name = intent.body.customerName;
          const possiblySent = received.filter((r) => r.name === name && r.mayHaveSent).length;
          const latest = history.find((s) => s.customerName === name)?.outcome ?? 'none';
          const statuses = intent.replies.map((r) => r.status);
          const label = `${name}: statuses ${statuses.join(',')}, outcome ${latest}, possibly sent ${possiblySent}`;
          for (const reply of intent.replies) expect(isEnvelope(reply.json), label).toBe(true);
          // Never two.
          expect(possiblySent, label).toBeLessThanOrEqual(1);
          // A success (first answer or replay) means exactly one went out, and the history says so.
          if (statuses.some((s) => s === 200)) {
            expect(possiblySent, label).toBe(1);
            expect(['sent', 'warning'], label).toContain(latest);
          }
          if (latest === 'sent' || latest === 'warning') expect(possiblySent, label).toBe(1);
          // One that may have gone out is never shown as failed: it is sent, or unknown.
          if (possiblySent === 1) expect(['sent', 'warning', 'unknown'], label).toContain(latest);
          // Zero sent: the history says failed (nothing went out) or unknown — never sent.
          if (possiblySent === 0 && intent.replies.length > 0)
            expect(['failed', 'unknown'], label).toContain(latest);
          for (const status of statuses) expect([200, 409, 429, 500, 502, 503, 504], label).toContain(status);
        }
      }),
      { numRuns, seed: FUZZ_SEED, endOnFailure: true },
    );
    expect(bff.app.child.exitCode).toBeNull();
    recordFigure({ area: 'at-most-once', what: 'random runs (recording upstream)', value: runs });
    recordFigure({ area: 'at-most-once', what: 'intents', value: intents, summary: 'counted' });
    recordFigure({
      area: 'at-most-once',
      what: 'sends received by the upstream',
      value: received.length,
      summary: 'counted',
    });
    recordFigure({
      area: 'at-most-once',
      what: 'sends that may have gone out',
      value: received.filter((r) => r.mayHaveSent).length,
    });
    const names = new Set(received.filter((r) => r.mayHaveSent).map((r) => r.name));
    recordFigure({
      area: 'at-most-once',
      what: 'most sends that may have gone out, one intent',
      value: Math.max(
        0,
        ...[...names].map((n) => received.filter((r) => r.name === n && r.mayHaveSent).length),
      ),
      summary: 'key',
    });
  });

  it('a BFF killed (SIGKILL) mid-send and restarted: the intent is unknown, a retry is refused, one send', async () => {
    upstream.behaveOn(SEND, faults.hang());
    const before = upstream.count(SEND);
    const key = crypto.randomUUID();
    const body = { channel: 'sms', customerName: 'Killed mid-send', customerPhone: '+14155550199' };
    const pending = owner.send(body, key).catch((error: Error) => error);
    await waitFor(() => upstream.count(SEND) === before + 1, 10_000, 'send reached the upstream');
    await bff.stop('SIGKILL');
    expect(await pending).toBeInstanceOf(Error);
    upstream.behaveOn(SEND, null);
    await bff.restart();
    owner = await bff.owner();
    const history = await owner.get('/bff/sends?limit=1');
    expect(history.json.data.sends[0]).toMatchObject({ customerName: 'Killed mid-send', outcome: 'unknown' });
    for (let i = 0; i < 3; i++) expect((await owner.send(body, key)).status).toBe(409);
    expect(upstream.count(SEND)).toBe(before + 1);
  });
});

describe('at most once with the real API behind a faulty link', () => {
  let api: SystemApi;
  let relay: FakeUpstream;
  let viaRelay: SystemBff;
  let user: Session;
  let phone = 3100;
  const counted: { case: string; sends: number }[] = [];

  beforeAll(async () => {
    // No frequency cap: it would refuse a second send to the same number itself and hide from the
    // outbox count a BFF that sent an intent twice.
    api = await startSystemApi({
      RATE_LIMIT_PER_MINUTE: '0',
      MONTHLY_SEND_ALLOWANCE: '0',
      FREQUENCY_CAP_DAYS: '0',
    });
    const key = await api.createKey();
    relay = await startFakeUpstream();
    relay.behave(faults.relay(api.url));
    // The API's POST Origin rule wants its own origin, not the relay's.
    viaRelay = await startSystemBff(relay.url, {
      UPSTREAM_API_KEY: key,
      UPSTREAM_ORIGIN: api.url,
      UPSTREAM_TIMEOUT_MS: '1500',
    });
    user = await viaRelay.owner();
  });

  afterAll(async () => {
    await viaRelay?.cleanup();
    await relay?.close();
    await api?.cleanup();
    for (const c of counted)
      recordFigure({
        area: 'at-most-once',
        what: `real API, ${c.case}: messages in its outbox`,
        value: c.sends,
      });
    recordFigure({
      area: 'at-most-once',
      what: 'real-API cases (messages per case)',
      value: counted.map((c) => c.sends).join(' '),
      summary: 'key',
    });
  });

  async function intent(label: string, link: Parameters<typeof faults.relay>[1]) {
    const e164 = `+1415555${phone++}`;
    const body = { channel: 'sms', customerName: label, customerPhone: e164 };
    const key = crypto.randomUUID();
    relay.behave(faults.relay(api.url, link));
    const first = await user.send(body, key);
    relay.behave(faults.relay(api.url));
    const retries = [await user.send(body, key), await user.send(body, key)];
    const history = await user.get(`/bff/sends?contact=${encodeURIComponent(e164)}`);
    const sends = await outboxCount(api.url, e164);
    counted.push({ case: label, sends });
    return { first, retries, history: history.json.data.sends, sends };
  }

  it.each([
    {
      title: 'retry after a timeout (the API sent it, its answer never came): one message, retries refused',
      label: 'timeout',
      link: { after: 'hang' },
      sends: 1,
      first: 504,
    },
    {
      title: 'the connection reset after the API received the body: one message, retries refused',
      label: 'reset after the API acted',
      link: { after: 'drop' },
      sends: 1,
      first: 502,
    },
    {
      title: 'the connection reset before the API saw it: zero messages, and the intent shows as unknown',
      label: 'reset before the API',
      link: { before: 'drop' },
      sends: 0,
      first: 502,
    },
  ] as const)('$title', async ({ label, link, sends, first }) => {
    const r = await intent(label, link);
    // Counted where it matters: messages the service sent.
    expect(r.sends).toBe(sends);
    expect(r.first.status).toBe(first);
    expect(r.retries.map((x) => x.status)).toEqual([409, 409]);
    expect(r.history[0].outcome).toBe('unknown');
  });

  it('a double (and triple) submit through the real API: one message, the replay identical', async () => {
    const e164 = `+1415555${phone++}`;
    const body = { channel: 'sms', customerName: 'Triple click', customerPhone: e164 };
    const key = crypto.randomUUID();
    const replies = await Promise.all([user.send(body, key), user.send(body, key), user.send(body, key)]);
    const ok = replies.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of replies) expect([200, 409]).toContain(r.status);
    const replay = await user.send(body, key);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(ok[0]!.text);
    const sends = await outboxCount(api.url, e164);
    counted.push({ case: 'triple submit', sends });
    expect(sends).toBe(1);
  });

  for (const [label, link, expected] of [
    ['BFF killed while the API’s answer is held back', { after: 'hang' }, 1],
    ['BFF killed before the request reached the API', { before: 'hang' }, 0],
  ] as const) {
    it(`${label}: after the restart the intent is unknown, retries are refused, ${expected} message(s)`, async () => {
      const e164 = `+1415555${phone++}`;
      const body = { channel: 'sms', customerName: label, customerPhone: e164 };
      const key = crypto.randomUUID();
      let relayed = false;
      const calls = relay.calls.length;
      relay.behave(faults.relay(api.url, { ...link, onRelayed: () => (relayed = true) }));
      const pending = user.send(body, key).catch((error: Error) => error);
      await waitFor(
        () => (link.after === 'hang' ? relayed : relay.calls.length > calls),
        10_000,
        'the send reached the relay',
      );
      await viaRelay.stop('SIGKILL');
      await pending;
      relay.behave(faults.relay(api.url));
      await viaRelay.restart();
      user = await viaRelay.owner();
      const history = await user.get(`/bff/sends?contact=${encodeURIComponent(e164)}`);
      expect(history.json.data.sends[0].outcome).toBe('unknown');
      expect((await user.send(body, key)).status).toBe(409);
      const sends = await outboxCount(api.url, e164);
      counted.push({ case: label, sends });
      expect(sends).toBe(expected);
    });
  }
});
