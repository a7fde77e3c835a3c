import path from 'node:path';
import { parseArgs } from 'node:util';
import { createUserRate } from '../apps/bff/src/fair-share/user-rate.ts';
import { createJournal } from '../apps/bff/src/journal/journal.ts';
import { openBffDatabase } from '../apps/bff/src/store/database.ts';
import type { Database } from '../packages/server/src/db/types.ts';
import { startPostgresCluster } from '../packages/server/test-support/postgres-cluster.ts';
import { tempDir } from './lib/processes.ts';
import { printTable, type Table } from './lib/report.ts';

// What the BFF's stores cost per proxied call, alone in this process (no HTTP, no API, no load
// generator on the same cores): the send journal's claim and outcome, and the fair share's take,
// with 1, 10 and 50 callers at once. CPU = user + system time of this process per call.
//
//   npx node bench/proxy-stores.ts [--calls 4000] [--postgres]

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '4000' }, postgres: { type: 'boolean', default: false } },
});
const calls = Number(values.calls);
const REPLY = new TextEncoder().encode('{"success":true,"data":{"requestId":"req_1","status":"sent"}}');

async function measure(callers: number, one: (i: number) => Promise<unknown>): Promise<[number, number]> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < calls) await one(next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return [(used.user + used.system) / calls, ((performance.now() - started) * 1000) / calls];
}

async function rows(engine: string, db: Database): Promise<Table['rows']> {
  const journal = createJournal(db, 'bench');
  const share = createUserRate(db, 1_000_000);
  // A send as the BFF journals it: claimed, then (a turn later, as after the upstream) finished.
  const send = async (i: number) => {
    const id = await journal.claim({
      userId: 'bench-user',
      sentBy: 'bench@example.com',
      key: crypto.randomUUID(),
      fingerprint: `f${i}`,
      channel: 'sms',
      customerName: 'Bench Customer',
      contactMasked: '+1 ••• ••• 1234',
      phoneHash: 'phone-hash',
      emailHash: null,
      location: '',
    });
    await new Promise((resolve) => setImmediate(resolve));
    await journal.finish(id as string, {
      outcome: 'sent',
      httpStatus: 200,
      requestId: 'req_1',
      status: 'sent',
      response: { type: 'application/json', body: REPLY },
    });
  };
  const table: Table['rows'] = [];
  for (const callers of [1, 10, 50]) {
    const [sendCpu, sendWall] = await measure(callers, send);
    const [shareCpu, shareWall] = await measure(callers, () => share.take('bench-user'));
    table.push([
      engine,
      callers,
      Math.round(sendCpu),
      Math.round(sendWall),
      Math.round(shareCpu),
      Math.round(shareWall),
    ]);
  }
  return table;
}

const temp = tempDir('rd-bench-stores-');
const table: Table = {
  title: 'The BFF stores per proxied call',
  note: `${calls} calls per cell; µs of this process's CPU (user + system) and of wall time per call.`,
  columns: [
    'engine',
    'callers',
    'journal CPU µs',
    'journal wall µs',
    'fair share CPU µs',
    'fair share wall µs',
  ],
  rows: [],
};
try {
  const sqlite = await openBffDatabase({ databaseUrl: path.join(temp.dir, 'bff.db') });
  table.rows.push(...(await rows('SQLite', sqlite)));
  await sqlite.close();
  if (values.postgres) {
    const cluster = await startPostgresCluster({ durable: true });
    try {
      const pg = await openBffDatabase({ databaseUrl: cluster.url });
      table.rows.push(...(await rows('PostgreSQL', pg)));
      await pg.close();
    } finally {
      await cluster.stop();
    }
  }
  printTable(table);
} finally {
  temp.cleanup();
}
