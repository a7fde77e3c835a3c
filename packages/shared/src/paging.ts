import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, PAGE_MAX, PAGE_MIN } from './limits.ts';
import { intParam } from './query.ts';
import { z } from './zod.ts';

// Every list is read a page at a time (docs/api.md, "Paging the reviews"): the query names `page`
// and `limit`, and the answer names the page, the limit and the total beside the page's items.

/** The query's `page` and `limit`; a list with pages of its own size gives its limit's bounds. */
export function pagingParams(limit = { min: LIMIT_MIN, max: LIMIT_MAX, default: LIMIT_DEFAULT }) {
  return {
    page: z._default(intParam('page', PAGE_MIN, PAGE_MAX, `of at least ${PAGE_MIN}`), PAGE_MIN),
    limit: z._default(intParam('limit', limit.min, limit.max), limit.default),
  };
}

/** What an answer says of its page, beside the page's items. */
export const pageFields = {
  page: /* @__PURE__ */ z.number().check(z.int()),
  limit: /* @__PURE__ */ z.number().check(z.int()),
  total: /* @__PURE__ */ z.number().check(z.int(), z.nonnegative()),
};

/** An answer holding a page of `items` under `key`. */
export function pageOf<K extends string, T extends z.core.$ZodType>(key: K, items: T) {
  return z.object({ ...pageFields, ...({ [key]: z.array(items) } as Record<K, z.ZodMiniArray<T>>) });
}
