import { readFileSync } from 'node:fs';
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

function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
  } catch {
    return 0;
  }
}

type Run = {
  rows: number;
  seconds: number;
  cpuMsPerRow: number;
  rss: { min: number; max: number };
  job: BulkJob;
};

async function runJob(
  env: Record<string, string>,
  apiUrl: string,
  key: string,
  rows: number,
  tag: string,
): Promise<Run> {
  const bff = await startBff(apiUrl, { UPSTREAM_API_KEY: key, UPSTREAM_TIMEOUT_MS: '10000', ...env });
  try {
    const owner = await bff.owner();
    const pid = bff.app.child.pid as number;
    const list = Array.from({ length: rows }, (_, i) => ({
      customerName: `Guest ${i}`,
      customerEmail: `${tag}-${i}@example.com`,
    }));
    const cpuBefore = processCpuMs(pid);
    const started = performance.now();
    const created = await owner.post('/bff/bulk-sends', { channel: 'email', rows: list });
    if (created.status !== 202) throw new Error(`bulk send refused: ${created.status} ${created.text}`);
    const id = created.json.data.id as string;
    const rss = { min: Number.POSITIVE_INFINITY, max: 0 };
    let job: BulkJob;
    for (;;) {
      await sleep(250);
      const mb = rssMb(pid);
      rss.min = Math.min(rss.min, mb);
      rss.max = Math.max(rss.max, mb);
      job = (await owner.get(`/bff/bulk-sends/${id}`)).json.data as BulkJob;
      if (job.status !== 'running') break;
    }
    const seconds = (performance.now() - started) / 1000;
    return { rows, seconds, cpuMsPerRow: (processCpuMs(pid) - cpuBefore) / rows, rss, job };
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
    const fast = await runJob(
      { BULK_SEND_RATE_PER_MINUTE: '100000' },
      api.url,
      unlimitedKey,
      big,
      `bench-${Date.now()}`,
    );
    // More rows than one window allows, so the job runs into the limit and waits its Retry-After.
    const paced = options.quick ? 900 : 1_500;
    const limited = await runJob(
      { BULK_SEND_RATE_PER_MINUTE: '100000' },
      api.url,
      limitedKey,
      paced,
      `bench-limited-${Date.now()}`,
    );
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
          note: 'One request at a time per job, each through the send journal; the BFF’s CPU per row; its resident memory sampled every 250 ms.',
          columns: [
            'key limit',
            'rows',
            'sent',
            'unknown',
            'seconds',
            'rows/s',
            'BFF CPU ms/row',
            'BFF RSS MB (min–max)',
          ],
          rows: [fast, limited].map((run, i) => [
            i === 0 ? 'none' : '600/min',
            run.rows,
            run.job.counts.sent,
            run.job.counts.unknown,
            Number(run.seconds.toFixed(1)),
            Number((run.rows / run.seconds).toFixed(1)),
            Number(run.cpuMsPerRow.toFixed(2)),
            `${run.rss.min.toFixed(0)}–${run.rss.max.toFixed(0)}`,
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
