import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

// Figures the suite measures (cases run, faults injected, sends counted, memory, p99), collected
// from every test file and printed as one table when the run ends (figures-setup.ts).

declare module 'vitest' {
  interface ProvidedContext {
    figuresFile: string;
  }
}

export type Figure = {
  /** The promise or area: "faults", "fuzz", "at-most-once", "durability", "load". */
  area: string;
  what: string;
  value: number | string;
  unit?: string;
};

export function recordFigure(figure: Figure): void {
  appendFileSync(inject('figuresFile'), `${JSON.stringify(figure)}\n`);
}
