import type { BulkJob } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { startLockstep } from './support/bulk-lockstep.ts';
import { useListStack } from './support/list-stack.ts';
import { outboxCount } from './support/stack.ts';

// A 2,000-row list against the real API with a key limited to 120 requests a minute: about 16
// minutes of the API's time, run in about a minute and a half by moving both services' clocks
// (the API's DEV_CLOCK, the BFF's dev hooks) in lockstep through a relay that notes when each send
// reached the API on its clock (support/bulk-lockstep.ts). The list must end with every row in one
// outcome, one message per row in the API's outbox, and no send before a 429's Retry-After.

const ROWS = 2_000;
const LIMIT_PER_MINUTE = 120;
/** Each move of the clocks: shorter than the smallest Retry-After (1 s), so an early retry shows. */
const STEP_MS = 750;
/** The clocks move only once the BFF has sent nothing for this long: it is waiting on its clock. */
const IDLE_MS = 30;
const TICK_MS = 15;

const stack = useListStack({
  api: {
    DEV_CLOCK: '1',
    RATE_LIMIT_PER_MINUTE: String(LIMIT_PER_MINUTE),
    MONTHLY_SEND_ALLOWANCE: '0',
    FREQUENCY_CAP_DAYS: '0',
  },
  bff: {
    // Faster than the key's limit, so the API's 429s set the pace.
    BULK_SEND_RATE_PER_MINUTE: '6000',
    // The test is about pace, not timeouts: a loaded machine must not turn a slow send unknown.
    UPSTREAM_TIMEOUT_MS: '60000',
  },
  relay: startLockstep,
});

describe('a 2,000-row list at 120 a minute, on moved clocks', () => {
  it('sends every row exactly once and never before a 429’s Retry-After', async () => {
    const owner = await stack.bff.owner();
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      customerName: `Guest ${i + 1}`,
      customerEmail: `pace-${i}@example.com`,
    }));
    const started = await owner.post('/bff/bulk-sends', { channel: 'email', rows });
    expect(started.status, started.text).toBe(202);
    const id = started.json.data.id as string;

    let job: BulkJob | undefined;
    const realStart = Date.now();
    for (let tick = 0; ; tick++) {
      if (tick % 20 === 0) {
        const reply = await owner.get(`/bff/bulk-sends/${id}`);
        job = reply.json.data as BulkJob;
        if (job.status !== 'running') break;
      }
      // A bound on the moved time, so a list that stops making progress fails rather than hangs.
      expect(stack.relay.movedMs, 'the list finished within three times what its limit needs').toBeLessThan(
        (3 * ROWS * 60_000) / LIMIT_PER_MINUTE,
      );
      if (Date.now() - stack.relay.lastRequestAt >= IDLE_MS) await stack.relay.advance(STEP_MS);
      await new Promise((r) => setTimeout(r, TICK_MS)); // poll: a look again at the list
    }
    const realMs = Date.now() - realStart;

    // Every row in exactly one outcome: all sent (the rows are valid, the key has room).
    expect(job?.status, job?.reason ?? '').toBe('done');
    expect(job?.counts).toMatchObject({ total: ROWS, sent: ROWS, pending: 0, unknown: 0, refused: 0 });
    const counts = job!.counts;
    const settled =
      counts.pending +
      counts.sent +
      counts.warning +
      counts.skipped +
      counts.refused +
      counts.failed +
      counts.unknown;
    expect(settled).toBe(ROWS);

    // The API was asked to send each row once, and its outbox holds one message for each.
    const accepted = stack.relay.sends.filter((s) => s.status === 200).map((s) => s.email);
    expect(accepted.length).toBe(ROWS);
    expect(new Set(accepted).size).toBe(ROWS);
    const inOutbox: number[] = [];
    for (let i = 0; i < ROWS; i += 20) {
      const batch = rows.slice(i, i + 20).map((r) => outboxCount(stack.api.url, r.customerEmail));
      inOutbox.push(...(await Promise.all(batch)));
    }
    expect(inOutbox.filter((n) => n !== 1).length, 'rows without exactly one message').toBe(0);

    // The key's limit was met: beyond the first minute's burst, it took the API's time to send.
    const limited = stack.relay.sends.filter((s) => s.status === 429);
    expect(limited.length, 'the limit was reached').toBeGreaterThan(100);
    const span = stack.relay.sends.at(-1)!.at - stack.relay.sends[0]!.at;
    expect(span).toBeGreaterThanOrEqual(((ROWS - LIMIT_PER_MINUTE) * 60_000) / LIMIT_PER_MINUTE - 1_000);

    // Every 429 honoured: the next send came no earlier than its Retry-After, for the same row.
    const early: string[] = [];
    for (let i = 0; i < stack.relay.sends.length - 1; i++) {
      const hit = stack.relay.sends[i]!;
      if (hit.status !== 429) continue;
      const next = stack.relay.sends[i + 1]!;
      expect(hit.retryAfter, 'a 429 says when to come back').toBeGreaterThanOrEqual(1);
      if (next.at - hit.at < hit.retryAfter! * 1_000)
        early.push(`${hit.email}: ${next.at - hit.at} ms after a 429 asking for ${hit.retryAfter} s`);
      expect(next.email, 'the same row again after a 429').toBe(hit.email);
    }
    expect(early, 'sends before Retry-After').toEqual([]);
    console.info(
      `bulk pace: ${ROWS} rows, ${limited.length} 429s, ${Math.round(span / 1000)} s of the API's time in ${Math.round(realMs / 1000)} s`,
    );
  }, 240_000);
});
