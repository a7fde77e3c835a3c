import type { SyncedPlatform } from './reviews.ts';
import { z } from './zod.ts';

// The website widget (docs/widget.md): a business's reviews on its own site. The rules a careful
// business relies on are written here once:
// - only reviews whose customer said yes on the customer page appear, with first name and initial;
// - every rating appears, newest first: there is no rating filter;
// - the average and the count cover every review left in the window, shown or not;
// - the only reviews an owner may hide are those reported for a content reason (HIDE_REASONS),
//   and the widget says how many; a hidden review's rating still counts;
// - reviews synced from another site appear only as that site's summary and link.

/** The widget's public id: `wgt_` and 16 random bytes. Public (it is in the snippet), never a secret. */
export const WIDGET_ID_PREFIX = 'wgt_';
export const WIDGET_ID_PATTERN = /^wgt_[A-Za-z0-9_-]{22}$/;

/** The window: the last 365 UTC calendar days, today included (as analytics' `days=365`). */
export const WIDGET_WINDOW_DAYS = 365;
/** The window as visitors read it. */
export const WIDGET_WINDOW_WORDS = 'in the last 12 months';
/** Reviews in the data: the newest consented ones of the window. */
export const WIDGET_REVIEWS_MAX = 20;
/** Of those, the script shows this many until the visitor asks for more. */
export const WIDGET_REVIEWS_FIRST = 5;
/** The data's `Cache-Control: public, max-age=…` (seconds). */
export const WIDGET_MAX_AGE_SECONDS = 300;
/** The script, its stylesheet included, compressed with gzip: at most this many bytes. */
export const WIDGET_SCRIPT_GZIP_MAX_BYTES = 12 * 1024;

/** Where the service serves the widget (relative to PUBLIC_ORIGIN). */
export const WIDGET_PATHS = {
  script: '/widget/v1.js',
  style: '/widget/v1.css',
  data: (id: string) => `/widget/v1/${id}.json`,
  embed: (id: string) => `/widget/v1/${id}.html`,
  /** The business's public page of reviews: what the snippet's fallback link opens. */
  page: (id: string) => `/reviews/${id}`,
} as const;

/** The reasons a business may hide a review from its widget: content, never rating or tone. */
export const HIDE_REASONS = ['abuse', 'private_data'] as const;
export type HideReason = (typeof HIDE_REASONS)[number];
export const HIDE_REASON_LABELS: Record<HideReason, string> = {
  abuse: 'Abuse: threats, hate, harassment or obscenity',
  private_data: 'Private information about someone (a phone number, an address, health details)',
};
export const hideReasonSchema = /* @__PURE__ */ z.enum(HIDE_REASONS, {
  error: `reason must be one of ${HIDE_REASONS.join(', ')}`,
});

/**
 * How a review's author appears on a website: the first name and the initial of the last
 * ("Ana María Smith" → "Ana S."), a single name alone, nothing at all without a name.
 */
export function publicAuthorName(name: string | null | undefined): string | null {
  const words = (name ?? '')
    .trim()
    .split(/\s+/u)
    .filter((word) => /\p{L}/u.test(word));
  const first = words[0];
  if (first === undefined) return null;
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last === undefined ? undefined : [...last.replace(/^\P{L}+/u, '')][0];
  return initial ? `${first} ${initial.toLocaleUpperCase()}.` : first;
}

/** Each other site as visitors read its name. */
export const SOURCE_NAMES: Record<SyncedPlatform, string> = {
  google: 'Google',
  facebook: 'Facebook',
  yelp: 'Yelp',
};
/** The hosts of each site's public pages (and their subdomains). */
const SOURCE_HOSTS: Record<SyncedPlatform, readonly string[]> = {
  google: ['google.com', 'g.page', 'goo.gl'],
  facebook: ['facebook.com', 'fb.com', 'fb.me'],
  yelp: ['yelp.com'],
};

/**
 * The link a site's summary carries: the business's review site address, when it is on that
 * site (a Google review link for Google); otherwise none, and the summary names the site alone.
 */
export function sourceLink(platform: string, reviewSiteUrl: string | null): string | null {
  const hosts = (SOURCE_HOSTS as Record<string, readonly string[] | undefined>)[platform];
  if (!hosts || !reviewSiteUrl) return null;
  let host: string;
  try {
    const url = new URL(reviewSiteUrl);
    if (url.protocol !== 'https:') return null;
    host = url.hostname.toLowerCase();
  } catch {
    return null;
  }
  return hosts.some((h) => host === h || host.endsWith(`.${h}`)) ? reviewSiteUrl : null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What an owner pastes where the reviews should appear: a link to the public page of reviews,
 * which the script replaces with the widget (and which stays for visitors without JavaScript),
 * then the script. `origin` is the service's PUBLIC_ORIGIN.
 */
export function widgetSnippet(origin: string, id: string, businessName: string): string {
  return [
    `<a href="${escapeHtml(origin + WIDGET_PATHS.page(id))}" data-review-desk-fallback>Reviews of ${escapeHtml(businessName)}</a>`,
    `<script src="${escapeHtml(origin + WIDGET_PATHS.script)}" data-business="${escapeHtml(id)}" async></script>`,
  ].join('\n');
}

/** The dashboard's server forwards them at these paths (owners only). */
export const BFF_WIDGET_PATHS = {
  widget: '/bff/widget',
  hidden: '/bff/widget/hidden/:id',
} as const;

export const hiddenPath = (base: string, reviewId: string) =>
  base.replace(':id', encodeURIComponent(reviewId));
