import { RATING_MAX, WIDGET_PATHS, WIDGET_WINDOW_WORDS, type WidgetShown } from '@review-desk/shared';
import { type Html, html, pageDocument, raw } from '../http/html.ts';

// The widget without JavaScript (docs/widget.md): the same content and words the script draws,
// as plain HTML. `embed` is the document an iframe or a server-side include takes
// (GET /widget/v1/<id>.html; its <section> is the part to include), `page` the business's public
// page of reviews (GET /reviews/<id>), which the snippet's fallback link opens. No script, no
// inline style, and no rating markup for search engines (Google ignores a business's own stars
// about itself, and the widget is not a claim about anyone else).

const dates = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const dateWords = (day: string) => dates.format(new Date(`${day}T00:00:00Z`));

const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

/** Five drawn stars (no font needs a star glyph), hidden from screen readers: the words say it. */
const stars = (rating: number): Html => {
  const full = Math.max(0, Math.min(RATING_MAX, Math.round(rating)));
  const one = (on: boolean) =>
    raw(`<svg class="rd-star${on ? ' rd-star-on' : ''}" viewBox="0 0 24 24"><path d="${STAR}"/></svg>`);
  return html`<span class="rd-stars" aria-hidden="true">${Array.from({ length: RATING_MAX }, (_, i) => one(i < full))}</span>`;
};

type Mode = 'embed' | 'page';

export function widgetSection(data: WidgetShown, mode: Mode): Html {
  const { words, summary } = data;
  // The page's own heading; inside someone else's page, a section's.
  const heading = mode === 'page' ? 'h1' : 'h2';
  // In a frame, links open outside it: the sites they lead to refuse to be framed.
  const target = mode === 'embed' ? raw(' target="_blank"') : null;
  const reviews = data.reviews.map(
    (r) => html`<li><article>
<p>${stars(r.rating)}<span class="rd-sr">${words.ratings[r.rating - 1]}</span></p>
<p class="rd-meta">${r.author ?? words.anonymous} · <time datetime="${r.date}">${dateWords(r.date)}</time></p>
${r.text ? html`<p class="rd-text">${r.text}</p>` : null}
</article></li>`,
  );
  const sources = data.sources.map((s, i) => {
    const said = words.sources[i];
    if (!said) return null;
    return html`<p class="rd-sources">${said.text}${s.url ? html` <a href="${s.url}"${target} rel="noopener noreferrer">${said.link}</a>` : null}</p>`;
  });
  return html`<section class="rd" aria-labelledby="rd-title">
${raw(`<${heading} id="rd-title">`)}${words.heading}${raw(`</${heading}>`)}
<p class="rd-summary">${summary.average === null ? null : html`${stars(summary.average)} `}<strong>${words.summary}</strong></p>
<p class="rd-note">${words.note}</p>
${reviews.length > 0 ? html`<ul class="rd-list">${reviews}</ul>` : html`<p class="rd-empty">${words.empty}</p>`}
${words.hidden ? html`<p class="rd-hidden">${words.hidden}</p>` : null}
${sources}
${mode === 'embed' ? html`<p class="rd-foot"><a href="${data.page}"${target} rel="noopener">${words.about}</a></p>` : null}
</section>`;
}

/** The document an iframe or a server-side include takes; empty while the widget is off. */
export function embedDocument(data: WidgetShown | null, name: string): string {
  return pageDocument({
    title: `Reviews of ${name}`,
    className: 'rd-embed',
    stylesheets: [WIDGET_PATHS.style],
    body: data
      ? widgetSection(data, 'embed')
      : html`<!-- The business has turned its website widget off: nothing is shown. -->`,
  });
}

/** The business's public page of reviews: the widget's content and the rule behind it. */
export function publicPage(data: WidgetShown | null, name: string): string {
  return pageDocument({
    title: `Reviews of ${name}`,
    stylesheets: ['/assets/site.css', WIDGET_PATHS.style],
    body: html`<main class="rd-page">
${data ? html`${widgetSection(data, 'page')}${about(name)}` : html`<h1>Reviews of ${name}</h1><p>${name} is not showing its reviews here at the moment.</p>`}
</main>`,
  });
}

function about(name: string): Html {
  return html`<section class="rd-about" aria-labelledby="rd-about-title">
<h2 id="rd-about-title">How these reviews are chosen</h2>
<p>The average and the count include every review customers left with ${name} ${WIDGET_WINDOW_WORDS}, whatever the rating, including reviews that are not shown.</p>
<p>A review is shown only if its author agreed when they wrote it, with their first name and initial. The newest are shown first, whatever their rating: ${name} cannot choose them by rating.</p>
<p>${name} may hide a review only for what it says, never for its rating: abuse, or private information about someone. Each hidden review is counted above, and its rating still counts in the average.</p>
<p>Reviews written on other sites are not copied here: that site’s figures are shown, with a link to read them there.</p>
</section>`;
}
