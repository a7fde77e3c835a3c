import { describe, expect, it } from 'vitest';
import {
  averageChange,
  DIGEST_GRACE_MS,
  digestLocation,
  digestSlots,
  formatChange,
  renderDigestEmail,
  slotOf,
} from './digest.ts';

const at = (iso: string) => Date.parse(iso);

describe('when the weekly digest is due', () => {
  it.each([
    // now, zone, slots (Monday, UTC instant of its 08:00 local)
    ['2026-11-25T12:00:00Z', 'UTC', [['2026-11-30', '2026-11-30T08:00:00.000Z']]],
    ['2026-11-30T07:59:59Z', 'UTC', [['2026-11-30', '2026-11-30T08:00:00.000Z']]],
    [
      '2026-11-30T08:00:00Z',
      'UTC',
      [
        ['2026-11-30', '2026-11-30T08:00:00.000Z'],
        ['2026-12-07', '2026-12-07T08:00:00.000Z'],
      ],
    ],
    // Still Sunday evening in New York while it is Monday in UTC.
    ['2026-11-30T03:00:00Z', 'America/New_York', [['2026-11-30', '2026-11-30T13:00:00.000Z']]],
    // Monday morning in Tokyo is Sunday night in UTC.
    ['2026-11-29T22:00:00Z', 'Asia/Tokyo', [['2026-11-30', '2026-11-29T23:00:00.000Z']]],
    // Past the grace period: only the next one.
    ['2026-11-30T20:00:01Z', 'UTC', [['2026-12-07', '2026-12-07T08:00:00.000Z']]],
    // Across the change to summer time in Europe (29 March 2026): 08:00 is 06:00 UTC after it.
    ['2026-03-27T12:00:00Z', 'Europe/Berlin', [['2026-03-30', '2026-03-30T06:00:00.000Z']]],
    ['2026-03-20T12:00:00Z', 'Europe/Berlin', [['2026-03-23', '2026-03-23T07:00:00.000Z']]],
  ])('at %s in %s: %j', (now, zone, expected) => {
    expect(digestSlots(at(now), zone).map((s) => [s.week, new Date(s.at).toISOString()])).toEqual(expected);
  });

  it('keeps a slot within the grace period and finds it again by its week', () => {
    const slot = slotOf('2026-11-30', 'America/New_York');
    expect(digestSlots(slot.at + DIGEST_GRACE_MS - 1, 'America/New_York')[0]).toEqual(slot);
  });
});

describe('the digest figures', () => {
  const week = {
    requests: { sent: 40, completed: 10, completionRate: 0.25 },
    reviews: { total: 8, avgRating: 3.5 },
  };
  const fortnight = { requests: { sent: 70, completed: 20 }, reviews: { total: 20, avgRating: 4 } };

  it('computes the week before from the fortnight with the same definition of average', () => {
    // The week before: (4·20 − 3.5·8) / 12 = 4.333…; change −0.83.
    expect(averageChange(week, fortnight)).toBeCloseTo(3.5 - 52 / 12, 10);
    expect(averageChange(week, { reviews: { total: 8, avgRating: 3.5 } })).toBeNull();
    expect(averageChange({ reviews: { total: 0, avgRating: null } }, fortnight)).toBeNull();
    expect(formatChange(-0.8333)).toBe(' (−0.8 from the week before)');
    expect(formatChange(0.04)).toBe(' (same as the week before)');
    expect(formatChange(null)).toBe('');
  });

  it('gives the response rate and the median time to first reply, with their definitions', () => {
    const answered = digestLocation(
      'Deli',
      {
        reviews: { total: 8, responded: 6, avgRating: 4 },
        replies: { medianFirstReplySeconds: 2 * 3_600 + 300 },
      },
      {},
      { total: 0, ratedAboveLow: 0 },
    );
    const email = renderDigestEmail({
      week: '2026-11-30',
      link: 'https://desk.example/analytics',
      locations: [answered],
    });
    expect(email.text).toContain('Response rate: 75.0%\nMedian time to first reply: 2 h 5 min');
    expect(email.text).toContain(
      'Median time to first reply: for the reviews dated in the window that were answered',
    );
  });

  it('says what the Analytics page says, per location and in total', () => {
    const email = renderDigestEmail({
      week: '2026-11-30',
      link: 'https://desk.example/analytics?days=7',
      locations: [
        digestLocation('Harbour <St>', week, fortnight, { total: 5, ratedAboveLow: 2 }),
        digestLocation(
          'Airport',
          { requests: { sent: 10, completed: 5 }, reviews: { total: 2, avgRating: 5 } },
          {},
          {
            total: 0,
            ratedAboveLow: 0,
          },
        ),
      ],
    });
    expect(email.text).toContain(
      [
        'Harbour <St>',
        'Requests sent: 40',
        'Completion rate: 25.0%',
        'New reviews: 8',
        'Average rating: 3.5 (−0.8 from the week before)',
        'Low ratings (1–2★) without a response: 3',
        'Response rate: —',
        'Median time to first reply: —',
      ].join('\n'),
    );
    expect(email.text).toContain(
      [
        'All locations',
        'Requests sent: 50',
        'Completion rate: 30.0%',
        'New reviews: 10',
        'Average rating: 3.8',
        'Low ratings (1–2★) without a response: 3',
      ].join('\n'),
    );
    expect(email.text).toContain('Response rate: the share of the reviews dated in the window');
    expect(email.html).toContain('Harbour &lt;St&gt;');
    expect(email.html).not.toContain('<St>');
  });
});
