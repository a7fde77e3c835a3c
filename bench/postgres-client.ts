import os from 'node:os';
import { startPostgresCluster } from '../packages/server/test-support/postgres-cluster.ts';
import { benchArgs } from './lib/args.ts';
import { type Candidate, kysely, load, ours, porsager, rawPg } from './lib/postgres-candidates.ts';
import { type Cell, percentile, printTable } from './lib/report.ts';

// node bench/postgres-client.ts [--rows 1000000] [--seconds 3] [--rounds 2] [--only send] [--clients prepared,layer]
//
// Which PostgreSQL client, measured on the two shapes that matter (docs/decisions/0014-postgres-client.md):
// the review list at a million rows (page 1 and a deep page, read through the covering index) and
// a send-like transaction (advisory lock, four reads, two inserts, two counter upserts, an update).
// Candidates: `pg` with unnamed statements, `pg` with named prepared statements, the database
// layer of packages/server (pg, named statements, transaction context), `postgres` (porsager) and
// the query builder `kysely` over pg (these two only when installed: `npm install --no-save
// postgres kysely`). One embedded PostgreSQL with its durable settings, on the same machine as
// the clients: the figures compare clients with each other, not with another machine.

const {
  rows: ROWS,
  seconds: SECONDS,
  rounds: ROUNDS,
  only,
  clients,
} = benchArgs(
  { rows: 1_000_000, seconds: 3, rounds: 2 },
  // only: workloads whose name contains one of these words (list, offset, send); clients: the
  // clients whose name contains one of these words (unnamed, prepared, layer, porsager, kysely).
  ['only', 'clients'],
);
// The list reads a page past the middle from the other end: the middle is the deepest it goes.
const DEEP_OFFSET = Math.floor(ROWS / 2);

type Workload = { name: string; concurrency: number; run: (c: Candidate, i: number) => Promise<unknown> };
const picked = (name: string, filter: string | undefined) =>
  filter === undefined || filter.split(',').some((word) => name.includes(word.trim()));
const WORKLOADS = (
  [
    { name: 'list page 1', concurrency: 1, run: (c) => c.page(0) },
    { name: 'list page 1', concurrency: 8, run: (c) => c.page(0) },
    {
      name: `list offset ${DEEP_OFFSET.toLocaleString('en-US')}`,
      concurrency: 1,
      run: (c) => c.page(DEEP_OFFSET),
    },
    { name: 'send transaction', concurrency: 1, run: (c, i) => c.send(i) },
    { name: 'send transaction', concurrency: 8, run: (c, i) => c.send(i) },
  ] as Workload[]
).filter((w) => picked(w.name, only));

let sequence = 0;
/** Closed loop: `concurrency` callers, each starting its next call when the last one answers. */
async function measure(workload: Workload, candidate: Candidate, seconds: number) {
  for (let i = 0; i < 20; i++) await workload.run(candidate, sequence++); // warm: connections, prepared plans
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workload.concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await workload.run(candidate, sequence++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { latencies, seconds: (performance.now() - started) / 1000, cpuMicros: used.user + used.system };
}

const cluster = await startPostgresCluster({ durable: true, settings: { shared_buffers: '256MB' } });
try {
  const loadBefore = os.loadavg();
  console.log(
    `PostgreSQL clients — ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(
    `loading ${ROWS.toLocaleString('en-US')} reviews… ${(await load(cluster.url, ROWS)).toFixed(1)} s`,
  );
  const makers = [
    () => rawPg(cluster.url, false),
    () => rawPg(cluster.url, true),
    () => ours(cluster.url),
    () => porsager(cluster.url),
    () => kysely(cluster.url),
  ];
  const made = (await Promise.all(makers.map((make) => make()))).filter((c): c is Candidate => c !== null);
  const candidates = made.filter((c) => picked(c.name, clients));
  for (const skipped of made.filter((c) => !candidates.includes(c))) await skipped.close();
  const samples = new Map<string, { latencies: number[]; seconds: number; cpuMicros: number }>();
  // Rounds alternate the candidates' order, so none always runs first on a warmer cache.
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? candidates : [...candidates].reverse();
    for (const workload of WORKLOADS) {
      for (const candidate of order) {
        const key = `${workload.name}|${workload.concurrency}|${candidate.name}`;
        const result = await measure(workload, candidate, SECONDS);
        const kept = samples.get(key) ?? { latencies: [], seconds: 0, cpuMicros: 0 };
        kept.latencies.push(...result.latencies);
        kept.seconds += result.seconds;
        kept.cpuMicros += result.cpuMicros;
        samples.set(key, kept);
      }
    }
  }
  for (const workload of WORKLOADS) {
    const rows: Cell[][] = candidates.map((candidate) => {
      const s = samples.get(`${workload.name}|${workload.concurrency}|${candidate.name}`) as {
        latencies: number[];
        seconds: number;
        cpuMicros: number;
      };
      return [
        candidate.name,
        percentile(s.latencies, 50),
        percentile(s.latencies, 99),
        Math.round(s.latencies.length / s.seconds),
        Math.round(s.cpuMicros / s.latencies.length),
      ];
    });
    printTable({
      title: `${workload.name}, ${workload.concurrency} caller${workload.concurrency > 1 ? 's' : ''}`,
      note: `${ROUNDS} rounds of ${SECONDS} s, closed loop; pool of 8 connections; CPU of this process (the client) per call`,
      columns: ['client', 'p50 ms', 'p99 ms', 'per second', 'client CPU µs/op'],
      rows,
    });
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const candidate of candidates) await candidate.close();
} finally {
  await cluster.stop();
}
