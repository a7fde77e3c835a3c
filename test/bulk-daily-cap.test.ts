import type { BulkJob } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from './support/dev-clock.ts';
import type { Session } from './support/http.ts';
import { useListStack } from './support/list-stack.ts';
import { outboxCount, type SystemBff, waitFor } from './support/stack.ts';

// "At most 2 a day" against the real API, on the BFF's movable clock (BFF_DEV_HOOKS=1): a day's
// share goes, the list waits for the next midnight of its time zone through a SIGKILL and restart,
// and then two BFF processes on one database take the next days' shares — every row once.

const ZONE = 'America/New_York';
const stack = useListStack({
  api: { RATE_LIMIT_PER_MINUTE: '0', MONTHLY_SEND_ALLOWANCE: '0' },
  bff: { BULK_TIME_ZONE: ZONE, BULK_SEND_RATE_PER_MINUTE: '100000', BULK_LEASE_SECONDS: '1.5' },
});

const setClock = (bff: SystemBff, iso: string) => moveDevClock(bff.url, { set: iso });

async function view(owner: Session, id: string): Promise<BulkJob> {
  const reply = await owner.get(`/bff/bulk-sends/${id}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data as BulkJob;
}

describe('a list sent at most 2 a day', () => {
  it('sends a day’s share, waits for the next midnight across a restart, and never sends a row twice', async () => {
    // Tue 1 Dec 2026, 10:00 in New York.
    await setClock(stack.bff, '2026-12-01T15:00:00Z');
    let owner = await stack.bff.owner();
    const rows = Array.from({ length: 5 }, (_, i) => ({ customerEmail: `daily-${i}@example.com` }));
    const started = await owner.post('/bff/bulk-sends', { channel: 'email', rows, dailyCap: 2 });
    expect(started.status, started.text).toBe(202);
    const id = started.json.data.id as string;

    let job = await view(owner, id);
    const until = (check: (j: BulkJob) => boolean, what: string) =>
      waitFor(
        async () => {
          job = await view(owner, id);
          return check(job);
        },
        20_000,
        what,
      );
    await until((j) => j.waitingUntil !== null, 'the first day sent');
    expect(job).toMatchObject({ status: 'running', dailyCap: 2, timeZone: ZONE });
    expect(job.counts.sent).toBe(2);
    // The next row goes at midnight in New York (05:00 UTC).
    expect(job.waitingUntil).toBe('2026-12-02T05:00:00.000Z');

    // Killed and started again (its clock starts again from the real time): the list still waits.
    await stack.bff.stop('SIGKILL');
    await stack.bff.restart();
    await setClock(stack.bff, '2026-12-01T23:00:00Z');
    owner = await stack.bff.owner();
    await drainDevJobs(stack.bff.url); // what is due has run: the list still waits
    expect((await view(owner, id)).counts).toMatchObject({ sent: 2, pending: 3 });

    // A second process on the same database; both reach Wednesday.
    const second = await stack.anotherBff();
    for (const bff of [stack.bff, second]) await setClock(bff, '2026-12-02T05:00:00Z');
    await until((j) => j.counts.sent === 4, 'the second day sent');
    expect(job.waitingUntil).toBe('2026-12-03T05:00:00.000Z');
    // Neither process has anything left due or running: no fifth row goes before Thursday.
    await Promise.all([drainDevJobs(stack.bff.url), drainDevJobs(second.url)]);
    expect((await view(owner, id)).counts.sent).toBe(4);

    for (const bff of [second, stack.bff]) await setClock(bff, '2026-12-03T05:00:01Z');
    await until((j) => j.status === 'done', 'the list done');
    expect(job.counts).toMatchObject({ total: 5, sent: 5, pending: 0, unknown: 0 });
    expect(job.waitingUntil).toBeNull();
    for (const row of rows)
      expect(await outboxCount(stack.api.url, row.customerEmail), row.customerEmail).toBe(1);

    // The days in the rows' times: two on Tuesday, two on Wednesday, one on Thursday (New York).
    const page = await owner.get(`/bff/bulk-sends/${id}/rows`);
    const days = (page.json.data.rows as { finishedAt: string }[]).map((r) =>
      new Date(r.finishedAt).toLocaleDateString('en-CA', { timeZone: ZONE }),
    );
    expect(days).toEqual(['2026-12-01', '2026-12-01', '2026-12-02', '2026-12-02', '2026-12-03']);
  }, 120_000);

  it('refuses a daily cap that is not a whole number from 1 to 10,000, naming the field', async () => {
    const owner = await stack.bff.owner();
    const reply = await owner.post('/bff/bulk-sends', {
      channel: 'email',
      rows: [{ customerEmail: 'cap-bad@example.com' }],
      dailyCap: 0,
    });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('validation_failed');
    expect(reply.json.fields.dailyCap).toContain('at least 1');
  });
});
