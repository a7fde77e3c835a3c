import { describe, expect, it } from 'vitest';
import {
  describeSendTime,
  formatSendWindow,
  isValidTimeZone,
  nextAllowedSendTime,
  parseSendWindow,
  zonedInstant,
} from './quiet-hours.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const DAY_WINDOW = parseSendWindow('08:00-21:00');

describe('parseSendWindow', () => {
  it('reads HH:MM-HH:MM and off', () => {
    expect(parseSendWindow('08:00-21:00')).toEqual({ start: 480, end: 1260 });
    expect(parseSendWindow(' 22:30 - 06:15 ')).toEqual({ start: 1350, end: 375 });
    expect(parseSendWindow('off')).toBeNull();
    expect(parseSendWindow('OFF')).toBeNull();
    expect(formatSendWindow(parseSendWindow('09:05-17:30'))).toBe('09:05-17:30');
  });

  it.each(['8-21', '08:00', '24:00-08:00', '08:60-09:00', '08:00-08:00', '', 'always'])(
    'refuses %j with a message naming the format',
    (text) => {
      expect(() => parseSendWindow(text)).toThrow(/HH:MM-HH:MM|different/);
    },
  );
});

describe('isValidTimeZone', () => {
  // IANA zones are accepted; anything else is refused.
  it.each([
    ['Europe/London', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['', false],
  ])('%j is a time zone: %s', (zone, valid) => {
    expect(isValidTimeZone(zone)).toBe(valid);
  });
});

/** When a send asked for at `asked` may go, in the day window on `zone`'s wall clock. */
const heldUntil = (asked: string, zone = 'UTC') => iso(nextAllowedSendTime(at(asked), DAY_WINDOW, zone));

describe('nextAllowedSendTime', () => {
  it('sends at once inside the window and with no window', () => {
    const noon = at('2026-06-10T12:00:00Z');
    expect(nextAllowedSendTime(noon, DAY_WINDOW, 'UTC')).toBe(noon);
    expect(nextAllowedSendTime(at('2026-06-10T23:00:00Z'), null, 'UTC')).toBe(at('2026-06-10T23:00:00Z'));
    // The opening minute is inside, the closing minute outside.
    expect(heldUntil('2026-06-10T08:00:00Z')).toBe(iso(at('2026-06-10T08:00:00Z')));
    expect(heldUntil('2026-06-10T21:00:00Z')).toBe('2026-06-11T08:00:00.000Z');
  });

  it('holds a 23:00 send until 08:00 the next morning, and a 03:00 send until 08:00 the same day', () => {
    expect(heldUntil('2026-06-10T23:00:00Z')).toBe('2026-06-11T08:00:00.000Z');
    expect(heldUntil('2026-06-10T03:00:00Z')).toBe('2026-06-10T08:00:00.000Z');
  });

  it('reads the window on the business’s wall clock', () => {
    // 23:00 in New York (EDT, UTC−4) is 03:00 UTC the next day; the window opens at 08:00 EDT.
    expect(heldUntil('2026-06-11T03:00:00Z', 'America/New_York')).toBe('2026-06-11T12:00:00.000Z');
    // 10:00 UTC is 19:00 in Tokyo: inside.
    expect(heldUntil('2026-06-11T10:00:00Z', 'Asia/Tokyo')).toBe(iso(at('2026-06-11T10:00:00Z')));
    // Across a month and a year end.
    expect(heldUntil('2026-12-31T22:00:00Z')).toBe('2027-01-01T08:00:00.000Z');
  });

  it('opens at 08:00 on the wall clock across daylight-saving changes', () => {
    // London springs forward on 29 Mar 2026: 08:00 that morning is 07:00 UTC (BST), the night before GMT.
    expect(heldUntil('2026-03-28T23:00:00Z', 'Europe/London')).toBe('2026-03-29T07:00:00.000Z');
    // And falls back on 25 Oct 2026: 08:00 is 08:00 UTC again.
    expect(heldUntil('2026-10-24T22:00:00Z', 'Europe/London')).toBe('2026-10-25T08:00:00.000Z');
    // New York falls back on 1 Nov 2026: 21:30 EDT on 31 Oct → 08:00 EST (13:00 UTC).
    expect(heldUntil('2026-11-01T01:30:00Z', 'America/New_York')).toBe('2026-11-01T13:00:00.000Z');
  });

  it('handles a window that wraps past midnight', () => {
    const night = parseSendWindow('22:00-06:00');
    expect(nextAllowedSendTime(at('2026-06-10T23:30:00Z'), night, 'UTC')).toBe(at('2026-06-10T23:30:00Z'));
    expect(nextAllowedSendTime(at('2026-06-10T05:59:00Z'), night, 'UTC')).toBe(at('2026-06-10T05:59:00Z'));
    expect(iso(nextAllowedSendTime(at('2026-06-10T12:00:00Z'), night, 'UTC'))).toBe(
      '2026-06-10T22:00:00.000Z',
    );
  });
});

describe('zonedInstant', () => {
  it('takes the first of a repeated time and the jump for a skipped one', () => {
    // 01:30 happens twice in New York on 1 Nov 2026 (EDT then EST): the first.
    expect(iso(zonedInstant({ year: 2026, month: 11, day: 1 }, 90, 'America/New_York'))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // 02:30 never happens on 8 Mar 2026: the clocks jump from 02:00 EST to 03:00 EDT (07:00 UTC).
    expect(iso(zonedInstant({ year: 2026, month: 3, day: 8 }, 150, 'America/New_York'))).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    // A zone with a half-hour offset.
    expect(iso(zonedInstant({ year: 2026, month: 6, day: 1 }, 480, 'Asia/Kolkata'))).toBe(
      '2026-06-01T02:30:00.000Z',
    );
  });
});

describe('describeSendTime', () => {
  it('says today, tomorrow or the date, on the business’s clock', () => {
    const now = at('2026-06-10T23:00:00Z');
    expect(describeSendTime(at('2026-06-11T08:00:00Z'), now, 'UTC')).toBe('08:00 tomorrow');
    expect(describeSendTime(at('2026-06-10T23:30:00Z'), now, 'UTC')).toBe('23:30 today');
    expect(describeSendTime(at('2026-06-13T08:00:00Z'), now, 'UTC')).toBe('08:00 on Sat 13 Jun');
    // 23:00 UTC is already the 11th in Tokyo: 08:00 on the 12th there is tomorrow.
    expect(describeSendTime(at('2026-06-11T23:00:00Z'), now, 'Asia/Tokyo')).toBe('08:00 tomorrow');
  });
});
