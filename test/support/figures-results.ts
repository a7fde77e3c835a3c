import path from 'node:path';
import { beforeEach, onTestFinished } from 'vitest';
import { recordResult } from './figures.ts';

// Setup file of the system suite: every test's result goes to the figures file, so the summary
// table says which promise held and which did not (a failed test records no figures of its own).

beforeEach((context) => {
  const started = performance.now();
  onTestFinished(() => {
    const task = context.task;
    recordResult({
      file: path.relative(path.join(import.meta.dirname, '..'), task.file?.filepath ?? ''),
      name: task.name,
      state: task.result?.state ?? 'unknown',
      ms: Math.round(performance.now() - started),
    });
  });
});
