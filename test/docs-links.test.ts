import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The documentation a newcomer reads — README.md, docs/**/*.md and the workspaces' READMEs — only
// points at things that exist: every relative link reaches a file or folder of the repository,
// every #anchor a heading of the document it names (as GitHub renders it), and every repository
// path written as code (`apps/bff/src/gates.ts`) is a file or folder that is there. The API is
// explained in the project's own words (docs/api.md), never by section numbers of another text.

const root = path.join(import.meta.dirname, '..');

function documents(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.md')) found.push(file);
    }
  };
  walk('docs');
  for (const workspace of ['apps', 'packages'])
    for (const name of readdirSync(path.join(root, workspace)))
      if (existsSync(path.join(root, workspace, name, 'README.md')))
        found.push(path.join(workspace, name, 'README.md'));
  return found;
}

/** The document's prose: fenced code blocks blanked out, line count kept. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(readFileSync(path.join(root, file), 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

type Link = { line: number; target: string };

function links(lines: string[]): Link[] {
  const found: Link[] = [];
  lines.forEach((text, index) => {
    const outsideCode = text.replace(/`[^`]*`/g, '');
    for (const match of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      found.push({ line: index + 1, target: match[1] as string });
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(outsideCode);
    if (reference) found.push({ line: index + 1, target: reference[1] as string });
  });
  return found;
}

/** The app an app's own document (docs/api.md, docs/bff.md, docs/web.md) names its files from. */
const APP_OF: Record<string, string> = {
  'docs/api.md': 'apps/api',
  'docs/bff.md': 'apps/bff',
  'docs/web.md': 'apps/web',
};

/**
 * Paths written as code, with no placeholder or wildcard in them: from the repository's root
 * (`apps/…`, `docs/…`) anywhere, and within an app's own document also from the app or its src/
 * (`proxy/send-outcome.ts`), each as the places it may be in.
 */
function codePaths(file: string, lines: string[]): (Link & { places: string[] })[] {
  const found: (Link & { places: string[] })[] = [];
  const top = /^(apps|packages|docs|test|e2e|bench|scripts)\/[\w./-]+$/;
  const app = APP_OF[file];
  lines.forEach((text, index) => {
    for (const match of text.matchAll(/`([^`\s]+)`/g)) {
      const candidate = (match[1] as string).replace(/[.,:;]$/, '');
      if (candidate.includes('..') || /\/dist\b|\/results\/latest\.(md|json)$/.test(candidate)) continue; // built or measured
      if (top.test(candidate)) found.push({ line: index + 1, target: candidate, places: [candidate] });
      else if (app && /^[\w-]+(\/[\w.-]+)+\.(ts|tsx|css|sql)$/.test(candidate))
        found.push({
          line: index + 1,
          target: candidate,
          places: [candidate, path.join(app, candidate), path.join(app, 'src', candidate)],
        });
    }
  });
  return found;
}

function broken(): string[] {
  const problems: string[] = [];
  const headings = new Map<string, Set<string>>();
  const headingsOf = (file: string) => {
    let known = headings.get(file);
    if (!known) {
      known = anchors(file);
      headings.set(file, known);
    }
    return known;
  };
  for (const file of documents()) {
    const lines = prose(readFileSync(path.join(root, file), 'utf8'));
    for (const { line, target } of links(lines)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [address = '', anchor] = target.split('#');
      const destination = address === '' ? file : path.join(path.dirname(file), decodeURIComponent(address));
      const where = `${file}:${line} → ${target}`;
      if (path.relative(root, path.join(root, destination)).startsWith('..')) {
        problems.push(`${where}: outside the repository`);
        continue;
      }
      if (!existsSync(path.join(root, destination))) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!destination.endsWith('.md') || statSync(path.join(root, destination)).isDirectory()) continue;
      if (!headingsOf(destination).has(anchor)) problems.push(`${where}: no such heading in ${destination}`);
    }
    for (const { line, target, places } of codePaths(file, lines))
      if (!places.some((place) => existsSync(path.join(root, place))))
        problems.push(`${file}:${line} → \`${target}\`: no such file`);
  }
  return problems;
}

/**
 * Lines that cite numbered sections (§) of a document outside the repository instead of saying it
 * in the project's words and linking docs/api.md.
 */
function outsideReferences(): string[] {
  const cited = /§\s?\d/;
  return documents().flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => (cited.test(text) ? [`${file}:${index + 1}: ${text.trim()}`] : [])),
  );
}

describe('the documentation', () => {
  it('computes a heading’s anchor as GitHub does', () => {
    const headings: Record<string, string> = {
      'Choices where the API is silent': 'choices-where-the-api-is-silent',
      '8. Bounded memory and one set of gates': '8-bounded-memory-and-one-set-of-gates',
      '`npm start` — what it runs': 'npm-start--what-it-runs',
      'The [BFF](docs/bff.md) (apps/bff)': 'the-bff-appsbff',
      "The send's answer": 'the-sends-answer',
    };
    expect(Object.keys(headings).map(slug)).toEqual(Object.values(headings));
  });

  it('links only to files, folders and headings that exist', () => {
    expect(documents().length).toBeGreaterThan(10);
    expect(broken()).toEqual([]);
  });

  it('gives every decision record its title, then its status and date', () => {
    const records = readdirSync(path.join(root, 'docs/decisions')).filter((name) => name !== 'README.md');
    expect(records.length).toBeGreaterThan(10);
    const unmarked = records.filter((name) => {
      const [title, blank, status] = readFileSync(path.join(root, 'docs/decisions', name), 'utf8').split(
        '\n',
      );
      return !(
        title?.startsWith('# ') &&
        blank === '' &&
        /^Status: (accepted|superseded by \d{4}) · \d{4}-\d{2}-\d{2}$/.test(status ?? '')
      );
    });
    expect(unmarked).toEqual([]);
  });

  it('explains the API in its own words (docs/api.md), citing no section of an outside document', () => {
    expect(outsideReferences()).toEqual([]);
  });
});
