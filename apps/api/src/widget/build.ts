import {
  DAY_MS,
  publicAuthorName,
  SOURCE_NAMES,
  sourceLink,
  WIDGET_PATHS,
  WIDGET_REVIEWS_MAX,
  WIDGET_WINDOW_DAYS,
  type WidgetReview,
  type WidgetShown,
  type WidgetSource,
  widgetWords,
} from '@review-desk/shared';
import type { WebsiteReviewRow } from '../reviews/website-store.ts';
import type { Store } from '../store/index.ts';
import { dayOf, dayToDate } from '../store/time.ts';

// What a business's widget shows (docs/widget.md, "What is shown and why"), read from the
// database once per change, never per view:
// - the count and average of every review left on the business's own page in the window — shown,
//   hidden, or without consent alike (consent is about the words and the name, not the rating);
// - the newest consented reviews of the window, every rating, newest first;
// - how many consented reviews of the window the business hid for a content reason;
// - each other site's count, average and link (its reviews are never copied).

/** A business's widget as built: what visitors see, and the reviews' ids for its owner. */
export type WidgetView = {
  businessId: number;
  publicId: string;
  enabled: boolean;
  /** The UTC day whose window it describes: the next day builds it again. */
  day: number;
  shown: WidgetShown;
  rows: WebsiteReviewRow[];
};

const mean = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

export const toWidgetReview = (row: WebsiteReviewRow): WidgetReview => ({
  rating: row.rating,
  author: publicAuthorName(row.author_name),
  date: dayToDate(dayOf(Number(row.review_at))),
  text: row.text,
});

/** The widget of a business, as of `now`; undefined when the business or its widget is gone. */
export async function buildWidget(
  store: Store,
  businessId: number,
  now: number,
  publicOrigin: string,
): Promise<WidgetView | undefined> {
  const to = dayOf(now);
  const from = to - WIDGET_WINDOW_DAYS + 1;
  const since = from * DAY_MS;
  const [business, widget, totals, rows, hidden, sources] = await Promise.all([
    store.businesses.byId(businessId),
    store.widgets.byBusiness(businessId),
    store.analytics.reviewTotals(businessId, from, to),
    store.website.newest(businessId, since, WIDGET_REVIEWS_MAX),
    store.website.hiddenCount(businessId, since),
    store.website.sources(businessId, since),
  ]);
  if (!business || !widget) return undefined;
  const count = Number(totals.n) - Number(totals.synced_n);
  const average = mean(Number(totals.rating_sum) - Number(totals.synced_rating_sum), count);
  const others: WidgetSource[] = sources.map((s) => ({
    platform: s.platform,
    name:
      (SOURCE_NAMES as Record<string, string>)[s.platform] ??
      s.platform.charAt(0).toUpperCase() + s.platform.slice(1),
    count: s.n,
    average: mean(s.rating_sum, s.n) as number,
    url: sourceLink(s.platform, business.review_url),
  }));
  return {
    businessId,
    publicId: widget.public_id,
    // A suspended business shows nothing, as if its owner had turned the widget off.
    enabled: widget.enabled === 1 && business.suspended_at === null,
    day: to,
    rows,
    shown: {
      enabled: true,
      business: { name: business.name },
      window: { days: WIDGET_WINDOW_DAYS, from: dayToDate(from), to: dayToDate(to) },
      summary: { count, average },
      reviews: rows.map(toWidgetReview),
      hidden: { count: hidden },
      sources: others,
      page: `${publicOrigin}${WIDGET_PATHS.page(widget.public_id)}`,
      words: widgetWords({
        name: business.name,
        count,
        average,
        reviews: rows.length,
        hidden,
        sources: others,
      }),
    },
  };
}
