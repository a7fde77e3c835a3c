import { FakeClock } from '@review-desk/server/clock';
import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait.ts';

// A list send's waits end when the scheduling clock reaches them, moved or not.

/** A turn of the event loop: what a moved clock set off has run. */
const tick = () => new Promise((r) => setImmediate(r));

describe('waitUntil', () => {
  it('ends when a moved clock reaches the time, not before', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 25, 12), { frozen: true });
    let ended: boolean | undefined;
    void waitUntil(clock, clock.now() + 60_000, new AbortController().signal).then((v) => {
      ended = v;
    });
    clock.advance(59_000);
    await tick();
    expect(ended).toBeUndefined();
    clock.advance(1_000);
    await tick();
    expect(ended).toBe(true);
  });

  it('ends on the real timer when the clock runs on its own', async () => {
    const clock = new FakeClock();
    const started = Date.now();
    expect(await waitUntil(clock, clock.now() + 50, new AbortController().signal)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('answers false when stopped first', async () => {
    const clock = new FakeClock(0, { frozen: true });
    const stop = new AbortController();
    const waiting = waitUntil(clock, 1_000, stop.signal);
    stop.abort();
    expect(await waiting).toBe(false);
  });
});
