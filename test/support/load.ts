import http from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { type FakeUpstream, faults, startFakeUpstream } from './fault-upstream.ts';
import type { Session } from './http.ts';
import { mb, memoryOf } from './memory.ts';
import { type SystemApi, type SystemBff, startSystemApi, startSystemBff } from './stack.ts';

// A steady stream of mixed dashboard traffic through the BFF to the real API (demo data), with a
// link in between that answers every `rateLimitEvery`-th call with the upstream's 429 — the only
// errors allowed. Open loop: requests start on the clock whatever the answers do, so a slowdown
// shows as latency, not as a lower rate.

export type LoadOptions = {
  durationMs: number;
  ratePerSecond: number;
  /** Every n-th upstream call is answered 429 (Retry-After) by the link: intended errors. */
  rateLimitEvery: number;
  /** Called every second with progress (soak runs print it). */
  onTick?: (second: number, line: string) => void;
};

export type Window = { second: number; count: number; p50: number; p99: number; max: number };

export type LoadResult = {
  requests: number;
  byKind: Record<string, number>;
  statuses: Record<number, number>;
  intended429: number;
  injected429: number;
  unexpected: string[];
  sendsAccepted: number;
  firstMinute: Window;
  lastMinute: Window;
  memory: { warmMb: number; endMb: number; peakMb: number; samples: { second: number; rssMb: number }[] };
};

export type LoadStack = {
  api: SystemApi;
  link: FakeUpstream;
  bff: SystemBff;
  close(): Promise<void>;
};

