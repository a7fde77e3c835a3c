import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionsOf } from './support/functions.ts';

// The shape that keeps each part readable and changeable alone, over every workspace's source
// (apps/*/src, packages/*/src, tests included):
// - no file over 300 lines (code, tests, stylesheets, SQL: each split by what it does);
// - no two modules import each other, directly or through others (type-only and dynamic imports
//   included), also across workspaces: each layer leans on the ones below it;
// - the apps never import one another, packages/shared imports nothing else of the repository,
//   and the browser's app never imports the server kit; the dashboard's features (apps/web/src/
//   features/<x>/) never import one another: what two share moves down to lib/ or components/;
// - the send reads as one line (apps/api/src/requests/send.ts): no function of its folder is over
//   60 lines;
// - one word, one meaning: no app or kit declares a type under a name the contract (packages/shared)
//   exports, the service never says "bulk" (the dashboard's list sends), and the length of a day is
//   written once (shared DAY_MS);
// - rate limits are written once: GCRA and its stores live in packages/server/src/rate/, and no
//   other source keeps a theoretical arrival time;
// - tests wait on events, not on time: every timer a test waits on says what it is — a look again
//   at a condition (`poll:`), a stand-in server's or worker's own pace (`stand-in:`), or one of at
//   most MAX_FIXED_SLEEPS sleeps that must be real time (`Real time:` and why);
// - the dashboard decides on an answer's code (and its fields), never on the words of its message:
//   those are for people, and follow the words of the pages.

const root = path.join(import.meta.dirname, '..');
const MAX_LINES = 300;
const SEND_FUNCTION_MAX_LINES = 60;
const MAX_FIXED_SLEEPS = 10;

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

  it("keeps the dashboard's features apart: none imports another", () => {
    const features = path.join('apps/web/src/features');
    const featureOf = (file: string) =>
      file.startsWith(features + path.sep) ? file.slice(features.length + 1).split(path.sep)[0] : null;
    const modules = graph();
    const inFeatures = [...modules.keys()].filter((file) => featureOf(file) !== null);
    expect(new Set(inFeatures.map(featureOf)).size).toBeGreaterThan(5);
    const crossings = inFeatures.flatMap((file) =>
      (modules.get(file) ?? [])
        .filter((target) => featureOf(target) !== null && featureOf(target) !== featureOf(file))
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
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

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the send and its words', () => {
  it(`keeps every function of the send's folder within ${SEND_FUNCTION_MAX_LINES} lines`, () => {
    const folder = sources().filter((f) => f.startsWith(path.join('apps/api/src/requests/')) && !isTest(f));
    const measured = folder.flatMap((file) => functionsOf(read(file)).map((fn) => ({ file, ...fn })));
    // The line itself is found and short: the measure sees the send's functions.
    expect(measured.find((fn) => fn.name === 'sendReviewRequest')?.lines).toBeLessThan(20);
    expect(functionsOf(`function long() {\n${'  a();\n'.repeat(70)}}\n`)[0]?.lines).toBe(72);
    const long = measured.filter((fn) => fn.lines > SEND_FUNCTION_MAX_LINES);
    expect(long.map(({ file, name, line, lines }) => `${file}:${line} ${name}: ${lines} lines`)).toEqual([]);
  });

  it('declares no type under a name the contract exports', () => {
    const declared = (file: string) =>
      [...read(file).matchAll(/^export (?:type|interface|class|enum) ([A-Z]\w*)/gm)].map(
        (m) => m[1] as string,
      );
    const contract = new Set(
      sources()
        .filter((f) => f.startsWith('packages/shared/') && !isTest(f))
        .flatMap(declared),
    );
    expect(contract.has('RequestStatus') && contract.has('SendOutcome')).toBe(true);
    const again = sources()
      .filter((f) => !f.startsWith('packages/shared/') && !isTest(f))
      .flatMap((file) =>
        declared(file)
          .filter((name) => contract.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(again).toEqual([]);
  });

  it('says "bulk" only of the dashboard\'s list sends, never in the service', () => {
    const api = files().filter((f) => f.startsWith('apps/api/'));
    expect(api.length).toBeGreaterThan(50);
    expect(api.filter((file) => /bulk/i.test(read(file)))).toEqual([]);
  });

  it('writes the length of a day once', () => {
    const written = sources()
      .filter((f) => !isTest(f) && f !== path.join('packages/shared/src/time.ts'))
      .filter((file) => /\b86_?400_?000\b|24 \* 60 \* 60 \* 1_?000/.test(read(file)));
    expect(written).toEqual([]);
  });

  it("counts every rate limit with the server kit's GCRA", () => {
    const own = sources().filter((f) => !isTest(f) && /\btat\b/.test(read(f)));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((f) => !f.startsWith(path.join('packages/server/src/rate/')))).toEqual([]);
  });
});

/** Test code: tests beside the code, each workspace's test/ and test-support/, the system suite, e2e/. */
function testCode(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(file);
      } else if (/\.tsx?$/.test(entry.name)) found.push(file);
    }
  };
  for (const dir of ['apps', 'packages', 'test', 'e2e']) walk(dir);
  return found.filter((f) => isTest(f) || /\.spec\.ts$/.test(f) || /(^|\/)(test|e2e|test-support)\//.test(f));
}

describe('the tests', () => {
  it(`wait on events, not on time: at most ${MAX_FIXED_SLEEPS} fixed sleeps, each saying why`, () => {
    const SLEEP = /setTimeout\(\s*(resolve|r|res|done)\s*,|\bsleep\(|waitForTimeout\(|pg_sleep\(/;
    const found = testCode().flatMap((file) => {
      const lines = read(file).split('\n');
      return lines.flatMap((line, i) => {
        if (!SLEEP.test(line)) return [];
        const said = lines.slice(Math.max(0, i - 3), i + 1).join(' ');
        const kind = /real time/i.test(said)
          ? 'fixed'
          : /\bpoll\b/i.test(said)
            ? 'poll'
            : /stand-in/i.test(said)
              ? 'stand-in'
              : 'unexplained';
        return [{ where: `${file}:${i + 1}`, kind }];
      });
    });
    expect(found.filter((f) => f.kind === 'poll').length).toBeGreaterThan(5);
    expect(found.filter((f) => f.kind === 'unexplained').map((f) => f.where)).toEqual([]);
    expect(found.filter((f) => f.kind === 'fixed').length).toBeLessThanOrEqual(MAX_FIXED_SLEEPS);
  });
});
