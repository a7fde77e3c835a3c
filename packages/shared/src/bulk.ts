import { BULK_DAILY_CAP_MAX } from './bulk-days.ts';
import { CHANNELS, type Channel, DEFAULT_CHANNEL } from './channels.ts';
import { fieldErrors } from './field-errors.ts';
import { pageOf, pagingParams } from './paging.ts';
import { type SendRequest, sendRequestSchema } from './send.ts';
import { recipientFields } from './send-history.ts';
import { z } from './zod.ts';

// Sending to a list (docs/bulk.md): the dashboard checks every row with the same schema a single
// send uses (send.ts), the BFF checks them again before it stores the job, and a worker sends the
// rows one at a time through the send journal, each at most once.

/** Rows in one list at most, and the file the dashboard reads them from. */
export const BULK_ROWS_MAX = 10_000;
export const BULK_FILE_BYTES_MAX = 2 * 1024 * 1024;
/** The JSON body of POST /bff/bulk-sends: 10,000 rows of long names and addresses fit. */
export const BULK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export const BULK_JOB_STATUSES = ['running', 'paused', 'done', 'cancelled'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];

/**
 * A row's outcome. `sent`/`warning`: the upstream accepted it (not a delivery, not a review);
 * `skipped`: not sent, on purpose (recently contacted, or the job was cancelled first);
 * `refused`: the upstream refused it (nothing went out; its words are kept); `failed`: the
 * dashboard server could not send it; `unknown`: it may have gone out — never sent again
 * automatically.
 */
export const BULK_ROW_OUTCOMES = [
  'pending',
  'sent',
  'warning',
  'skipped',
  'refused',
  'failed',
  'unknown',
] as const;
export type BulkRowOutcome = (typeof BULK_ROW_OUTCOMES)[number];

/**
 * A list's channel: one of a single send's, or `sms_or_email`: a text to each row with a phone
 * number, an email to the others — so a list with both columns, where some rows have only one,
 * sends every row it can.
 */
export const LIST_CHANNELS = [...CHANNELS, 'sms_or_email'] as const;
export type ListChannel = (typeof LIST_CHANNELS)[number];
export const listChannelSchema = /* @__PURE__ */ z.enum(LIST_CHANNELS, {
  error: `Send by must be one of ${LIST_CHANNELS.join(', ')}`,
});

/** A row as a file gives it: the fields a single send takes, without the channel. */
const bulkRowInputShape = {
  customerName: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(1000))),
  customerPhone: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(1000))),
  customerEmail: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(1000))),
};
export const bulkRowInputSchema = /* @__PURE__ */ z.object(bulkRowInputShape);
const bulkRowStrictSchema = /* @__PURE__ */ z.strictObject(bulkRowInputShape);
export type BulkRowInput = z.input<typeof bulkRowInputSchema>;

/** How a row is sent: the list's channel, or for `sms_or_email` a text when it has a phone, else an email. */
export function rowChannel(row: BulkRowInput, channel: ListChannel): Channel {
  if (channel !== 'sms_or_email') return channel;
  return (row.customerPhone ?? '').trim() !== '' ? 'sms' : 'email';
}

/**
 * One row with the list's channel, through the single send's own schema. With `sms_or_email` the
 * row carries only the contact it is sent to, so the frequency cap and the recent-contact check
 * look at that one.
 */
export function checkBulkRow(row: BulkRowInput, channel: ListChannel) {
  const by = rowChannel(row, channel);
  const { customerPhone, customerEmail, ...rest } = row;
  const contacts =
    channel !== 'sms_or_email'
      ? { customerPhone, customerEmail }
      : by === 'sms'
        ? { customerPhone }
        : { customerEmail };
  return sendRequestSchema.safeParse({ ...rest, ...contacts, channel: by });
}

/** What a list's rows become once checked: the sends, or the issues naming each bad row. */
export type CheckedRow =
  | { ok: true; send: SendRequest }
  | { ok: false; words: string; issues: { path: (string | number)[]; message: string }[] };

/**
 * One row of a list, at `index`: the row's shape, then the single send's schema with the list's
 * channel. Its issues are named as the whole list's refusal names them (`rows.<index>.<field>`,
 * "Row N: …"). The BFF checks a long list row by row with this, a slice at a time
 * (apps/bff/src/bulk/check.ts); the schema below checks it whole.
 */
export function checkListRow(row: unknown, index: number, channel: ListChannel): CheckedRow {
  const shape = bulkRowStrictSchema.safeParse(row);
  const checked = shape.success ? checkBulkRow(shape.data, channel) : shape;
  if (checked.success) return { ok: true, send: checked.data };
  const { fields, general } = fieldErrors(checked.error);
  const words = [...general, ...Object.values(fields)].join(' ');
  const issues = Object.entries(fields).map(([field, message]) => ({
    path: ['rows', index, field],
    message: `Row ${index + 1}: ${message}`,
  }));
  if (issues.length === 0) issues.push({ path: ['rows', index], message: `Row ${index + 1}: ${words}` });
  return { ok: false, words, issues };
}

/**
 * POST /bff/bulk-sends without its rows checked: the list's settings, and its rows as a list of
 * anything (each checked by `checkListRow`).
 */
