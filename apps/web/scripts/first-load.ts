import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// Prints the gzip size of what the browser downloads (JS + CSS) to show one page on first
// load: the entry chunk, the page's lazy chunk, and everything they import statically.
// Usage: npx node apps/web/scripts/first-load.ts [page ...]   (after `vite build`)

type Chunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean; src?: string };

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;
const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;

function closure(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key]!;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

function gz(file: string): number {
  return gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
}

// Every page the build has (each is a `*-page.tsx` module, see src/app/pages.ts), or those named.
const PAGE_MODULE = /\/([a-z-]+)-page\.tsx$/;
const built = Object.keys(manifest)
  .map((key) => PAGE_MODULE.exec(key)?.[1])
  .filter((name): name is string => name !== undefined);
// The landing page has no chunk of its own: it ships inside the entry's (see vite.config.ts).
const pages =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ['reviews', ...built.filter((p) => p !== 'reviews')];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('page               JS gzip   CSS gzip      total  files');
for (const page of pages) {
  const pageKey = Object.keys(manifest).find((key) => key.endsWith(`/${page}-page.tsx`));
  // No chunk of its own: the page ships inside the entry's first-load chunk (see vite.config.ts).
  const files = [...closure(pageKey ? [entryKey, pageKey] : [entryKey])];
  const js = files.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gz(f), 0);
  const css = files.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gz(f), 0);
  console.log(
    `${page.padEnd(16)}  ${kb(js).padStart(9)}  ${kb(css).padStart(9)}  ${kb(js + css).padStart(9)}  ${files.length}`,
  );
}

if (process.env.FIRST_LOAD_FILES) {
  const pageKey = Object.keys(manifest).find((key) => key.endsWith(`/${pages[0]}-page.tsx`));
  for (const file of closure(pageKey ? [entryKey, pageKey] : [entryKey]))
    console.log(`${kb(gz(file)).padStart(9)}  ${file}`);
}
