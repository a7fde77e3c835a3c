import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { WIDGET_REVIEWS_FIRST, WIDGET_SCRIPT_GZIP_MAX_BYTES } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { loadWidgetAssets } from './assets.ts';

// The script a business pastes into its site, as the service serves it: small, self-contained,
// and written so a strict Content-Security-Policy lets it run (docs/widget.md, "Small and fast").

const assets = loadWidgetAssets();
const served = assets.script.body.toString('utf8');
const source = readFileSync(new URL('./script/widget.js', import.meta.url), 'utf8');

describe('the widget script', () => {
  it(`is at most ${WIDGET_SCRIPT_GZIP_MAX_BYTES / 1024} KB gzipped, its stylesheet included`, () => {
    expect(assets.script.gzip.length).toBeLessThanOrEqual(WIDGET_SCRIPT_GZIP_MAX_BYTES);
    expect(served).toContain(`const STYLESHEET = ${JSON.stringify(assets.style.body.toString('utf8'))};`);
    expect(served).toContain(`const FIRST = ${WIDGET_REVIEWS_FIRST};`);
    expect(assets.style.body.toString('utf8')).toContain('.rd-list>li{');
  });

  it('is one classic script that compiles as served', () => {
    expect(() => new Script(served, { filename: 'widget/v1.js' })).not.toThrow();
    expect(source).not.toMatch(/^\s*(import|export)\b/m);
    expect(source).not.toMatch(/\bimport\s*\(/);
  });

  it('loads nothing from elsewhere and evaluates, parses or injects nothing', () => {
    // Its one request goes to the origin it was loaded from (SVG's namespace is a name, not a load).
    expect(served.replaceAll("'http://www.w3.org/2000/svg'", '')).not.toMatch(/https?:\/\//);
    expect(served).toMatch(/fetch\(`\$\{origin\}\/widget\/v1\/\$\{id\}\.json`/);
    for (const banned of [
      /\beval\s*\(/,
      /\bnew\s+Function\b/,
      /\bset(Timeout|Interval)\s*\(\s*['"`]/,
      /\.(innerHTML|outerHTML)\b/,
      /insertAdjacentHTML|document\.write|createContextualFragment|DOMParser/,
      /setAttribute\(\s*['"]style['"]/,
      /\.style\.|style:\s*['"]/,
      /\bimportScripts\b|createElement\(\s*['"]script['"]/,
      /document\.cookie|localStorage|sessionStorage/,
    ])
      expect(served, String(banned)).not.toMatch(banned);
  });
});
