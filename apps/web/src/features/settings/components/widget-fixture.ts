import type { WidgetOwner } from '@review-desk/shared/widget-schema';
import { widgetWords } from '@review-desk/shared/widget-words';

// The website widget as the BFF answers it in the Settings page's tests.

const ID = `wgt_${'B'.repeat(22)}`;
const ORIGIN = 'https://reviews.example.com';

export function widgetAnswer(overrides: Partial<WidgetOwner> = {}): WidgetOwner {
  const reviews = [
    {
      id: 'rev_11',
      rating: 1,
      author: 'Noor H.',
      date: '2026-11-20',
      text: 'Cold coffee, call me on 07700 900123',
    },
    { id: 'rev_10', rating: 5, author: null, date: '2026-11-18', text: 'Best flat white in town' },
  ];
  const shown = overrides.shown ?? reviews;
  const hidden = overrides.hidden ?? [];
  return {
    id: ID,
    enabled: true,
    urls: {
      script: `${ORIGIN}/widget/v1.js`,
      data: `${ORIGIN}/widget/v1/${ID}.json`,
      embed: `${ORIGIN}/widget/v1/${ID}.html`,
      page: `${ORIGIN}/reviews/${ID}`,
    },
    snippet: `<a href="${ORIGIN}/reviews/${ID}" data-review-desk-fallback>Reviews of Harbour Street Coffee</a>\n<script src="${ORIGIN}/widget/v1.js" data-business="${ID}" async></script>`,
    preview: {
      enabled: true,
      business: { name: 'Harbour Street Coffee' },
      window: { days: 365, from: '2025-11-24', to: '2026-11-23' },
      summary: { count: 7, average: 3.4 },
      reviews: shown.map(({ id: _id, ...review }) => review),
      hidden: { count: hidden.length },
      sources: [
        {
          platform: 'google',
          name: 'Google',
          count: 12,
          average: 4.5,
          url: 'https://g.page/r/harbour/review',
        },
      ],
      page: `${ORIGIN}/reviews/${ID}`,
      words: widgetWords({
        name: 'Harbour Street Coffee',
        count: 7,
        average: 3.4,
        reviews: shown.length,
        hidden: hidden.length,
        sources: [{ name: 'Google', count: 12, average: 4.5 }],
      }),
    },
    shown,
    hidden,
    hiddenTotal: hidden.length,
    ...overrides,
  };
}
