import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Table } from './report.ts';

// Where a process spends its CPU, from V8 profiles written with --cpu-prof: self time grouped
// by package, by Node's own modules, and by our source files.

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export function placeOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) {
    const name = url.slice(5).replace(/^internal\//, '');
    return `node: ${name}`;
  }
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  for (const marker of ['apps/bff/src/', 'apps/api/src/', 'packages/shared/src/', 'packages/server/src/']) {
    const at = url.indexOf(marker);
    if (at !== -1) return `${marker.split('/')[1]}: ${url.slice(at + marker.length)}`;
  }
  return url;
}

export function summariseProfiles(dir: string, title: string, top = 25): Table {
  const self = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    // A built-in (JSON.parse, a socket write…) has no script: its time belongs to whoever called it.
    const placeFor = (id: number): string => {
      let node = byId.get(id);
      while (node && !node.callFrame.url && !node.callFrame.functionName.startsWith('(')) {
        const up = parent.get(node.id);
        node = up === undefined ? undefined : byId.get(up);
      }
      return node ? placeOf(node.callFrame) : '(native)';
    };
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      if (!node) return;
      const place = placeFor(node.id);
      self.set(place, (self.get(place) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
  }
  self.delete('(idle)');
  const busy = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const rows = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([place, msSelf]) => [place, Math.round(msSelf), `${((msSelf / busy) * 100).toFixed(1)} %`]);
  return {
    title,
    note: `Self time of the ${top} busiest places; percentages of all non-idle samples (${Math.round(busy)} ms).`,
    columns: ['where', 'self ms', 'share'],
    rows,
  };
}
