import { describe, expect, it } from 'vitest';
import { formatDuration, waitingFor } from './durations.ts';

describe('formatDuration', () => {
  it.each([
    [0, 'under a minute'],
    [59, 'under a minute'],
    [60, '1 min'],
    [3_599, '59 min'],
    [3_600, '1 h'],
    [3_600 + 5 * 60, '1 h 5 min'],
    [86_400, '1 day'],
    [2 * 86_400 + 3 * 3_600, '2 days 3 h'],
    [40 * 86_400 + 3_600, '40 days'],
    [-5, 'under a minute'],
  ])('%i s → %s', (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});

describe('waitingFor', () => {
  it('counts whole days past the first, and hours or minutes before', () => {
    const now = Date.UTC(2030, 0, 10, 12);
    expect(waitingFor(now - 3 * 86_400_000 - 5 * 3_600_000, now)).toBe('waiting 3 days');
    expect(waitingFor(now - 86_400_000, now)).toBe('waiting 1 day');
    expect(waitingFor(now - 2 * 3_600_000, now)).toBe('waiting 2 h');
    expect(waitingFor(now - 30_000, now)).toBe('waiting under a minute');
  });
});
