import type { BulkJob } from '@review-desk/shared';
import { startBff } from '../apps/bff/test/support/bff.ts';
import { startSystemApi } from '../test/support/stack.ts';
import { processCpuMs } from './lib/processes.ts';
import type { Section } from './lib/report.ts';

// List sends through the real BFF to the real API (its dev outbox in place of carriers), by email:
// 1. the upstream's limit lifted: rows per second, the BFF's CPU per row and its memory during
//    the job (one request at a time per job, each through the send journal);
// 2. a key limited to 600 a minute: the rate the job achieves against the limit, the 429s'
//    Retry-After honoured.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The BFF's resident memory and used heap in MB, from its own /metrics (open to loopback). */
async function memoryMb(url: string): Promise<{ rss: number; heap: number } | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    return {
      rss: value('process_resident_memory_bytes') / 2 ** 20,
      heap: value('nodejs_heap_size_used_bytes') / 2 ** 20,
    };
  } catch {
    return null;
  }
}

type Samples = { start: number; peak: number; end: number };
const samples = (values: number[]): Samples => ({
  start: values[0] ?? Number.NaN,
  peak: Math.max(...values),
  end: values.at(-1) ?? Number.NaN,
});
const mb = (s: Samples) => `${s.start.toFixed(0)} / ${s.peak.toFixed(0)} / ${s.end.toFixed(0)}`;

type Run = {
  rows: number;
  /** From the POST to its 202: the list checked and stored. */
  storedMs: number;
  seconds: number;
  cpuMsPerRow: number;
  rss: Samples;
  heap: Samples;
  job: BulkJob;
};

/**
 * One list of `rows` through a fresh BFF with `key`, its pace lifted far above anything a list
 * reaches (the key's limit is what holds it back); the addresses are new (`tag`, then a time).
 */
async function runJob(apiUrl: string, key: string, rows: number, tag: string): Promise<Run> {
  const bff = await startBff(apiUrl, {
    UPSTREAM_API_KEY: key,
    UPSTREAM_TIMEOUT_MS: '10000',
    BULK_SEND_RATE_PER_MINUTE: '100000',
  });
  const stamp = `${tag}-${Date.now()}`;
  try {
    const owner = await bff.owner();
    const pid = bff.app.child.pid as number;
    const list = Array.from({ length: rows }, (_, i) => ({
      customerName: `Guest ${i}`,
      customerEmail: `${stamp}-${i}@example.com`,
    }));
    const cpuBefore = processCpuMs(pid);
    const rss: number[] = [];
    const heap: number[] = [];
    const sample = async () => {
      const m = await memoryMb(bff.url);
      if (m) {
        rss.push(m.rss);
        heap.push(m.heap);
      }
    };
    await sample();
    const started = performance.now();
    const created = await owner.post('/bff/bulk-sends', { channel: 'email', rows: list });
    if (created.status !== 202) throw new Error(`bulk send refused: ${created.status} ${created.text}`);
    const storedMs = performance.now() - started;
    const id = created.json.data.id as string;
    let job: BulkJob;
    for (;;) {
      await sleep(500);
      await sample();
      job = (await owner.get(`/bff/bulk-sends/${id}`)).json.data as BulkJob;
      if (job.status !== 'running') break;
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      rows,
      storedMs,
      seconds,
      cpuMsPerRow: (processCpuMs(pid) - cpuBefore) / rows,
      rss: samples(rss),
      heap: samples(heap),
      job,
    };
  } finally {
    await bff.stop();
  }
}

export async function bulkBenchmark(options: { quick: boolean }): Promise<Section> {
  // The default limit far above anything a list reaches; the limited key has its own.
  const api = await startSystemApi({ RATE_LIMIT_PER_MINUTE: '1000000', MONTHLY_SEND_ALLOWANCE: '0' });
  try {
    const unlimitedKey = await api.createKey();
    const limitedKey = await api.createKey(undefined, ['--rate-limit', '600']);
    const big = options.quick ? 2_000 : 10_000;
    const fast = await runJob(api.url, unlimitedKey, big, 'bench');
    // More rows than one window allows, so the job runs into the limit and waits its Retry-After.
    const paced = options.quick ? 900 : 1_500;
    const limited = await runJob(api.url, limitedKey, paced, 'bench-limited');
    const rowsPerSecond = fast.rows / fast.seconds;
    const achieved = (limited.job.counts.sent / limited.seconds) * 60;
    // The API's limit (GCRA, docs/api.md "Limits") lets a key burst its 600 at once, then one
    // request every 100 ms: the steady rate is what the rows after the burst achieve, over the
    // whole job's time (the burst's own seconds included, so it errs low).
    const steady = ((limited.job.counts.sent - 600) / limited.seconds) * 60;
    return {
      name: 'List sends',
      tables: [
        {
          title: 'A list send through the BFF to the local API (email, dev outbox)',
          note: 'One request at a time per job, each through the send journal; seconds from the POST to the last row (the list stored in the first "stored ms"); the BFF’s CPU per row; its resident memory and used heap from its /metrics every 500 ms, at the start, the peak and the end.',
          columns: [
            'key limit',
            'rows',
            'sent',
            'unknown',
            'stored ms',
            'seconds',
            'rows/s',
            'BFF CPU ms/row',
            'BFF RSS MB start / peak / end',
            'BFF heap MB start / peak / end',
          ],
          rows: [fast, limited].map((run, i) => [
            i === 0 ? 'none' : '600/min',
            run.rows,
            run.job.counts.sent,
            run.job.counts.unknown,
            Math.round(run.storedMs),
            Number(run.seconds.toFixed(1)),
            Number((run.rows / run.seconds).toFixed(1)),
            Number(run.cpuMsPerRow.toFixed(2)),
            mb(run.rss),
            mb(run.heap),
          ]),
        },
      ],
      targets: [
        {
          name: 'list send, upstream limit lifted',
          target: '≥ 300 rows/s',
          measured: `${rowsPerSecond.toFixed(0)} rows/s`,
          met: rowsPerSecond >= 300,
        },
        {
          name: 'list send against a 600/min key',
          target: '≥ 95% of 600/min after the burst',
          measured: `${steady.toFixed(0)}/min after the burst (${achieved.toFixed(0)}/min overall)`,
          met: steady >= 570,
        },
      ],
      notes: [
        `Every row in exactly one outcome: ${fast.job.counts.sent + fast.job.counts.unknown} of ${fast.rows} and ${limited.job.counts.sent + limited.job.counts.unknown} of ${limited.rows} sent or unknown.`,
      ],
    };
  } finally {
    await api.cleanup();
  }
}
