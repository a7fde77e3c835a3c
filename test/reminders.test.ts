import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from './support/dev-clock.ts';
import { requestReviewLink } from './support/review-page.ts';
import { waitFor } from './support/stack.ts';
import { useApiOnFakeTwilio } from './support/twilio-stack.ts';

// The reminder as real API processes on one database, the stand-in Twilio counting every text:
// due reminders survive a SIGKILL and go once; a SIGKILL at the due time never makes a second
// one; two processes running when they fall due send each exactly once. The clocks move over
// HTTP (DEV_CLOCK=1). REMINDER_AFTER_DAYS=1: each request's reminder is due a day after it.

const DAY = 86_400_000;
const FROM = '+15005550006';

const setClock = (url: string, at: number) => moveDevClock(url, { set: new Date(at).toISOString() });

async function send(url: string, phone: string): Promise<string> {
  const { sent } = await requestReviewLink(url, stack.key, { customerName: 'Ada', customerPhone: phone });
  expect(sent.json.data.status).toBe('sent');
  return sent.json.data.requestId;
}

/** The reminders' states, read from the database file as an operator would. */
function reminderStates(ids: string[]): string[] {
  const db = new DatabaseSync(stack.api.databasePath, { timeout: 5_000, readOnly: true });
  try {
    const state = db.prepare('SELECT state FROM reminders WHERE request_id = ?');
    return ids.map((id) => (state.get(id) as { state: string } | undefined)?.state ?? 'none');
  } finally {
    db.close();
  }
}

const stack = useApiOnFakeTwilio(FROM, { QUIET_HOURS: 'off', REMINDER_AFTER_DAYS: '1' });

describe('reminders across processes', () => {
  it('due reminders survive a SIGKILL of the API and are sent once', async () => {
    const start = Date.parse('2030-05-06T10:00:00Z');
    await setClock(stack.api.url, start);
    const phones = ['+14155552501', '+14155552502', '+14155552503'];
    const ids: string[] = [];
    for (const phone of phones) ids.push(await send(stack.api.url, phone));
    await stack.api.stop('SIGKILL');

    await stack.api.restart();
    await setClock(stack.api.url, start + DAY + 1_000);
    await waitFor(() => phones.every((p) => stack.fake.count(p) === 2), 15_000, 'every reminder sent');
    await drainDevJobs(stack.api.url); // nothing left due or running: no second reminder is coming
    expect(phones.map((p) => stack.fake.count(p))).toEqual([2, 2, 2]);
    expect(reminderStates(ids)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a SIGKILL at the due time never makes a second reminder', async () => {
    const start = Date.parse('2030-05-10T10:00:00Z');
    await setClock(stack.api.url, start);
    const phones = Array.from({ length: 6 }, (_, i) => `+141555526${String(10 + i)}`);
    const ids: string[] = [];
    for (const phone of phones) ids.push(await send(stack.api.url, phone));
    await setClock(stack.api.url, start + DAY + 1_000);
    // Killed while its runner may be claiming, sending or recording some of them. Real time: the
    // kill races the work on purpose, at a moment no event marks.
    await new Promise((resolve) => setTimeout(resolve, 150));
    await stack.api.stop('SIGKILL');

    await stack.api.restart();
    await setClock(stack.api.url, start + DAY + 2_000);
    // A reminder claimed by the killed process waits for its lease (30 s) to run out.
    await waitFor(
      () => reminderStates(ids).every((s) => s === 'sent' || s === 'unknown'),
      60_000,
      'every reminder settled',
    );
    await drainDevJobs(stack.api.url);
    const states = reminderStates(ids);
    for (const [i, phone] of phones.entries()) {
      const count = stack.fake.count(phone);
      expect(count, `${phone}: at most the request and one reminder`).toBeLessThanOrEqual(2);
      // Sent means it went exactly once; unknown means the process died handing it over.
      if (states[i] === 'sent') expect(count).toBe(2);
    }
  }, 90_000);

  it('two processes on one database send each reminder exactly once', async () => {
    const second = await stack.another();
    const start = Date.parse('2030-05-20T10:00:00Z');
    await Promise.all([setClock(stack.api.url, start), setClock(second.url, start)]);
    const phones = Array.from({ length: 8 }, (_, i) => `+141555527${String(10 + i)}`);
    const ids: string[] = [];
    for (const [i, phone] of phones.entries())
      ids.push(await send(i % 2 === 0 ? stack.api.url : second.url, phone));
    await Promise.all([
      setClock(stack.api.url, start + DAY + 1_000),
      setClock(second.url, start + DAY + 1_000),
    ]);
    await waitFor(() => phones.every((p) => stack.fake.count(p) >= 2), 20_000, 'every reminder sent');
    // Each process runs what is due until neither has anything left running or due: a loser of a
    // claim that (wrongly) sent would have sent by then.
    await Promise.all([drainDevJobs(stack.api.url), drainDevJobs(second.url)]);
    expect(phones.map((p) => stack.fake.count(p))).toEqual(phones.map(() => 2));
    expect(reminderStates(ids)).toEqual(ids.map(() => 'sent'));
  });
});
