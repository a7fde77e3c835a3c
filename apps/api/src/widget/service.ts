import type { Subscription } from '@review-desk/server/db/types';
import type { Logger } from '@review-desk/server/log';
import { ok } from '@review-desk/shared';
import { KEY_CHANNEL } from '../accounts/keys-store.ts';
import { randomToken } from '../ids.ts';
import type { Store } from '../store/index.ts';
import { dayOf } from '../store/time.ts';
import { loadWidgetAssets, type WidgetAssets } from './assets.ts';
import { buildWidget, type WidgetView } from './build.ts';
import { type CacheLimits, createViewCache } from './cache.ts';
import { isWebsiteEvent, notifyWebsiteChange, WEBSITE_CHANNEL, type WebsiteEvent } from './changes.ts';
import { createDirectory } from './directory.ts';
import { embedDocument, publicPage } from './html.ts';
import { type Representation, represent, representationBytes } from './representation.ts';

// The widgets as visitors get them: a view finds the business in the directory and its answer in
// the cache, both in memory, so no view reads the database (docs/widget.md, "Fast"). A change to
// what a business's website shows drops its entry here at once and in every process that listens.

/** A business's widget, made once per change: the data, the HTML rendition and the public page. */
export type WidgetEntry = {
  view: WidgetView;
  json: Representation;
  embed: Representation;
  page: Representation;
};

export function representWidget(view: WidgetView): WidgetEntry {
  const shown = view.enabled ? view.shown : null;
  const name = view.shown.business.name;
  return {
    view,
    json: represent(JSON.stringify(ok(shown ?? { enabled: false })), 'application/json; charset=utf-8'),
    embed: represent(embedDocument(shown, name), 'text/html; charset=utf-8'),
    page: represent(publicPage(shown, name), 'text/html; charset=utf-8'),
  };
}

export type Widgets = ReturnType<typeof createWidgets>;

export function createWidgets(deps: {
  store: Store;
  now: () => number;
  publicOrigin: () => string;
  logger: Logger;
  limits?: CacheLimits;
  /** Database look-ups a second for ids this process has not heard of. */
  missesPerSecond?: number;
}) {
  const { store, now } = deps;
  const assets: WidgetAssets = loadWidgetAssets();
  const directory = createDirectory(store.widgets, { missesPerSecond: deps.missesPerSecond });
  let builds = 0;
  const cache = createViewCache<WidgetEntry>({
    build: async (businessId) => {
      builds++;
      const view = await buildWidget(store, businessId, now(), deps.publicOrigin());
      return view && representWidget(view);
    },
    bytes: (entry) =>
      representationBytes(entry.json) + representationBytes(entry.embed) + representationBytes(entry.page),
    fresh: (entry) => entry.view.day === dayOf(now()),
    ...(deps.limits ? { limits: deps.limits } : {}),
    onError: (error) =>
      deps.logger.warn({ err: error }, 'website widget not rebuilt; the last one is served'),
  });

  const heard = (event: WebsiteEvent) => {
    if (event.publicId) directory.add(event.publicId, event.businessId);
    cache.drop(event.businessId);
  };
  // This process's changes are dropped when they are made (after they committed): their echo
  // would only throw away a copy built since from the committed data.
  const self = randomToken(9);

  return {
    assets,
    /** A view: the business's entry, at once when cached; undefined for an id nobody issued. */
    lookup(publicId: string): WidgetEntry | undefined | Promise<WidgetEntry | undefined> {
      const found = directory.find(publicId);
      if (found === undefined) return undefined;
      if (typeof found === 'number') return cache.lookup(found);
      return found.then((businessId) => (businessId === undefined ? undefined : cache.lookup(businessId)));
    },
    /** A view answered from memory alone, or undefined (then `lookup`: a build, a look-up, a 404). */
    peek(publicId: string): WidgetEntry | undefined {
      const businessId = directory.known(publicId);
      return businessId === undefined ? undefined : cache.peek(businessId);
    },
    /** After a change committed: dropped here at once, and in every other process when it hears. */
    async changed(event: WebsiteEvent): Promise<void> {
      heard(event);
      await notifyWebsiteChange(store.db, { ...event, from: self });
    },
    /** Reads the directory and listens for changes (close the subscriptions on stop). */
    async start(): Promise<Subscription[]> {
      const onReconnect = () => {
        cache.clear();
        directory.load().catch((error: unknown) => deps.logger.warn({ err: error }, 'widget ids not read'));
      };
      const subscriptions = [
        await store.db.listen(
          WEBSITE_CHANNEL,
          (payload) => {
            const event = parse(payload);
            if (isWebsiteEvent(event) && event.from !== self) heard(event);
          },
          { onReconnect },
        ),
        // A business renamed, suspended or given another review site address.
        await store.db.listen(
          KEY_CHANNEL,
          (payload) => {
            const event = parse(payload) as { kind?: unknown; id?: unknown } | undefined;
            if (event?.kind === 'business' && typeof event.id === 'number') cache.drop(event.id);
          },
          { onReconnect },
        ),
      ];
      await directory.load();
      return subscriptions;
    },
    /** What the bounds' tests and the metrics read. */
    stats: () => ({
      entries: cache.size(),
      bytes: cache.bytes(),
      /** Entries built from the database since the start: a view served from memory builds none. */
      builds,
      ids: directory.size(),
      lookups: directory.lookups(),
    }),
  };
}

function parse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}
