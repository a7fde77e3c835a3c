import { RATING_MAX, RATING_MIN } from './limits.ts';
import { ratingSchema } from './reviews.ts';
import type { Scope } from './scopes.ts';
import { hideReasonSchema, WIDGET_ID_PATTERN, WIDGET_REVIEWS_MAX } from './widget.ts';
import { widgetWordsSchema } from './widget-words.ts';
import { z } from './zod.ts';

// The website widget's shapes (docs/widget.md): the public data every view reads, and the
// owner's calls (an extension of the API, like settings).

// ── The public data: GET /widget/v1/<id>.json ─────────────────────────────────────────────────

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const widgetReviewSchema = /* @__PURE__ */ z.object({
  rating: ratingSchema,
  /** First name and initial, or null. */
  author: z.nullable(z.string()),
  /** The UTC day it was left. */
  date: day,
  text: z.nullable(z.string()),
});
export type WidgetReview = z.infer<typeof widgetReviewSchema>;

/** Another site's reviews of the business: its figures and link only, never the reviews. */
export const widgetSourceSchema = /* @__PURE__ */ z.object({
  platform: z.string(),
  name: z.string(),
  count: z.number().check(z.int(), z.gte(1)),
  average: z.number().check(z.gte(RATING_MIN), z.lte(RATING_MAX)),
  url: z.nullable(z.url()),
});
export type WidgetSource = z.infer<typeof widgetSourceSchema>;

export const widgetShownSchema = /* @__PURE__ */ z.object({
  enabled: z.literal(true),
  business: z.object({ name: z.string() }),
  window: z.object({ days: z.number().check(z.int()), from: day, to: day }),
  /** Every review left on the business's own page in the window: shown, hidden or not consented. */
  summary: z.object({ count: z.number().check(z.int(), z.gte(0)), average: z.nullable(z.number()) }),
  reviews: z.array(widgetReviewSchema).check(z.maxLength(WIDGET_REVIEWS_MAX)),
  /** Consented reviews of the window the business reported for a content reason. */
  hidden: z.object({ count: z.number().check(z.int(), z.gte(0)) }),
  sources: z.array(widgetSourceSchema),
  /** The public page of reviews. */
  page: z.url(),
  /** What the widget says, written once for the script and the HTML (widget-words.ts). */
  words: widgetWordsSchema,
});
export type WidgetShown = z.infer<typeof widgetShownSchema>;

/** `enabled: false`: the owner turned the widget off, and nothing is shown. */
export const widgetDataSchema = /* @__PURE__ */ z.discriminatedUnion('enabled', [
  widgetShownSchema,
  z.object({ enabled: z.literal(false) }),
]);
export type WidgetData = z.infer<typeof widgetDataSchema>;

// ── The owner's calls (an extension of the API, like settings) ─────────────────────────────────

/** A review as its owner sees it in Settings → Website widget (author as the widget shows it). */
export const widgetOwnerReviewSchema = /* @__PURE__ */ z.extend(widgetReviewSchema, { id: z.string() });
export const hiddenReviewSchema = /* @__PURE__ */ z.extend(widgetOwnerReviewSchema, {
  reason: hideReasonSchema,
  hiddenAt: z.string(),
});
export type HiddenReview = z.infer<typeof hiddenReviewSchema>;

/** At most this many hidden reviews are listed (newest report first); `hiddenTotal` counts them all. */
export const HIDDEN_LIST_MAX = 100;

export const widgetOwnerSchema = /* @__PURE__ */ z.object({
  id: z.string().check(z.regex(WIDGET_ID_PATTERN)),
  enabled: z.boolean(),
  urls: z.object({ script: z.url(), data: z.url(), embed: z.url(), page: z.url() }),
  /** What to paste into the website. */
  snippet: z.string(),
  /** What visitors see while it is on (also while it is off: what they would see). */
  preview: widgetShownSchema,
  /** The reviews shown now, with their ids: what may be reported. */
  shown: z.array(widgetOwnerReviewSchema),
  hidden: z.array(hiddenReviewSchema),
  hiddenTotal: z.number().check(z.int(), z.gte(0)),
});
export type WidgetOwner = z.infer<typeof widgetOwnerSchema>;

export const widgetUpdateSchema = /* @__PURE__ */ z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});
export const hideReviewBodySchema = /* @__PURE__ */ z.strictObject({ reason: hideReasonSchema });
export type HideReviewBody = z.infer<typeof hideReviewBodySchema>;

/** The owner's calls: read (and create) the widget, switch it, hide or show a review. */
export const WIDGET_ENDPOINTS = {
  read: { method: 'GET', path: '/api/v1/widget', scope: 'widget:read' },
  write: { method: 'PUT', path: '/api/v1/widget', scope: 'widget:write' },
  hide: { method: 'PUT', path: '/api/v1/widget/hidden/:id', scope: 'widget:write' },
  show: { method: 'DELETE', path: '/api/v1/widget/hidden/:id', scope: 'widget:write' },
} as const satisfies Record<string, { method: 'GET' | 'PUT' | 'DELETE'; path: string; scope: Scope }>;
