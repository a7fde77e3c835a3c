// Light or dark follows the system, live, with no switch (docs/web.md, "Shell"). The first-load
// pages are drawn without Mantine's runtime, so the attribute Mantine's CSS variables key on is
// set here, at start, before the first paint; Mantine's providers (app/mantine.tsx, around the
// parts that use its components) keep it the same way.

const DARK = '(prefers-color-scheme: dark)';

export type ColorScheme = 'light' | 'dark';

export function systemColorScheme(): ColorScheme {
  return window.matchMedia(DARK).matches ? 'dark' : 'light';
}

/** Sets `data-mantine-color-scheme` on <html> now and whenever the system's scheme changes. */
export function followSystemColorScheme(root: HTMLElement = document.documentElement): void {
  const apply = () => root.setAttribute('data-mantine-color-scheme', systemColorScheme());
  apply();
  window.matchMedia(DARK).addEventListener('change', apply);
}
