import { describe, expect, it } from 'vitest';
import { recordFigure } from '../support/figures.ts';
import { runLoad, useLoadStack } from '../support/load.ts';

// The load soak (npm run test:soak only): SOAK_MINUTES (default 5) of mixed dashboard traffic at
// SOAK_RATE requests per second (default 60) through the BFF to the real API with its demo data.
// Promises: no error but the upstream's intended 429s; the BFF's resident memory grows less than
// GROWTH_BOUND_MB from the end of the first minute to the end; the last minute's p99 is no worse
// than twice the first minute's plus 25 ms.

const MINUTES = Number(process.env.SOAK_MINUTES ?? 5);
const RATE = Number(process.env.SOAK_RATE ?? 60);
const GROWTH_BOUND_MB = 64;

const loadStack = useLoadStack();

describe('load soak', () => {
  it(`${MINUTES} min of mixed traffic at ${RATE}/s: intended 429s only, memory bounded, p99 stable`, async () => {
    const stack = loadStack();
    const result = await runLoad(stack, {
      durationMs: MINUTES * 60_000,
      ratePerSecond: RATE,
      rateLimitEvery: 50,
      onTick: (second, line) => {
        if (second % 30 === 0) process.stdout.write(`load soak ${line}\n`);
      },
    });
    recordFigure({ area: 'load (soak)', what: 'duration', value: MINUTES, unit: 'min' });
    recordFigure({ area: 'load (soak)', what: 'requests', value: result.requests, summary: 'counted' });
    recordFigure({ area: 'load (soak)', what: 'rate', value: RATE, unit: 'req/s' });
    recordFigure({ area: 'load (soak)', what: 'sends accepted', value: result.sendsAccepted });
    recordFigure({
      area: 'load (soak)',
      what: 'intended 429s',
      value: result.intended429,
      summary: 'counted',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'other errors',
      value: result.unexpected.length,
      summary: 'key',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'first minute p50 / p99',
      value: `${result.firstMinute.p50} / ${result.firstMinute.p99}`,
      unit: 'ms',
      summary: 'key',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'last minute p50 / p99',
      value: `${result.lastMinute.p50} / ${result.lastMinute.p99}`,
      unit: 'ms',
      summary: 'key',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'BFF RSS after 1st minute → end (peak)',
      value: `${result.memory.warmMb} → ${result.memory.endMb} (${result.memory.peakMb})`,
      unit: 'MB',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'bound: RSS growth',
      value: `< ${GROWTH_BOUND_MB}`,
      unit: 'MB',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'RSS growth 1st minute → end',
      value: `${Math.round((result.memory.endMb - result.memory.warmMb) * 10) / 10} (bound ${GROWTH_BOUND_MB})`,
      unit: 'MB',
      summary: 'key',
    });
    recordFigure({
      area: 'load (soak)',
      what: 'bound: last-minute p99',
      value: `≤ ${2 * result.firstMinute.p99 + 25}`,
      unit: 'ms',
    });

    expect(result.unexpected.slice(0, 20)).toEqual([]);
    expect(result.intended429).toBe(result.injected429);
    expect(result.memory.endMb - result.memory.warmMb).toBeLessThan(GROWTH_BOUND_MB);
    expect(result.lastMinute.p99).toBeLessThanOrEqual(2 * result.firstMinute.p99 + 25);
    expect(stack.bff.app.child.exitCode).toBeNull();
  });
});
