import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/processes.ts';

// The error table and the code that answers with it say the same thing: every code in the table
// is raised somewhere by the service it names, and every code the sources raise is in the table.
// (At run time, every suite that checks answers with isEnvelope parses them with the shared
// envelope schema, which accepts only the table's codes.)

type Source = { file: string; text: string };

function sources(dir: string): Source[] {
  const found: Source[] = [];
  for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.push({ file: path.relative(repoRoot, file), text: readFileSync(file, 'utf8') });
  }
  return found;
}

const SERVICE_SOURCES = {
  api: sources('apps/api/src'),
  bff: sources('apps/bff/src'),
  kit: sources('packages/server/src'),
};

/** Where a code is written as a literal (outside the table itself). */
function literalIn(list: Source[], code: string): string[] {
  const literal = new RegExp(`['"\`]${code}['"\`]`);
  return list.filter((s) => literal.test(s.text)).map((s) => s.file);
}

/** The codes a source raises: the code argument of AppError, fail and the send's answer helpers. */
const RAISED = /\b(?:(?:AppError|fail|json|replaced)\(\s*|unknown\(\s*\d+,\s*)'([a-z][a-z0-9_]*)'/g;

describe('error codes', () => {
  it('every code in the table is raised by the service it names', () => {
    const missing: string[] = [];
    for (const code of ERROR_CODE_NAMES) {
      const { from } = ERROR_CODES[code];
      const kit = literalIn(SERVICE_SOURCES.kit, code);
      const api = literalIn(SERVICE_SOURCES.api, code);
      const bff = literalIn(SERVICE_SOURCES.bff, code);
      const raisedBy = {
        api: kit.length > 0 || api.length > 0,
        bff: kit.length > 0 || bff.length > 0,
      };
      const ok = from === 'both' ? raisedBy.api && raisedBy.bff : raisedBy[from];
      if (!ok) missing.push(`${code} (from ${from})`);
    }
    expect(missing, 'codes in the table that no source raises').toEqual([]);
  });

  it('every code the sources raise is in the table', () => {
    const unknown: string[] = [];
    for (const source of Object.values(SERVICE_SOURCES).flat()) {
      for (const match of source.text.matchAll(RAISED)) {
        const code = match[1] as string;
        if (!Object.hasOwn(ERROR_CODES, code)) unknown.push(`${source.file}: ${code}`);
      }
    }
    expect(unknown, 'codes raised but missing from the table').toEqual([]);
  });

  it('the scan finds what it looks for', () => {
    // Guards the scan itself: a pattern that matched nothing would pass the test above.
    const raised = new Set(
      Object.values(SERVICE_SOURCES)
        .flat()
        .flatMap((s) => [...s.text.matchAll(RAISED)].map((m) => m[1] as ErrorCode)),
    );
    for (const code of ['key_missing', 'session_expired', 'upstream_timeout', 'internal'] as const) {
      expect(raised, code).toContain(code);
    }
  });
});
