import { AppError } from '@review-desk/server/errors';
import {
  HIDDEN_LIST_MAX,
  type HideReason,
  isSyncedPlatform,
  publicAuthorName,
  WIDGET_PATHS,
  type WidgetOwner,
  widgetSnippet,
} from '@review-desk/shared';
import type { AppContext } from '../context.ts';
import { reviewPublicId, reviewRowId } from '../ids.ts';
import { dayOf, dayToDate } from '../store/time.ts';
import { buildWidget, toWidgetReview } from './build.ts';

// The owner's side of the widget (Settings → Website widget): the snippet, a preview, the
// reviews shown and hidden, the switch, and hiding a review for a content reason. Each answer is
// read fresh from the database (not the visitors' cache), so an owner sees a change at once.

type Ctx = Pick<AppContext, 'store' | 'widgets' | 'now' | 'site'>;

/** The business's widget as its owner sees it, made on first use. */
export async function ownerView(ctx: Ctx, businessId: number): Promise<WidgetOwner> {
  const { widget, created } = await ctx.store.widgets.ensure(businessId, ctx.now());
  if (created) await ctx.widgets.changed({ businessId, publicId: widget.public_id });
  const origin = ctx.site.publicOrigin;
  const [view, hidden] = await Promise.all([
    buildWidget(ctx.store, businessId, ctx.now(), origin),
    ctx.store.website.hidden(businessId, HIDDEN_LIST_MAX),
  ]);
  if (!view) throw new AppError('internal', 'The widget of this business could not be read.');
  const id = widget.public_id;
  return {
    id,
    enabled: widget.enabled === 1,
    urls: {
      script: `${origin}${WIDGET_PATHS.script}`,
      data: `${origin}${WIDGET_PATHS.data(id)}`,
      embed: `${origin}${WIDGET_PATHS.embed(id)}`,
      page: `${origin}${WIDGET_PATHS.page(id)}`,
    },
    snippet: widgetSnippet(origin, id, view.shown.business.name),
    preview: view.shown,
    shown: view.rows.map((row) => ({ id: reviewPublicId(row.id), ...toWidgetReview(row) })),
    hidden: hidden.rows.map((row) => ({
      id: reviewPublicId(row.id),
      rating: row.rating,
      author: publicAuthorName(row.author_name),
      date: dayToDate(dayOf(Number(row.review_at))),
      text: row.text,
      reason: row.hidden_reason,
      hiddenAt: new Date(row.hidden_at).toISOString(),
    })),
    hiddenTotal: hidden.total,
  };
}

export async function switchWidget(ctx: Ctx, businessId: number, enabled: boolean): Promise<WidgetOwner> {
  await ctx.store.widgets.ensure(businessId, ctx.now());
  await ctx.store.widgets.setEnabled(businessId, enabled, ctx.now());
  await ctx.widgets.changed({ businessId });
  return ownerView(ctx, businessId);
}

/** The business's own review of this public id, or why it cannot be hidden. */
async function ownReview(ctx: Ctx, businessId: number, publicId: string) {
  const id = reviewRowId(publicId);
  const review = id === undefined ? undefined : await ctx.store.reviews.byId(id);
  if (!review || Number(review.business_id) !== businessId) throw new AppError('review_not_found');
  // Synced reviews are never shown, so there is nothing to hide: they are reported where written.
  if (isSyncedPlatform(review.platform)) throw new AppError('review_synced');
  return review;
}

/** Hides a review for a content reason (again: the reason is replaced). */
export async function hideReview(
  ctx: Ctx,
  businessId: number,
  publicId: string,
  reason: HideReason,
): Promise<WidgetOwner> {
  const review = await ownReview(ctx, businessId, publicId);
  await ctx.store.website.hide(businessId, review.id, reason, ctx.now());
  await ctx.widgets.changed({ businessId });
  return ownerView(ctx, businessId);
}

/** Shows a hidden review again (a review not hidden stays as it is). */
export async function showReview(ctx: Ctx, businessId: number, publicId: string): Promise<WidgetOwner> {
  const review = await ownReview(ctx, businessId, publicId);
  await ctx.store.website.show(businessId, review.id);
  await ctx.widgets.changed({ businessId });
  return ownerView(ctx, businessId);
}
