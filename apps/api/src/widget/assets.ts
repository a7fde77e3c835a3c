import { readFileSync } from 'node:fs';
import { WIDGET_REVIEWS_FIRST } from '@review-desk/shared';
import { type Representation, represent } from './representation.ts';

// The widget's script and stylesheet, read once when the service starts. Nothing is built: the
// script is written as browsers run it (script/widget.js, one file, no imports); the service only
// puts the stylesheet (whitespace folded) and the shared constants in their places, and keeps the
// result, gzipped, with its ETag. docs/widget.md says why.

const read = (name: string) => readFileSync(new URL(`./script/${name}`, import.meta.url), 'utf8');

/** The stylesheet as served: comments dropped and whitespace folded. */
export function foldCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

/** The script with what the service puts in: the stylesheet, and how many reviews show first. */
export function scriptText(script: string, css: string): string {
  const places = {
    "const STYLESHEET = '';": `const STYLESHEET = ${JSON.stringify(css)};`,
    'const FIRST = 5;': `const FIRST = ${WIDGET_REVIEWS_FIRST};`,
  };
  let text = script;
  for (const [place, value] of Object.entries(places)) {
    if (!text.includes(place)) throw new Error(`widget.js has no \`${place}\` to fill in`);
    text = text.replace(place, () => value);
  }
  return text;
}

export type WidgetAssets = { script: Representation; style: Representation };

export function loadWidgetAssets(): WidgetAssets {
  const css = foldCss(read('widget.css'));
  return {
    script: represent(scriptText(read('widget.js'), css), 'text/javascript; charset=utf-8'),
    style: represent(css, 'text/css; charset=utf-8'),
  };
}
