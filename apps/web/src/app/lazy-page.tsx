import { type ComponentType, lazy } from 'react';

/** What every page receives: its name from the table of pages (app/pages.ts). */
export type PageProps = { title: string };

export type PageModule = { default: ComponentType<PageProps> };

export type LazyPage = ComponentType<PageProps> & {
  /** Starts (once) fetching the page's chunk; resolves when its module is ready. */
  preload(): Promise<PageModule>;
};

/**
 * A page in its own chunk that can be fetched ahead of being shown. Once the module has arrived
 * the page renders directly: a React.lazy component always suspends on its first render, and
 * after showing a Suspense fallback React holds the content back until 300 ms after the fallback
 * appeared (its fallback throttle) — more than the whole first-row budget. Before the module has
 * arrived it is an ordinary React.lazy page.
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType<PageProps> | undefined;
  let pending: Promise<PageModule> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A chunk that failed to load (network, deploy) is fetched again next time.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Page(props: PageProps) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Page, { preload });
}
