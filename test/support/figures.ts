import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

// Figures the suite measures (cases run, faults injected, sends counted, memory, p99), collected
// from every test file and printed as one table when the run ends (figures-setup.ts), together
// with every test's result (figures-results.ts).

declare module 'vitest' {
  interface ProvidedContext {
    figuresFile: string;
  }
}

export type Figure = {
  /** The promise or area: "faults", "fuzz", "at-most-once", "durability", "load", "security". */
  area: string;
  what: string;
  value: number | string;
  unit?: string;
  /** Also shown in the promise's row of the summary: a count, or a key figure. */
  summary?: 'counted' | 'key';
};

/** One test's outcome, written by the setup file after each test. */
export type Result = { kind: 'result'; file: string; name: string; state: string; ms: number };

export function recordFigure(figure: Figure): void {
  appendFileSync(inject('figuresFile'), `${JSON.stringify(figure)}\n`);
}

export function recordResult(result: Omit<Result, 'kind'>): void {
  appendFileSync(inject('figuresFile'), `${JSON.stringify({ kind: 'result', ...result })}\n`);
}
