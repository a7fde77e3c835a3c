import { checkBulkList } from '../apps/bff/src/bulk/check.ts';
import { startBff } from '../apps/bff/test/support/bff.ts';
import { startFakeUpstream } from '../test/support/fault-upstream.ts';
import type { Section } from './lib/report.ts';

// How long a list's checking holds the BFF's event loop (docs/bulk.md, "Limits"): 10,000-row lists
// of 2.3 MB posted at once by several people, while /healthz is asked every 5 ms. Measured twice:
// in this process around the check alone (the longest stretch without a turn of the event loop),
// and in the BFF process (its own event-loop delay, from /metrics, and /healthz's answer times).
// On a busy machine wall-clock stalls include the time the scheduler gave other processes; the
// CPU time between two turns is what the code itself holds the loop for.

const ROWS = 10_000;

const list = (tag: string) => ({
  channel: 'sms',
  dailyCap: 1,
  rows: Array.from({ length: ROWS }, (_, i) => ({
    customerName: `${tag} customer ${i} ${'x'.repeat(160)}`,
    customerPhone: `+1415555${String(i).padStart(4, '0')}`,
  })),
});

/** The BFF's event-loop delay since its last scrape (prom-client resets it on each), in ms. */
async function loopDelayMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN) * 1000;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/**
 * The longest stretch between two turns of this process's event loop while `work` runs: in wall
 * time, and in CPU time (which a busy machine's scheduler does not stretch).
 */
async function longestStall(work: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  let wall = performance.now();
  let cpu = process.cpuUsage();
  let wallMs = 0;
  let cpuMs = 0;
  let running = true;
  const turn = () => {
    const nowWall = performance.now();
    const used = process.cpuUsage(cpu);
    wallMs = Math.max(wallMs, nowWall - wall);
    cpuMs = Math.max(cpuMs, (used.user + used.system) / 1000);
    wall = nowWall;
    cpu = process.cpuUsage();
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  await work();
  running = false;
  return { wallMs, cpuMs };
}

/** In this process: parsing the body, then the sliced check; the longest stall of each. */
async function inProcess() {
  const body = JSON.stringify(list('in-process'));
  const started = performance.now();
  const value = JSON.parse(body);
  const parseMs = performance.now() - started;
  const checkStarted = performance.now();
  const stall = await longestStall(() => checkBulkList(value));
  const checkMs = performance.now() - checkStarted;
  return { bytes: Buffer.byteLength(body), parseMs, checkMs, stall };
}

export async function bulkFloodBenchmark(options: { quick: boolean }): Promise<Section> {
  const people = options.quick ? 2 : 4;
  const local = await inProcess();
  const upstream = await startFakeUpstream();
  const bff = await startBff(upstream.url, {
    BULK_USER_LISTS_MAX: '2',
    BULK_LOCATION_LISTS_MAX: String(people * 2),
    BULK_USER_ROWS_MAX: '1000000',
    BULK_LOCATION_ROWS_MAX: '1000000',
  });
  try {
    const owner = await bff.owner();
    const clients = [];
    for (let i = 0; i < people; i++) {
      const user = { email: `bench-${i}@example.com`, password: `bench-password-${i}`, role: 'staff' };
      expect201(await owner.post('/bff/users', user));
      const client = bff.client();
      await client.login(user.email, user.password);
      clients.push(client);
    }
    const bodies = clients.flatMap((client, i) =>
      [list(`p${i}a`), list(`p${i}b`)].map((b) => ({ client, b })),
    );
    await loopDelayMaxMs(bff.url);
    const health: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const t = performance.now();
        await fetch(`${bff.url}/healthz`);
        health.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(bodies.map(({ client, b }) => client.post('/bff/bulk-sends', b)));
    const seconds = (performance.now() - started) / 1000;
    flooding = false;
    await probe;
    const bffStallMs = await loopDelayMaxMs(bff.url);
    const stored = answers.filter((a) => a.status === 202).length;
    return {
      name: 'List sends: a flood of long lists',
      tables: [
        {
          title: `${bodies.length} lists of ${ROWS.toLocaleString('en')} rows (${(local.bytes / 2 ** 20).toFixed(1)} MB each) posted at once by ${people} people`,
          note: 'Event-loop stalls: the longest time without a turn of the event loop. /healthz asked every 5 ms meanwhile.',
          columns: ['figure', 'value'],
          rows: [
            ['lists stored (202)', stored],
            ['all answered in (s)', seconds],
            ['BFF event-loop stall, longest (ms)', bffStallMs],
            ['/healthz answers during the flood', health.length],
            [
              '/healthz p50 / p99 / max (ms)',
              `${percentile(health, 50).toFixed(1)} / ${percentile(health, 99).toFixed(1)} / ${Math.max(...health).toFixed(1)}`,
            ],
            ['in process: JSON.parse of one list (ms)', local.parseMs],
            ['in process: the sliced check of one list (ms, in all)', local.checkMs],
            ['in process: longest stall during the check, wall (ms)', local.stall.wallMs],
            ['in process: longest stall during the check, CPU (ms)', local.stall.cpuMs],
          ],
        },
      ],
      targets: [
        {
          name: 'a list’s check never holds the event loop long',
          target: '≤ 20 ms of CPU between two turns of the event loop',
          measured: `${local.stall.cpuMs.toFixed(1)} ms CPU, ${local.stall.wallMs.toFixed(1)} ms wall (the check took ${local.checkMs.toFixed(0)} ms in all)`,
          met: local.stall.cpuMs <= 20,
        },
      ],
      notes: [
        `JSON.parse of the body is the one step not sliced: ${local.parseMs.toFixed(1)} ms for ${(local.bytes / 2 ** 20).toFixed(1)} MB in this process.`,
      ],
    };
  } finally {
    await bff.stop();
    await upstream.close();
  }
}

function expect201(reply: { status: number; text: string }): void {
  if (reply.status !== 201) throw new Error(`could not add a user: ${reply.status} ${reply.text}`);
}
