import { describe, expect, it, vi } from 'vitest';
import { clockCommand, clockHook, createClock, FakeClock, systemClock } from './clock.ts';

const T = Date.parse('2030-01-01T23:00:00Z');

describe('the service clock', () => {
  it('is the system clock unless the dev hooks ask for a fake one', () => {
    expect(createClock()).toBe(systemClock);
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(50);
    expect(createClock({ fake: true, fakeStart: T })).toBeInstanceOf(FakeClock);
  });

  it('a fake clock keeps running from where it was set, and tells listeners when it jumps', () => {
    // The system's time moved by the test: 20 ms pass without waiting for them.
    vi.useFakeTimers();
    try {
      const clock = new FakeClock(T);
      const heard: number[] = [];
      clock.onChange((now) => heard.push(now));
      vi.advanceTimersByTime(20);
      expect(clock.now()).toBe(T + 20);
      clock.set(T);
      expect(clock.advance(9 * 3_600_000)).toBeGreaterThanOrEqual(T + 9 * 3_600_000);
      expect(heard).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a frozen fake clock stands still', () => {
    const clock = new FakeClock(T, { frozen: true });
    clock.advance(1_000);
    expect(clock.now()).toBe(T + 1_000);
  });

  it('the dev hook reads, advances and sets the clock, and refuses anything else with a reason', () => {
    const clock = new FakeClock(T, { frozen: true });
    expect(clockCommand(clock, {})).toEqual({ now: T, iso: '2030-01-01T23:00:00.000Z' });
    expect(clockCommand(clock, { advanceMs: 60_000 }).now).toBe(T + 60_000);
    expect(clockCommand(clock, { set: '2030-01-02T08:00:00Z' }).iso).toBe('2030-01-02T08:00:00.000Z');
    expect(clockCommand(clock, { set: T }).now).toBe(T);
    for (const bad of [
      { advanceMs: '1' },
      { set: 'tomorrow' },
      { advanceMs: 1, set: T },
      { speed: 2 },
      [1],
    ]) {
      expect(() => clockCommand(clock, bad)).toThrow(RangeError);
    }
    expect(clock.now()).toBe(T);
  });

  it('the hook answers in the envelope: 200 with the time, 400 with the reason', () => {
    const clock = new FakeClock(T, { frozen: true });
    const answers: { status: number; body: unknown }[] = [];
    const res = {
      code: 0,
      status(code: number) {
        this.code = code;
        return this;
      },
      json(body: unknown) {
        answers.push({ status: this.code, body });
      },
    };
    const hook = clockHook(clock);
    hook({ method: 'POST', body: { advanceMs: 1_000 } }, res);
    hook({ method: 'GET' }, res);
    hook({ method: 'POST', body: { advanceMs: 'soon' } }, res);
    expect(answers).toEqual([
      {
        status: 200,
        body: { success: true, data: { now: T + 1_000, iso: new Date(T + 1_000).toISOString() } },
      },
      {
        status: 200,
        body: { success: true, data: { now: T + 1_000, iso: new Date(T + 1_000).toISOString() } },
      },
      { status: 400, body: { success: false, error: 'advanceMs must be a number of milliseconds' } },
    ]);
  });
});
