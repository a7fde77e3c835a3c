import { RATING_MAX } from './limits.ts';
import { WIDGET_WINDOW_WORDS } from './widget.ts';
import { z } from './zod.ts';

// Everything the website widget says, written once: the service puts these sentences in the
// widget's data, so the script, the HTML rendition and the public page say the same words, and
// the words a visitor reads about what is left out can only change here.

export const widgetWordsSchema = /* @__PURE__ */ z.object({
  heading: z.string(),
  /** "4.6 out of 5 from 128 reviews in the last 12 months", or that there were none. */
  summary: z.string(),
  /** What the list is, and that every rating is in it. */
  note: z.string(),
  /** When no review can be shown. */
  empty: z.string(),
  /** "2 reviews hidden for privacy or abuse." ("" when none). */
  hidden: z.string(),
  /** Each other site's figures, and the words of its link (in the order of `sources`). */
  sources: z.array(z.object({ text: z.string(), link: z.string() })),
  /** An author without a name. */
  anonymous: z.string(),
  /** A rating as a screen reader says it, for ratings 1 to 5 (index rating − 1). */
  ratings: z.array(z.string()),
  /** The buttons that show the rest of the list and fold it again. */
  more: z.string(),
  fewer: z.string(),
  /** The link to the public page. */
  about: z.string(),
});
export type WidgetWords = z.infer<typeof widgetWordsSchema>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The average as shown: one decimal. */
export const averageWords = (average: number) => `${average.toFixed(1)} out of ${RATING_MAX}`;

/** What the widget says about the reviews hidden for a content reason ("" when none). */
export function hiddenNotice(count: number): string {
  return count > 0 ? `${plural(count, 'review', 'reviews')} hidden for privacy or abuse.` : '';
}

/** The sentences of one widget, from its figures. */
export function widgetWords(facts: {
  name: string;
  count: number;
  average: number | null;
  reviews: number;
  hidden: number;
  sources: readonly { name: string; count: number; average: number }[];
}): WidgetWords {
  return {
    heading: `Reviews of ${facts.name}`,
    summary:
      facts.average === null
        ? `No reviews ${WIDGET_WINDOW_WORDS}.`
        : `${averageWords(facts.average)} from ${plural(facts.count, 'review', 'reviews')} ${WIDGET_WINDOW_WORDS}`,
    note: `Every review left with ${facts.name} in that time counts. Below: the newest from customers who agreed to have theirs shown here, whatever their rating.`,
    empty: 'No customer has agreed to have a review shown here yet.',
    hidden: hiddenNotice(facts.hidden),
    sources: facts.sources.map((s) => ({
      text: `On ${s.name}: ${averageWords(s.average)} from ${plural(s.count, 'review', 'reviews')} ${WIDGET_WINDOW_WORDS}.`,
      link: `Read them on ${s.name}`,
    })),
    anonymous: 'A customer',
    ratings: Array.from({ length: RATING_MAX }, (_, i) => `Rated ${i + 1} out of ${RATING_MAX}`),
    more: `Show all ${facts.reviews} reviews`,
    fewer: 'Show fewer reviews',
    about: 'About these reviews',
  };
}
