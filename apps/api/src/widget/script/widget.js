// @ts-check
// The website widget (docs/widget.md), served as /widget/v1.js exactly as written here, with the
// stylesheet put in place of STYLESHEET (widget/assets.ts). It runs on other people's pages:
// - it loads nothing but its own data, from the origin it was loaded from, without cookies or
//   a referrer, and sets nothing on the page but one element;
// - it builds its content with DOM calls only (no HTML parsing, no eval, no inline style), inside a
//   shadow root, so a strict Content-Security-Policy (even with Trusted Types) lets it run, the
//   page's styles cannot reach it and its styles cannot reach the page;
// - until it has drawn, the snippet's link to the public page of reviews stays; if it cannot draw,
//   the link stays and the console says why; if the business turned it off, it draws nothing and
//   says so in the console.
(() => {
  const STYLESHEET = '';
  const FIRST = 5;
  const ID = /^wgt_[A-Za-z0-9_-]{22}$/;
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || script.dataset.reviewDeskDone) return;
  script.dataset.reviewDeskDone = '1';

  /** @param {'info' | 'warn'} level @param {string} message */
  const say = (level, message) => console[level](`Review widget: ${message}`);

  const id = script.dataset.business || '';
  if (!ID.test(id)) {
    say('warn', 'data-business is missing or is not a widget id; copy the snippet again from your settings.');
    return;
  }
  const origin = new URL(script.src).origin;
  const before = script.previousElementSibling;
  const fallback =
    before instanceof HTMLAnchorElement && before.hasAttribute('data-review-desk-fallback') ? before : null;

  /**
   * An element with attributes and children (strings become text, never HTML).
   * @param {string} tag
   * @param {Record<string, string>} attributes
   * @param {(Node | string | null)[]} children
   */
  const el = (tag, attributes = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    for (const child of children) if (child !== null) node.append(child);
    return node;
  };

  /** @type {CSSStyleSheet | undefined} */
  let sheet;
  /** @param {ShadowRoot} root */
  const style = (root) => {
    if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(STYLESHEET);
      }
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(el('link', { rel: 'stylesheet', href: `${origin}/widget/v1.css` }));
    }
  };

  const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  // Drawn, not typed: no font on the visitor's machine needs a star glyph. The namespace is a
  // name, nothing is loaded from it.
  const SVG = 'http://www.w3.org/2000/svg';
  const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';
  /** Five stars, `rating` of them filled, hidden from screen readers (the words say it). @param {number} rating */
  const stars = (rating) => {
    const full = Math.max(0, Math.min(5, Math.round(rating)));
    const row = el('span', { class: 'rd-stars', 'aria-hidden': 'true' });
    for (let i = 0; i < 5; i++) {
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('viewBox', '0 0 24 24');
      svg.setAttribute('class', i < full ? 'rd-star rd-star-on' : 'rd-star');
      const path = document.createElementNS(SVG, 'path');
      path.setAttribute('d', STAR);
      svg.append(path);
      row.append(svg);
    }
    return row;
  };

  /**
   * @typedef {{ rating: number, author: string | null, date: string, text: string | null }} Review
   * @typedef {{ url: string | null }} Source
   * @typedef {{ heading: string, summary: string, note: string, empty: string, hidden: string,
   *   sources: { text: string, link: string }[], anonymous: string, ratings: string[], more: string,
   *   fewer: string, about: string }} Words
   * @typedef {{ enabled: true, summary: { average: number | null }, reviews: Review[],
   *   sources: Source[], page: string, words: Words }} Shown
   */

  /** @param {Review} review @param {Words} words */
  const item = (review, words) =>
    el('li', {}, [
      el('article', {}, [
        el('p', {}, [
          stars(review.rating),
          el('span', { class: 'rd-sr' }, [words.ratings[review.rating - 1] ?? '']),
        ]),
        el('p', { class: 'rd-meta' }, [
          `${review.author ?? words.anonymous} · `,
          el('time', { datetime: review.date }, [dates.format(new Date(`${review.date}T00:00:00Z`))]),
        ]),
        review.text ? el('p', { class: 'rd-text' }, [review.text]) : null,
      ]),
    ]);

  /** @param {Shown} data */
  const draw = (data) => {
    const { words } = data;
    const theme = script.dataset.theme;
    const section = el('section', {
      class: theme === 'light' || theme === 'dark' ? `rd rd-${theme}` : 'rd',
      'aria-labelledby': 'rd-title',
    });
    section.append(el('h2', { id: 'rd-title' }, [words.heading]));
    section.append(
      el('p', { class: 'rd-summary' }, [
        data.summary.average === null ? null : stars(data.summary.average),
        data.summary.average === null ? null : ' ',
        el('strong', {}, [words.summary]),
      ]),
    );
    section.append(el('p', { class: 'rd-note' }, [words.note]));
    if (data.reviews.length === 0) section.append(el('p', { class: 'rd-empty' }, [words.empty]));
    else {
      const list = el('ul', { class: 'rd-list', id: 'rd-list' });
      const items = data.reviews.map((review) => item(review, words));
      items.forEach((li, i) => {
        if (i >= FIRST) li.hidden = true;
        list.append(li);
      });
      section.append(list);
      if (items.length > FIRST) {
        const button = el(
          'button',
          { type: 'button', class: 'rd-more', 'aria-expanded': 'false', 'aria-controls': 'rd-list' },
          [words.more],
        );
        button.addEventListener('click', () => {
          const open = button.getAttribute('aria-expanded') !== 'true';
          items.forEach((li, i) => {
            if (i >= FIRST) li.hidden = !open;
          });
          button.setAttribute('aria-expanded', String(open));
          button.textContent = open ? words.fewer : words.more;
        });
        section.append(el('p', {}, [button]));
      }
    }
    if (words.hidden) section.append(el('p', { class: 'rd-hidden' }, [words.hidden]));
    data.sources.forEach((source, i) => {
      const said = words.sources[i];
      if (!said) return;
      const link = source.url ? el('a', { href: source.url, rel: 'noopener noreferrer' }, [said.link]) : null;
      section.append(el('p', { class: 'rd-sources' }, [said.text, link ? ' ' : null, link]));
    });
    section.append(el('p', { class: 'rd-foot' }, [el('a', { href: data.page }, [words.about])]));

    const host = el('div', { class: 'review-desk-widget' });
    const root = host.attachShadow({ mode: 'open' });
    style(root);
    root.append(section);
    if (fallback) fallback.replaceWith(host);
    else script.after(host);
  };

  fetch(`${origin}/widget/v1/${id}.json`, { credentials: 'omit', referrerPolicy: 'no-referrer' })
    .then((response) => response.json().then((body) => ({ status: response.status, body })))
    .then(({ status, body }) => {
      if (body?.success !== true) {
        say(
          'warn',
          status === 404
            ? `no widget has the id ${id}; copy the snippet again from your settings.`
            : 'the reviews could not be loaded just now; the link to them stays.',
        );
        return;
      }
      if (body.data.enabled !== true) {
        if (fallback) fallback.remove();
        say('info', 'the business has turned its website widget off, so nothing is shown.');
        return;
      }
      if (!fallback && script.closest('head')) {
        say('warn', 'put the snippet in the page’s body, where the reviews should appear.');
        return;
      }
      draw(body.data);
    })
    .catch(() => say('warn', 'the reviews could not be loaded just now; the link to them stays.'));
})();
