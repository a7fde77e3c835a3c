// A second (third…) process on the same database, for the tests that prove the migration lock
// and the job leases across processes. Run with Node 24:
//   node db-child.ts migrate <url> <component>=<dir>…      prints what it applied as JSON
//   node db-child.ts jobs <url> <owner> <leaseMs>           runs `effect` and `stall` jobs until stdin closes
// The `effect` handler records one row per run in `effects`; `stall` records its start and then
// never finishes (the test kills the process to lose the lease).
import { setTimeout as sleep } from 'node:timers/promises';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { JobRunner } from '../src/jobs/runner.ts';

const [command, url, ...rest] = process.argv.slice(2);
if (!url) throw new Error('usage: db-child.ts migrate|jobs <url> …');
const db = await openDatabase({ url, poolSize: 4 });

if (command === 'migrate') {
  const sources = rest.map((arg) => {
    const [component, dir] = arg.split('=') as [string, string];
    return { component, dir };
  });
  const applied = await migrate(db, sources);
  process.stdout.write(`${JSON.stringify(applied)}\n`);
  await db.close();
} else if (command === 'jobs') {
  const [owner = 'child', leaseMs = '30000'] = rest;
  const runner = new JobRunner({
    db,
    owner,
    concurrency: 4,
    pollMs: 20,
    leaseMs: Number(leaseMs),
    handlers: {
      effect: async ({ job }) => {
        await db.run(
          'INSERT INTO effects (job_id, owner, reclaimed) VALUES ($1, $2, $3)',
          job.id,
          owner,
          job.reclaimed ? 1 : 0,
        );
        await sleep(2); // stand-in: work that takes a moment
      },
      stall: async ({ job }) => {
        await db.run('INSERT INTO effects (job_id, owner, reclaimed) VALUES ($1, $2, $3)', job.id, owner, 0);
        await new Promise(() => {});
      },
    },
  });
  runner.start();
  process.stdout.write('ready\n');
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await runner.stop({ timeoutMs: 1_000 });
    await db.close();
    process.exit(0);
  });
} else {
  throw new Error(`unknown command ${command}`);
}
