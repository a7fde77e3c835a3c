import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

// Mantine's theme variables (default-css-variables.css) are about half of every page's first-load
// stylesheet: 14 palettes of ten shades with their variants, in both schemes, and every size. The
// first load gets only the variables the dashboard's own stylesheets and components name (read
// from src/ at build time), with those they are defined from; Mantine's components, which name
// them from their props, get the whole set with Mantine (app/mantine.tsx). Five palettes the
// dashboard never draws with are left out of both; a test (test/first-load.test.ts) fails when a
// source names one of them.

export const UNUSED_PALETTES = ['pink', 'violet', 'indigo', 'cyan', 'lime'] as const;

const VARIABLE = /--mantine-[a-z0-9-]+/g;
const DECLARATION = /^\s*(--mantine-[a-z0-9-]+)\s*:[^;]*;[ \t]*\n/gm;
const LAYERED = /[\\/]@mantine[\\/]core[\\/]styles[\\/]default-css-variables\.layer\.css$/;
const WHOLE = /[\\/]@mantine[\\/]core[\\/]styles[\\/]default-css-variables\.css$/;
const BASELINE = 'node_modules/@mantine/core/styles/baseline.layer.css';

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && /\.(css|tsx?)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The declarations of `css` for `wanted` variables and, transitively, those they are made of. */
function subset(css: string, wanted: Set<string>): string {
  const definitions = new Map<string, string[]>();
  for (const match of css.matchAll(DECLARATION)) {
    const uses = definitions.get(match[1]!) ?? [];
    uses.push(...(match[0].slice(match[0].indexOf(':')).match(VARIABLE) ?? []));
    definitions.set(match[1]!, uses);
  }
  const keep = new Set<string>();
  const stack = [...wanted].filter((name) => definitions.has(name));
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (keep.has(name)) continue;
    keep.add(name);
    stack.push(...(definitions.get(name) ?? []));
  }
  return css.replace(DECLARATION, (line, name: string) => (keep.has(name) ? line : ''));
}

export function themeVariables(root: string): Plugin {
  const unused = new RegExp(`^\\s*--mantine-color-(${UNUSED_PALETTES.join('|')})-[^;]*;[ \\t]*\\n`, 'gm');
  return {
    name: 'review-desk:theme-variables',
    // Before Vite's own CSS handling, on the files main.tsx and app/mantine.tsx import.
    enforce: 'pre',
    transform(code, id) {
      if (WHOLE.test(id)) {
        // The unlayered file, wrapped in Mantine's layer as the layered one is, with every variable.
        return { code: `@layer mantine {${code.replace(unused, '')}}`, map: null };
      }
      if (!LAYERED.test(id)) return null;
      const named = new Set<string>();
      for (const file of [...sources(path.join(root, 'src')), path.join(root, '../..', BASELINE)])
        for (const name of readFileSync(file, 'utf8').match(VARIABLE) ?? []) named.add(name);
      return { code: subset(code.replace(unused, ''), named), map: null };
    },
  };
}
