import { describe, expect, it } from 'vitest';
import { linksThatFit } from './nav-bar.tsx';

describe('the header’s links that fit', () => {
  const widths = [80, 120, 140, 90, 90];

  it('shows every link, without "More", when all fit', () => {
    const all = 80 + 120 + 140 + 90 + 90 + 4 * 4;
    expect(linksThatFit(widths, 70, all, 4)).toBe(5);
  });

  it('keeps room for "More" once one does not fit', () => {
    // 80 + 120 + 140 + 3 gaps + More (70) = 422: three fit in 430, the fourth would not.
    expect(linksThatFit(widths, 70, 430, 4)).toBe(3);
    expect(linksThatFit(widths, 70, 421, 4)).toBe(2);
  });

  it('puts every link under "More" when none fits beside it', () => {
    expect(linksThatFit(widths, 70, 100, 4)).toBe(0);
  });

  it('shows every link before the room is measured (no layout yet)', () => {
    expect(linksThatFit(widths, 70, 0, 4)).toBe(5);
  });
});
