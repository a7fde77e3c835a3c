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
