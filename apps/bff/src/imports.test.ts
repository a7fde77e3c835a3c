import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No two of the BFF's modules import each other, directly or through others (type-only imports
// included): each layer leans on the ones below it, so each can be read, tested and changed alone.

const root = path.dirname(fileURLToPath(import.meta.url));

function modules(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  for (const file of files) {
    const source = readFileSync(path.join(root, file), 'utf8');
    const imports = [...source.matchAll(/^(?:import|export)\b[^;]*?from '(\.{1,2}\/[^']+)'/gms)].map((m) =>
      path.relative(root, path.resolve(path.dirname(path.join(root, file)), m[1] as string)),
    );
    graph.set(file, imports);
  }
  return graph;
}

/** Every import loop, each as the files around it. */
function loops(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the BFF’s modules', () => {
  it('import one another without loops', () => {
    const graph = modules();
    expect(graph.size).toBeGreaterThan(30);
    expect(loops(graph).map((loop) => loop.join(' → '))).toEqual([]);
  });
});