export const bulkSendHeadSchema = /* @__PURE__ */ z.strictObject({
  channel: z._default(listChannelSchema, DEFAULT_CHANNEL),
  rows: z.array(z.unknown(), { error: 'The list must be a list of customers' }).check(
    z.minLength(1, { error: 'The list must hold at least one customer' }),
    z.maxLength(BULK_ROWS_MAX, {
      error: `A list holds at most ${BULK_ROWS_MAX.toLocaleString('en')} customers`,
    }),
  ),
  skipRecent: z._default(z.boolean(), false),
  dailyCap: z._default(
    z.nullable(
      z.number({ error: 'At most this many a day must be a whole number' }).check(
        z.int({ error: 'At most this many a day must be a whole number' }),
        z.gte(1, { error: 'At most this many a day must be at least 1' }),
        z.lte(BULK_DAILY_CAP_MAX, {
          error: `At most this many a day must be at most ${BULK_DAILY_CAP_MAX.toLocaleString('en')}`,
        }),
      ),
    ),
    null,
  ),
});

/**
 * POST /bff/bulk-sends. Every row goes through the single send's schema (send.ts) with the list's
 * channel; one bad row refuses the whole list, naming each bad row (`rows.<index>.<field>`).
 * `skipRecent`: a row whose contact was sent a request within the frequency cap's window is
 * skipped when its turn comes, rather than sent. `dailyCap`: at most this many rows go out a day
 * (bulk-days.ts); the rest wait for the next day.
 */
export const bulkSendRequestSchema = /* @__PURE__ */ z.pipe(
  bulkSendHeadSchema,
  z.transform((body, ctx) => {
    const sends: SendRequest[] = [];
    let bad = 0;
    body.rows.forEach((row, index) => {
      const checked = checkListRow(row, index, body.channel);
      if (checked.ok) {
        sends.push(checked.send);
        return;
      }
      bad++;
      for (const issue of checked.issues) ctx.issues.push({ code: 'custom', ...issue, input: body });
    });
    if (bad > 0) return z.NEVER;
    return { channel: body.channel, skipRecent: body.skipRecent, dailyCap: body.dailyCap, rows: sends };
  }),
);
export type BulkSendRequestInput = z.input<typeof bulkSendRequestSchema>;
export type BulkSendRequest = z.output<typeof bulkSendRequestSchema>;

/** The list's rows in all, and how many stand at each outcome. */
type OutcomeCounts = Record<BulkRowOutcome, z.ZodMiniNumber>;
const outcomeCounts = Object.fromEntries(
  BULK_ROW_OUTCOMES.map((o) => [o, /* @__PURE__ */ z.number().check(z.int())]),
) as OutcomeCounts;
export const bulkCountsSchema = /* @__PURE__ */ z.object({
  total: /* @__PURE__ */ z.number().check(z.int()),
  ...outcomeCounts,
});
export type BulkCounts = z.infer<typeof bulkCountsSchema>;

export const bulkJobSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  status: z.enum(BULK_JOB_STATUSES),
  /** Why the job is paused or stopped, in words (null while running normally). */
  reason: z.nullable(z.string()),
  channel: listChannelSchema,
  skipRecent: z.boolean(),
  location: z.string(),
  counts: bulkCountsSchema,
  createdBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
  /** Rows per minute over the last rows sent (null before two have gone). */
  ratePerMinute: z.nullable(z.number()),
  /** At most this many rows a day (null: no cap), days on `timeZone`'s wall clock. */
  dailyCap: z.nullable(/* @__PURE__ */ z.number().check(z.int())),
  timeZone: z.string(),
  /** Today's cap is reached: the next row goes out at this time (the next day's start). */
  waitingUntil: z.nullable(z.string()),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** `timeZone`: the wall clock a new list's days are counted on (for the preflight's finishing date). */
export const bulkJobListSchema = /* @__PURE__ */ z.object({
  jobs: z.array(bulkJobSchema),
  timeZone: z.string(),
});
export type BulkJobList = z.infer<typeof bulkJobListSchema>;

export const bulkRowSchema = /* @__PURE__ */ z.object({
  index: /* @__PURE__ */ z.number().check(z.int()),
  ...recipientFields,
  outcome: z.enum(BULK_ROW_OUTCOMES),
  /** The upstream's error code for a refusal, or why a row was skipped or is unknown. */
  code: z.nullable(z.string()),
  /** The upstream's words, or ours. */
  detail: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
export type BulkRow = z.infer<typeof bulkRowSchema>;

export const bulkRowPageSchema = /* @__PURE__ */ pageOf('rows', bulkRowSchema);
export type BulkRowPage = z.infer<typeof bulkRowPageSchema>;

/** GET /bff/bulk-sends/{id}/rows: pages of up to 500 rows. */
export const BULK_ROWS_PAGE_MAX = 500;
export const bulkRowsQuerySchema = /* @__PURE__ */ z.strictObject({
  ...pagingParams({ min: 1, max: BULK_ROWS_PAGE_MAX, default: 100 }),
});

export const BULK_ACTIONS = ['pause', 'resume', 'cancel', 'retry-unknown'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const bulkPaths = {
  list: '/bff/bulk-sends',
  one: (id: string) => `/bff/bulk-sends/${encodeURIComponent(id)}`,
  rows: (id: string) => `/bff/bulk-sends/${encodeURIComponent(id)}/rows`,
  results: (id: string) => `/bff/bulk-sends/${encodeURIComponent(id)}/results.csv`,
  action: (id: string, action: BulkAction) => `/bff/bulk-sends/${encodeURIComponent(id)}/${action}`,
} as const;
