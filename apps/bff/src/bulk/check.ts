import { AppError } from '@review-desk/server/errors';
import {
  type BulkSendRequest,
  bulkSendHeadSchema,
  checkListRow,
  type SendRequest,
} from '@review-desk/shared';
import { z } from 'zod';

// A list's rows are checked one by one with the single send's schema (packages/shared bulk.ts,
// checkListRow), a slice at a time: a 10,000-row list takes the check a second or more of CPU,
// which in one go would hold every other request (a sign-in, a send, /healthz) that long. After
// each slice of SLICE_MS the check gives way to whatever else is waiting, then goes on.

/** The longest the check runs before giving way. */
export const SLICE_MS = 8;

/**
 * A pause point for long work: each call gives way to the event loop (other requests, timers)
 * when the work has run `sliceMs` since it last did, and returns at once otherwise.
 */
export function slices(sliceMs = SLICE_MS): { pause(): Promise<void> | undefined; readonly yields: number } {
  let since = performance.now();
  let yields = 0;
  return {
    pause() {
      if (performance.now() - since < sliceMs) return undefined;
      yields++;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          since = performance.now();
          resolve();
        }),
      );
    },
    get yields() {
      return yields;
    },
  };
}

/** Runs `each` over the items in order, a slice at a time; returns how many times it gave way. */
export async function inSlices<T>(
  items: readonly T[],
  each: (item: T, index: number) => void,
  sliceMs = SLICE_MS,
): Promise<number> {
  const slicer = slices(sliceMs);
  for (let index = 0; index < items.length; index++) {
    each(items[index] as T, index);
    const pause = slicer.pause();
    if (pause) await pause;
  }
  return slicer.yields;
}

/** POST /bff/bulk-sends' body, checked as bulkSendRequestSchema checks it, a slice at a time. */
export async function checkBulkList(body: unknown): Promise<BulkSendRequest> {
  const head = bulkSendHeadSchema.safeParse(body);
  if (!head.success) throw AppError.validation(head.error);
  const { channel, rows, skipRecent, dailyCap } = head.data;
  const sends: SendRequest[] = [];
  const issues: z.core.$ZodIssue[] = [];
  await inSlices(rows, (row, index) => {
    const checked = checkListRow(row, index, channel);
    if (checked.ok) sends.push(checked.send);
    else for (const issue of checked.issues) issues.push({ code: 'custom', input: row, ...issue });
  });
  if (issues.length > 0) throw AppError.validation(new z.ZodError(issues));
  return { channel, skipRecent, dailyCap, rows: sends };
}
