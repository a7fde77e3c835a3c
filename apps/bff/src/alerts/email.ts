import { RATING_MAX } from '@review-desk/shared';

// The alert email: rating, author, the first characters of the text and a link to the review
// in the dashboard. Built from the alert's own fields only, so it can hold neither the API key
// nor a customer's phone or email address. Text is plain; the HTML part escapes everything.

export type AlertEmailInput = {
  rating: number;
  author: string | null;
  excerpt: string | null;
  locationName: string;
  /** Absolute URL of the review in the dashboard. */
  link: string;
};

export type RenderedEmail = { subject: string; text: string; html: string };

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Header-safe: no line breaks (a customer's name must not add headers). */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').trim();
}

const stars = (rating: number) => `${'★'.repeat(rating)}${'☆'.repeat(Math.max(0, RATING_MAX - rating))}`;

export function renderAlertEmail(input: AlertEmailInput): RenderedEmail {
  const author = oneLine(input.author ?? '') || 'Anonymous';
  const location = oneLine(input.locationName);
  const subject = `New ${input.rating}★ review at ${location}`;
  const text = [
    `A new ${input.rating}-star review at ${location}.`,
    '',
    `Rating: ${stars(input.rating)} (${input.rating} of ${RATING_MAX})`,
    `Author: ${author}`,
    '',
    input.excerpt ?? '(no text)',
    '',
    `Open it in Review Desk: ${input.link}`,
    '',
    'You get this email because low-rating alerts are on for you. Change it on the Notifications page.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>A new ${input.rating}-star review at ${escapeHtml(location)}.</p>
<p><strong>Rating:</strong> ${stars(input.rating)} (${input.rating} of ${RATING_MAX})<br>
<strong>Author:</strong> ${escapeHtml(author)}</p>
<blockquote style="white-space:pre-wrap">${escapeHtml(input.excerpt ?? '(no text)')}</blockquote>
<p><a href="${escapeHtml(input.link)}">Open it in Review Desk</a></p>
<p style="color:#666;font-size:12px">You get this email because low-rating alerts are on for you. Change it on the Notifications page.</p>
</body></html>`;
  return { subject, text, html };
}

export type PauseEmailInput = {
  locationName: string;
  url: string;
  pausedAt: string;
  reason: string | null;
  /** Absolute URL of the location's Settings page in the dashboard. */
  link: string;
};

/** The owners' notice that a webhook endpoint was paused: nothing reaches it until it is resumed. */
export function renderPauseEmail(input: PauseEmailInput): RenderedEmail {
  const location = oneLine(input.locationName);
  const url = oneLine(input.url);
  const reason = oneLine(input.reason ?? '') || 'Every delivery attempt failed.';
  const subject = `A webhook endpoint was paused at ${location}`;
  const lines = [
    `Review Desk stopped delivering events to a webhook endpoint of ${location}: its deliveries kept failing.`,
    '',
    `Endpoint: ${url}`,
    `Paused at: ${input.pausedAt}`,
    `Last failure: ${reason}`,
    '',
    'Nothing is delivered to it until it is resumed. Events are still kept in its delivery log and go out once it is resumed.',
    '',
    `Resume it in Settings → Integrations: ${input.link}`,
    '',
    'You get this email because you are an owner of this location in Review Desk.',
  ];
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>Review Desk stopped delivering events to a webhook endpoint of ${escapeHtml(location)}: its deliveries kept failing.</p>
<p><strong>Endpoint:</strong> ${escapeHtml(url)}<br>
<strong>Paused at:</strong> ${escapeHtml(input.pausedAt)}<br>
<strong>Last failure:</strong> ${escapeHtml(reason)}</p>
<p>Nothing is delivered to it until it is resumed. Events are still kept in its delivery log and go out once it is resumed.</p>
<p><a href="${escapeHtml(input.link)}">Resume it in Settings → Integrations</a></p>
<p style="color:#666;font-size:12px">You get this email because you are an owner of this location in Review Desk.</p>
</body></html>`;
  return { subject, text: lines.join('\n'), html };
}
