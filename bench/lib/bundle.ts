import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// What a page of the dashboard downloads on first load, from Vite's manifest: the entry chunk,
// the page's lazy chunk and everything they import statically (JS and CSS), compressed as a
// server would send it (gzip -9, brotli 11). Plus a breakdown by package from the source maps.

type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
};
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

const entryKey = (manifest: Manifest) => {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('the manifest has no entry chunk');
  return key;
};

/** Manifest key of a lazily loaded module whose source path ends with `suffix`. */
export function chunkKeyOf(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix}`);
  return key;
}

/** Files (JS and CSS) loaded with the given chunks, following static imports only. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return [...files];
}

/** The first load of a page: the entry plus the page chunk (the router imports it lazily). */
export function firstLoadFiles(manifest: Manifest, pageModuleSuffix: string): string[] {
  return staticClosure(manifest, [entryKey(manifest), chunkKeyOf(manifest, pageModuleSuffix)]);
}

/**
 * The first load of a page. A page whose module the build put into a shared chunk (the dashboard
 * ships its landing page, /reviews, with the entry) has no chunk of its own in the manifest: its
 * code is found through the source maps, and the first load is the entry plus that chunk.
 */
export function pageFirstLoad(distDir: string, manifest: Manifest, module: string): string[] {
  if (Object.keys(manifest).some((k) => k.endsWith(`/${module}`)))
    return firstLoadFiles(manifest, `/${module}`);
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const [file, ...more] = chunksContaining(distDir, manifest, new RegExp(`/src/${escaped}$`));
  if (!file || more.length > 0) throw new Error(`no single chunk holds ${module}`);
  const keys = Object.keys(manifest).filter((k) => manifest[k]!.file === file || manifest[k]!.isEntry);
  return staticClosure(manifest, keys);
}

export type Compressed = { raw: number; gzip: number; brotli: number };

const cache = new Map<string, Compressed>();
export function compressedSize(dist: string, file: string): Compressed {
  const full = path.join(dist, file);
  const known = cache.get(full);
  if (known) return known;
  const bytes = readFileSync(full);
  const sizes = {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
  cache.set(full, sizes);
  return sizes;
}

export function sumSizes(dist: string, files: string[]): Compressed & { js: Compressed; css: Compressed } {
  const zero = (): Compressed => ({ raw: 0, gzip: 0, brotli: 0 });
  const js = zero();
  const css = zero();
  for (const file of files) {
    const s = compressedSize(dist, file);
    const into = file.endsWith('.css') ? css : js;
    into.raw += s.raw;
    into.gzip += s.gzip;
    into.brotli += s.brotli;
  }
  return { raw: js.raw + css.raw, gzip: js.gzip + css.gzip, brotli: js.brotli + css.brotli, js, css };
}

// --- Source-map attribution ------------------------------------------------------------------

const B64 = new Map(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);

/** Decodes one line's segments of a v3 source map ("mappings"), calling back per segment. */
function* segments(mappings: string): Generator<{ line: number; column: number; source: number | null }> {
  let line = 0;
  let source = 0;
  let i = 0;
  let column = 0;
  const values: number[] = [];
  while (i < mappings.length) {
    const c = mappings[i]!;
    if (c === ';') {
      line++;
      column = 0;
      i++;
      continue;
    }
    if (c === ',') {
      i++;
      continue;
    }
    values.length = 0;
    while (i < mappings.length && mappings[i] !== ',' && mappings[i] !== ';') {
      let value = 0;
      let shift = 0;
      let digit: number;
      do {
        digit = B64.get(mappings[i++]!)!;
        value += (digit & 31) << shift;
        shift += 5;
      } while (digit & 32);
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    }
    column += values[0]!;
    if (values.length >= 4) {
      source += values[1]!;
      yield { line, column, source };
    } else {
      yield { line, column, source: null };
    }
  }
}

/** Groups a source path into what a reader would call it: a package, or a folder of ours. */
export function ownerOf(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = source.slice(nm + 'node_modules/'.length).split('/');
    const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    // zod's classic API and its core are told apart: that split is what zod/mini would change.
    if (name === 'zod')
      return `zod/${rest[2] === 'core' ? 'core' : rest[2] === 'classic' ? 'classic' : rest.slice(1, 3).join('/')}`;
    return name;
  }
  const shared = source.indexOf('packages/shared/src/');
  if (shared !== -1) return `@review-desk/shared (${source.slice(shared + 20).replace(/\.ts$/, '')})`;
  const web = source.indexOf('apps/web/src/');
  if (web !== -1) {
    const parts = source.slice(web + 13).split('/');
    return `app: ${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!}`;
  }
  return source.replace(/^(\.\.\/)+/, '');
}

/**
 * Minified bytes of each owner in the given JS files, from their source maps, and a gzip share
 * estimated by scaling each file's gzip size by the owner's fraction of its bytes.
 */
export function attribute(
  dist: string,
  files: string[],
  owner: (source: string) => string = ownerOf,
): Map<string, { bytes: number; gzip: number }> {
  const out = new Map<string, { bytes: number; gzip: number }>();
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    const mapFile = path.join(dist, `${file}.map`);
    if (!existsSync(mapFile)) {
      // Bundler-generated chunks (the module runtime, the preload helper) have no map.
      const entry = out.get('(bundler glue)') ?? { bytes: 0, gzip: 0 };
      const size = compressedSize(dist, file);
      entry.bytes += size.raw;
      entry.gzip += size.gzip;
      out.set('(bundler glue)', entry);
      continue;
    }
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    const code = readFileSync(path.join(dist, file), 'utf8').split('\n');
    const perOwner = new Map<string, number>();
    let last: { line: number; column: number; owner: string } | null = null;
    const close = (line: number, column: number) => {
      if (!last) return;
      let bytes = 0;
      if (line === last.line) bytes = column - last.column;
      else {
        bytes = (code[last.line]?.length ?? 0) - last.column;
        for (let l = last.line + 1; l < line; l++) bytes += (code[l]?.length ?? 0) + 1;
        bytes += column + 1;
      }
      perOwner.set(last.owner, (perOwner.get(last.owner) ?? 0) + Math.max(0, bytes));
    };
    for (const s of segments(map.mappings)) {
      close(s.line, s.column);
      last = {
        line: s.line,
        column: s.column,
        owner: s.source === null ? '(bundler glue)' : owner(map.sources[s.source]!),
      };
    }
    close(code.length - 1, code.at(-1)?.length ?? 0);
    const total = [...perOwner.values()].reduce((a, b) => a + b, 0) || 1;
    const { gzip } = compressedSize(dist, file);
    for (const [owner, bytes] of perOwner) {
      const entry = out.get(owner) ?? { bytes: 0, gzip: 0 };
      entry.bytes += bytes;
      entry.gzip += (gzip * bytes) / total;
      out.set(owner, entry);
    }
  }
  return out;
}

/** Chunks (JS files) that contain code from a package, e.g. which chunks carry recharts. */
export function chunksContaining(dist: string, manifest: Manifest, pattern: RegExp): string[] {
  const files = new Set(Object.values(manifest).map((c) => c.file));
  return [...files].filter((file) => {
    if (!file.endsWith('.js')) return false;
    const mapFile = path.join(dist, `${file}.map`);
    if (!existsSync(mapFile)) return false;
    const { sources } = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
    return sources.some((s) => pattern.test(s));
  });
}
