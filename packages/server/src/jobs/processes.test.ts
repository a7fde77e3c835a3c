import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createTestDatabase, describeEngines, type TestDatabase } from '../../test-support/databases.ts';
import type { Dialect } from '../db/types.ts';
import { JobRunner } from './runner.ts';
import { jobStore, schedulingMigrations } from './store.ts';

// Several processes on one database: the promises that hold only because of a lock or a lease.

const CHILD = fileURLToPath(new URL('../../test-support/db-child.ts', import.meta.url));
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function start(args: string[]): { child: ChildProcess; output: Promise<string>; ready: Promise<void> } {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  const ready = Promise.withResolvers<void>();
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    if (out.includes('ready\n')) ready.resolve();
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const output = new Promise<string>((resolve, reject) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (code === 0 || signal === 'SIGKILL') resolve(out);
      else reject(new Error(`child exited ${code ?? signal}: ${err}`));
      ready.reject(new Error(`child exited before it was ready: ${err}`));
    }),
  );
  ready.promise.catch(() => {});
  return { child, output, ready: ready.promise };
}

/** Migration files whose second application would fail, and a slow one so the two overlap. */
function migrationDir(dialect: Dialect): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-migrations-'));
  // Stand-in: a migration that takes a while.
  const slow =
    dialect === 'postgres'
      ? 'SELECT pg_sleep(0.3);'
      : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*) FROM c;';
  const files = {
    '001-first.sql': `${slow} CREATE TABLE applied (file TEXT NOT NULL); INSERT INTO applied VALUES ('001');`,
    '002-second.sql': `CREATE TABLE second (x INTEGER); INSERT INTO applied VALUES ('002');`,
    '003-third.sql': `${slow} CREATE TABLE third (x INTEGER); INSERT INTO applied VALUES ('003');`,
  };
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

describeEngines('several processes on one database', (dialect) => {
  const tests: TestDatabase[] = [];
  afterAll(async () => {
    for (const test of tests) await test.dispose();
  });

  it('two processes migrating at once apply each file once between them', async () => {
    const test = await createTestDatabase(dialect);
    tests.push(test);
    const dir = migrationDir(dialect);
    try {
      const sources = [`scheduling=${schedulingMigrations.dir}`, `app=${dir}`];
      const [a, b] = [start(['migrate', test.url, ...sources]), start(['migrate', test.url, ...sources])];
      const applied = [...JSON.parse(await a.output), ...JSON.parse(await b.output)] as { name: string }[];
      expect(applied.map((m) => m.name).sort()).toEqual([
        '001-first.sql',
        '001-jobs-and-instances.sql',
        '002-second.sql',
        '003-third.sql',
      ]);
      expect(await test.db.all('SELECT file FROM applied ORDER BY file')).toEqual([
        { file: '001' },
        { file: '002' },
        { file: '003' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two processes running the same queue run each job once', async () => {
    const test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
    tests.push(test);
    await test.db.exec(
      'CREATE TABLE effects (job_id INTEGER NOT NULL, owner TEXT NOT NULL, reclaimed INTEGER NOT NULL)',
    );
    const workers = [start(['jobs', test.url, 'a']), start(['jobs', test.url, 'b'])];
    await Promise.all(workers.map((w) => w.ready));
    const jobs = jobStore(test.db);
    const total = 150;
    for (let i = 0; i < total; i++) await jobs.enqueue({ kind: 'effect', payload: { i } });
    await expect.poll(async () => (await jobs.counts()).done, { timeout: 20_000, interval: 100 }).toBe(total);
    for (const w of workers) w.child.stdin?.end();
    await Promise.all(workers.map((w) => w.output));
    const perJob = await test.db.all<{ job_id: number; n: number }>(
      'SELECT job_id, count(*) AS n FROM effects GROUP BY job_id HAVING count(*) > 1',
    );
    expect(perJob).toEqual([]);
    expect(await test.db.get('SELECT count(DISTINCT job_id) AS n FROM effects')).toEqual({ n: total });
  });

  it("a killed process's job is taken over once its lease runs out, and the taker is told", async () => {
    const test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
    tests.push(test);
    await test.db.exec(
      'CREATE TABLE effects (job_id INTEGER NOT NULL, owner TEXT NOT NULL, reclaimed INTEGER NOT NULL)',
    );
    const jobs = jobStore(test.db);
    const id = (await jobs.enqueue({ kind: 'stall' })) as number;
    const doomed = start(['jobs', test.url, 'doomed', '400']);
    await expect
      .poll(() => test.db.get('SELECT owner FROM effects WHERE job_id = $1', id), { timeout: 10_000 })
      .toEqual({
        owner: 'doomed',
      });
    doomed.child.kill('SIGKILL');
    await doomed.output;
    const seen: { attempt: number; reclaimed: boolean }[] = [];
    const survivor = new JobRunner({
      db: test.db,
      owner: 'survivor',
      handlers: {
        stall: async ({ job }) => void seen.push({ attempt: job.attempt, reclaimed: job.reclaimed }),
      },
    });
    expect(await survivor.drain()).toBe(0); // the lease still holds
    await expect.poll(() => survivor.drain(), { timeout: 5_000, interval: 100 }).toBe(1);
    expect(seen).toEqual([{ attempt: 2, reclaimed: true }]);
  });
});
