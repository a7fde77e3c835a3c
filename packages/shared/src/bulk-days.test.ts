import { describe, expect, it } from 'vitest';
import { bulkSendRequestSchema } from './bulk.ts';
import { dayStart, describeFinish, finishingDay, nextDayStart } from './bulk-days.ts';

// Days of a list sent over days, on a time zone's wall clock (the preflight and the worker share them).

const at = (iso: string) => Date.parse(iso);

describe('a list sent over days', () => {
  it('finishes on the day its last share goes out, today counting as the first', () => {
    // Tue 1 Dec 2026, 10:00 in London.
    const now = at('2026-12-01T10:00:00Z');
    expect(finishingDay(50, 50, now, 'Europe/London')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(finishingDay(51, 50, now, 'Europe/London')).toEqual({ year: 2026, month: 12, day: 2 });
    expect(finishingDay(150, 50, now, 'Europe/London')).toEqual({ year: 2026, month: 12, day: 3 });
    expect(finishingDay(150, 50, now, 'Europe/London', 50)).toEqual({ year: 2026, month: 12, day: 4 });
    expect(describeFinish(150, 50, now, 'Europe/London')).toBe('Finishes on Thu 3 Dec at 50 a day');
    expect(describeFinish(1_284, 2_000, now, 'Europe/London')).toBe('Finishes today at 2,000 a day');
    expect(describeFinish(1_284, 1, now, 'Europe/London')).toMatch(
      /^Finishes on \w{3} \d+ \w{3} 2030 at 1 a day$/,
    );
  });

  it('counts the day on the zone’s wall clock, across a clock change', () => {
    // 23:30 on Mon 30 Nov in New York is already Tuesday in UTC.
    const late = at('2026-12-01T04:30:00Z');
    expect(dayStart(late, 'America/New_York')).toBe(at('2026-11-30T05:00:00Z'));
    expect(nextDayStart(late, 'America/New_York')).toBe(at('2026-12-01T05:00:00Z'));
    expect(finishingDay(2, 1, late, 'America/New_York')).toEqual({ year: 2026, month: 12, day: 1 });
    // London's clocks go forward on Sun 29 Mar 2026: that day is 23 hours long.
    const spring = at('2026-03-29T12:00:00Z');
    expect(nextDayStart(spring, 'Europe/London') - dayStart(spring, 'Europe/London')).toBe(23 * 3_600_000);
  });

  it('takes a daily cap from 1 to 10,000 in the list’s request, none by default', () => {
    const rows = [{ customerEmail: 'a@example.com' }];
    expect(bulkSendRequestSchema.parse({ channel: 'email', rows }).dailyCap).toBeNull();
    expect(bulkSendRequestSchema.parse({ channel: 'email', rows, dailyCap: 50 }).dailyCap).toBe(50);
    for (const bad of [0, 2.5, 10_001, '50'])
      expect(
        bulkSendRequestSchema.safeParse({ channel: 'email', rows, dailyCap: bad }).success,
        String(bad),
      ).toBe(false);
  });
});