/** The stack for the tests of one file: started before them, closed after them. */
export function useLoadStack(): () => LoadStack {
  let stack: LoadStack | undefined;
  beforeAll(async () => {
    stack = await startLoadStack();
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the load stack did not start');
    return stack;
  };
}

export async function startLoadStack(): Promise<LoadStack> {
  const api = await startSystemApi({
    SEED_DEMO: '1',
    RATE_LIMIT_PER_MINUTE: '0',
    MONTHLY_SEND_ALLOWANCE: '0',
    FREQUENCY_CAP_DAYS: '0',
    LOG_LEVEL: 'warn',
  });
  const key = await api.createKey();
  const link = await startFakeUpstream();
  link.behave(faults.relay(api.url));
  const bff = await startSystemBff(link.url, {
    UPSTREAM_API_KEY: key,
    UPSTREAM_ORIGIN: api.url,
    UPSTREAM_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'warn',
  });
  return {
    api,
    link,
    bff,
    async close() {
      await bff.cleanup();
      await link.close();
      await api.cleanup();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function window(samples: { at: number; ms: number }[], from: number, to: number): Window {
  const ms = samples
    .filter((s) => s.at >= from && s.at < to)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    second: Math.round(from / 1000),
    count: ms.length,
    p50: round(percentile(ms, 50)),
    p99: round(percentile(ms, 99)),
    max: round(ms.at(-1) ?? 0),
  };
}

export async function runLoad(stack: LoadStack, options: LoadOptions): Promise<LoadResult> {
  const { bff, link, api } = stack;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sessions: Session[] = [];
  const owner = await bff.owner();
  sessions.push(owner);
  for (const role of ['manager', 'staff'] as const) {
    const email = `${role}-${Date.now()}@load.example`;
    const password = `${role}-load-password`;
    await owner.post('/bff/users', { email, role, password });
    const session = bff.session();
    await session.login(email, password);
    sessions.push(session);
  }
  for (const session of sessions) session.agent = agent;

  // The link answers every n-th forwarded call with 429, and counts them.
  let forwarded = 0;
  let injected429 = 0;
  const relay = faults.relay(api.url);
  const limited = faults.rateLimited(1);
  link.behave((req, res, socket) => {
    forwarded++;
    if (forwarded % options.rateLimitEvery === 0) {
      injected429++;
      limited(req, res, socket);
    } else relay(req, res, socket);
  });

  const statuses: Record<number, number> = {};
  const byKind: Record<string, number> = {};
  const unexpected: string[] = [];
  const samples: { at: number; ms: number }[] = [];
  const memorySamples: { second: number; rssMb: number }[] = [];
  let intended429 = 0;
  let sendsAccepted = 0;
  let seq = 0;
  let inFlight = 0;
  const started = performance.now();

  const kinds: [
    string,
    number,
    (s: Session, n: number) => Promise<{ status: number; ms: number; text: string }>,
  ][] = [
    ['reviews', 55, (s, n) => s.get(`/api/v1/reviews?page=${1 + (n % 40)}&limit=${[20, 50, 100][n % 3]}`)],
    [
      'reviews filtered',
      15,
      (s, n) => s.get(`/api/v1/reviews?status=pending&minRating=${1 + (n % 5)}&page=${1 + (n % 5)}`),
    ],
    ['analytics', 12, (s, n) => s.get(`/api/v1/analytics?days=${[7, 30, 90, 365][n % 4]}`)],
    ['send history', 8, (s, n) => s.get(`/bff/sends?limit=20&page=${1 + (n % 3)}`)],
    ['me', 5, (s) => s.get('/auth/me')],
    [
      'send',
      5,
      (s, n) =>
        s.send(
          n % 2 === 0
            ? { channel: 'link', customerName: `Load ${n}` }
            : { channel: 'sms', customerPhone: `+1415555${String(1000 + (n % 8999)).padStart(4, '0')}` },
        ),
    ],
  ];
  const totalWeight = kinds.reduce((sum, [, w]) => sum + w, 0);
  const pick = (n: number) => {
    let r = (n * 7919) % totalWeight;
    for (const kind of kinds) {
      r -= kind[1];
      if (r < 0) return kind;
    }
    return kinds[0]!;
  };

  const fire = async () => {
    const n = seq++;
    const [kind, , call] = pick(n);
    // Staff may not read analytics: give that call to a manager or owner.
    const session = kind === 'analytics' ? sessions[n % 2]! : sessions[n % 3]!;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    inFlight++;
    try {
      const reply = await call(session, n);
      samples.push({ at: performance.now() - started, ms: reply.ms });
      statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
      if (reply.status === 429) intended429++;
      else if (reply.status < 200 || reply.status >= 300) {
        unexpected.push(`${kind}: ${reply.status} ${reply.text.slice(0, 120)}`);
      } else if (kind === 'send') sendsAccepted++;
    } catch (error) {
      unexpected.push(`${kind}: ${(error as Error).message}`);
    } finally {
      inFlight--;
    }
  };

  const pid = bff.app.child.pid!;
  const interval = 1000 / options.ratePerSecond;
  const pending = new Set<Promise<void>>();
  let next = performance.now();
  let lastTick = 0;
  while (performance.now() - started < options.durationMs) {
    const now = performance.now();
    if (now >= next) {
      // Bounded: a stalled BFF must not make the load generator eat the machine.
      if (inFlight < 500) {
        const p = fire();
        pending.add(p);
        void p.finally(() => pending.delete(p));
      } else unexpected.push('more than 500 requests in flight');
      next += interval;
      continue;
    }
    const second = Math.floor((now - started) / 1000);
    if (second !== lastTick) {
      lastTick = second;
      if (second % 5 === 0) memorySamples.push({ second, rssMb: mb(memoryOf(pid).rssMb) });
      options.onTick?.(
        second,
        `${second}s: ${seq} requests, ${inFlight} in flight, ${unexpected.length} unexpected`,
      );
    }
    // Stand-in: clients arriving at the load's rate.
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(next - now, 20))));
  }
  await Promise.all(pending);
  agent.destroy();
  link.behave(faults.relay(api.url));

  const duration = performance.now() - started;
  const minute = Math.min(60_000, duration / 3);
  const memory = memoryOf(pid);
  const afterWarmUp = memorySamples.find((s) => s.second * 1000 >= minute) ?? memorySamples[0]!;
  return {
    requests: seq,
    byKind,
    statuses,
    intended429,
    injected429,
    unexpected,
    sendsAccepted,
    firstMinute: window(samples, 0, minute),
    lastMinute: window(samples, duration - minute, duration + 1),
    memory: {
      warmMb: afterWarmUp.rssMb,
      endMb: mb(memory.rssMb),
      peakMb: mb(memory.peakMb),
      samples: memorySamples,
    },
  };
}
