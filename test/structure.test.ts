import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The shape that keeps each part readable and changeable alone, over every workspace's source
// (apps/*/src, packages/*/src, tests included):
// - no file over 300 lines (code, tests, stylesheets, SQL: each split by what it does);
// - no two modules import each other, directly or through others (type-only and dynamic imports
//   included), also across workspaces: each layer leans on the ones below it;
// - the apps never import one another, packages/shared imports nothing else of the repository,
//   and the browser's app never imports the server kit;
// - the dashboard decides on an answer's code (and its fields), never on the words of its message:
//   those are for people, and follow the words of the pages.

const root = path.join(import.meta.dirname, '..');
const MAX_LINES = 300;

/** Lines as an editor numbers them: a final newline ends the last line, it does not start one. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Every file under the workspaces' src/ folders. */
function files(): string[] {
  const found: string[] = [];
  for (const workspace of ['apps', 'packages'])
    for (const name of readdirSync(path.join(root, workspace))) {
      const src = path.join(workspace, name, 'src');
      for (const entry of readdirSync(path.join(root, src), { recursive: true, withFileTypes: true }))
        if (entry.isFile()) found.push(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
  return found;
}

/** The modules among them: TypeScript, with or without JSX. */
function sources(): string[] {
  return files().filter((file) => /\.tsx?$/.test(file));
}

/** The file an import names, as a repository path; null for a package outside the repository. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.join(path.dirname(from), specifier);
  const own = /^@review-desk\/(shared|server)(?:\/(.+))?$/.exec(specifier);
  if (!own) return null;
  const [, name, subpath] = own;
  if (subpath?.startsWith('test-support/')) return path.join('packages', name as string, `${subpath}.ts`);
  return path.join('packages', name as string, 'src', `${subpath ?? 'index'}.ts`);
}

function imports(file: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  const specifiers = [
    ...source.matchAll(/^(?:import|export)\b[^;]*?from\s+'([^']+)'/gms),
    ...source.matchAll(/^import\s+'([^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1] as string);
  return specifiers.map((s) => resolve(file, s)).filter((s): s is string => s !== null);
}

function graph(): Map<string, string[]> {
  const modules = new Map<string, string[]>();
  for (const file of sources()) modules.set(file, imports(file));
  return modules;
}

/** Every import loop, each as the files around it. */
function loops(modules: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of modules.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next) && modules.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of modules.keys()) if (!state.has(file)) visit(file);
  return found;
}

const workspace = (file: string) => file.split(path.sep).slice(0, 2).join('/');

describe('the source tree', () => {
  it(`has no file over ${MAX_LINES} lines`, () => {
    const all = files();
    expect(all.length).toBeGreaterThan(sources().length);
    const long = all
      .map((file) => ({ file, lines: lineCount(readFileSync(path.join(root, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('imports without loops, in every workspace and across them', () => {
    const modules = graph();
    const resolved = [...modules.values()].flat().filter((target) => modules.has(target));
    expect(resolved.length).toBeGreaterThan(500);
    expect(loops(modules).map((loop) => loop.join(' → '))).toEqual([]);
  });

  it('lets the dashboard decide on codes, never on the words of a message', () => {
    // A message compared, searched or matched: `error.message === '…'`, `.error.includes(…)`,
    // `/…/.test(err.message)`.
    const onWords =
      /\.(message|error)\s*(===|!==|==|!=)\s*['"`]|\.(message|error)\??\.(includes|startsWith|endsWith|match|search|indexOf)\(|\.test\(\s*[\w.?]*\.(message|error)\s*\)/;
    /** Words that are not an answer's: the browser's own, for a script that failed to load (no code). */
    const browsersOwn = new Set(['apps/web/src/app/route-error-boundary.tsx']);
    const found = sources()
      .filter((file) => file.startsWith(`apps${path.sep}web${path.sep}`) && !/\.test\.tsx?$/.test(file))
      .filter((file) => !browsersOwn.has(file.split(path.sep).join('/')))
      .flatMap((file) =>
        readFileSync(path.join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (onWords.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it('keeps the apps apart: each imports only the packages, the browser never the server kit', () => {
    const crossings = [...graph()].flatMap(([file, targets]) =>
      targets
        .filter((target) => {
          const from = workspace(file);
          const to = workspace(target);
          if (from === to || to.startsWith('test/')) return false; // the system suite's support, for tests
          if (from === 'packages/shared') return true;
          if (from === 'apps/web') return to !== 'packages/shared';
          return !to.startsWith('packages/');
        })
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });
});
