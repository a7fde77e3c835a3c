// The functions of a TypeScript source as the formatter lays it out (biome: two spaces a level),
// found by indentation. A function starts on a line that declares one — `function`, a method, or
// an arrow whose body is a block — and ends on the first later line that closes at the starting
// line's indentation. Its own length leaves out the functions written inside it, so a factory that
// returns its methods is measured apart from them.

export type Measured = { name: string; line: number; lines: number };

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'await', 'new', 'typeof']);
const indent = (line: string) => line.length - line.trimStart().length;

/** Whether a function's signature starts on this line, and its name. */
function declares(line: string): string | null {
  const text = line.trim();
  const named = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s*([\w$]*)/.exec(text);
  if (named) return named[1] || '(anonymous)';
  const method = /^(?:async\s+)?(?:static\s+)?(?:get\s+|set\s+)?([#\w$]+)\s*(?:<[^>]*>)?\(/.exec(text);
  if (method && !KEYWORDS.has(method[1] as string)) return method[1] as string;
  if (/=>\s*\{$/.test(text)) return /^(?:export\s+)?(?:const|let)\s+([\w$]+)/.exec(text)?.[1] ?? '(arrow)';
  return null;
}

/** The line its body opens on: the first, from `start`, ending in `{`, while its parameters run on. */
function opening(lines: string[], start: number): number | null {
  const level = indent(lines[start] as string);
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/(\)|=>|\):\s.*)\s*\{$/.test(line.trimEnd())) return i;
    if (/\{$/.test(line.trimEnd())) return null;
    const ended = i > start && line.trim() !== '' && indent(line) <= level && !/^[)}]/.test(line.trim());
    if (ended || /;$/.test(line.trimEnd())) return null;
  }
  return null;
}

export function functionsOf(source: string): Measured[] {
  const lines = source.split('\n');
  const spans: { name: string; start: number; end: number }[] = [];
  for (let start = 0; start < lines.length; start++) {
    const name = declares(lines[start] as string);
    if (name === null) continue;
    const open = opening(lines, start);
    if (open === null) continue;
    const level = indent(lines[start] as string);
    let end = open + 1;
    while (
      end < lines.length &&
      !(indent(lines[end] as string) === level && /^\}/.test((lines[end] as string).trim()))
    )
      end++;
    if (end < lines.length) spans.push({ name, start, end });
  }
  return spans.map(({ name, start, end }) => {
    const inside = spans.filter((s) => s.start > start && s.end < end);
    const direct = inside.filter((s) => !inside.some((o) => o.start < s.start && o.end > s.end));
    const nested = direct.reduce((sum, s) => sum + (s.end - s.start + 1), 0);
    return { name, line: start + 1, lines: end - start + 1 - nested };
  });
}
