import { describe, expect, it } from 'vitest';
import { recordFigure } from './support/figures.ts';
import { runLoad, useLoadStack } from './support/load.ts';

// The load soak's short version: a quarter-minute of mixed dashboard traffic through the BFF to
// the real API. Only the 429s the link was told to give may fail; memory stays within a bound.
// (Latency stability needs minutes: `npm run test:soak`.)

/** Resident memory of the BFF may grow this much from warm-up to the end of the smoke. */
const GROWTH_BOUND_MB = 100;

const loadStack = useLoadStack();

describe('load smoke', () => {
  it('15 s of mixed traffic at 30 requests/s: no error but the upstream’s intended 429s, memory bounded', async () => {
    const stack = loadStack();
    const result = await runLoad(stack, { durationMs: 15_000, ratePerSecond: 30, rateLimitEvery: 40 });
    recordFigure({
      area: 'load (smoke)',
      what: 'requests in 15 s',
      value: result.requests,
      summary: 'counted',
    });
    recordFigure({
      area: 'load (smoke)',
      what: 'intended 429s / other errors',
      value: `${result.intended429} / ${result.unexpected.length}`,
      summary: 'key',
    });
    recordFigure({
      area: 'load (smoke)',
      what: 'p50 / p99',
      value: `${result.lastMinute.p50} / ${result.lastMinute.p99}`,
      unit: 'ms',
    });
    recordFigure({
      area: 'load (smoke)',
      what: 'BFF RSS warm → end',
      value: `${result.memory.warmMb} → ${result.memory.endMb}`,
      unit: 'MB',
    });
    expect(result.unexpected).toEqual([]);
    expect(result.injected429).toBeGreaterThan(0);
    expect(result.intended429).toBe(result.injected429);
    expect(result.sendsAccepted).toBeGreaterThan(0);
    expect(result.memory.endMb - result.memory.warmMb).toBeLessThan(GROWTH_BOUND_MB);
    expect(stack.bff.app.child.exitCode).toBeNull();
  });
});
