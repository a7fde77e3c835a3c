import type { Plugin } from 'vite';

// How the dashboard's code is cut into files. Left to itself the bundler makes one file per set
// of pages sharing a module: some thirty for the first load, and as many again for a page of
// Mantine forms. A browser fetches at most six at a time from one HTTP/1.1 origin, so such a
// load arrives in waves, each waiting on the last (docs/decisions/0004-web-first-load.md). The
// groups below are read from the module graph once it is built (buildEnd), before chunking:
//
// - first-load: everything the first paint of the landing page needs — the entry's static
//   imports and the Reviews page's (`/` and every sign-in lead there);
// - mantine: Mantine's runtime and the components most pages draw with, with MantineScope: the
//   pages and parts that use Mantine load it, the first load does not;
// - mantine-overlays: its dialogs, drawers, menus, popovers and tooltips (floating-ui, focus
//   trap, scroll lock), loaded with the first page or part that opens one.
//
// A package index that re-exports everything (Mantine's) is not followed whole, only to the
// modules of the names imported from it: otherwise every component some page uses would join.

type Graph = {
  getModuleIds(): IterableIterator<string>;
  getModuleInfo(id: string): { importedIds: readonly string[]; code: string | null } | null;
};

const ENTRY = /[\\/]src[\\/]main\.tsx$/;
const FIRST_LOAD_ROOTS = [ENTRY, /[\\/]features[\\/]reviews[\\/]components[\\/]reviews-page\.tsx$/];

/** Mantine's components that most pages with Mantine draw with (a page imports the others). */
const MANTINE_COMMON = [
  'MantineProvider',
  'ActionIcon',
  'Alert',
  'Anchor',
  'Badge',
  'Button',
  'Center',
  'CloseButton',
  'Group',
  'Loader',
  'NativeSelect',
  'Paper',
  'Skeleton',
  'Stack',
  'Text',
  'TextInput',
  'Title',
  'UnstyledButton',
];
const MANTINE_OVERLAYS = ['Drawer', 'Menu', 'Modal', 'Popover', 'Tooltip'];
const OURS_WITH_MANTINE = /[\\/]src[\\/]app[\\/](mantine\.tsx|theme\.ts)$/;

/** Package indexes that re-export everything: followed only to the modules of the names used. */
const BARRELS =
  /[\\/]node_modules[\\/](@mantine[\\/](core|hooks)[\\/]esm|@tanstack[\\/](react-query|query-core)[\\/]build[\\/]modern)[\\/]index\.m?js$/;
const IMPORTS = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const STAR = /export\s*\*\s*from\s*["']([^"']+)["']/g;

/** The names `code` imports from `specifier` (`type` imports and aliases resolved). */
function namesFrom(code: string, specifier: (s: string) => boolean): Set<string> {
  const names = new Set<string>();
  for (const [, list, from] of code.matchAll(IMPORTS))
    if (specifier(from!))
      for (const part of list!.split(','))
        names.add((part.trim().split(/\s+as\s+/)[0] ?? '').replace(/^type\s+/, ''));
  names.delete('');
  return names;
}

/** The modules a barrel takes `names` from: its own imports of them, else its `export *` sources. */
function barrelSources(graph: Graph, barrel: string, names: Set<string>): string[] {
  const info = graph.getModuleInfo(barrel);
  const code = info?.code ?? '';
  const deps = info?.importedIds ?? [];
  const resolve = (specifier: string) =>
    specifier.startsWith('.')
      ? deps.find((id) => id.endsWith(specifier.slice(1)))
      : deps.find((id) => id.includes(`/node_modules/${specifier}/`));
  const found: string[] = [];
  const missing = new Set(names);
  for (const [, list, from] of code.matchAll(IMPORTS)) {
    const exported = list!.split(',').map(
      (part) =>
        part
          .trim()
          .split(/\s+as\s+/)
          .at(-1) ?? '',
    );
    if (!exported.some((name) => missing.has(name))) continue;
    for (const name of exported) missing.delete(name);
    const id = resolve(from!);
    if (id) found.push(id);
  }
  if (missing.size > 0)
    for (const [, from] of code.matchAll(STAR)) {
      const id = resolve(from!);
      if (id) found.push(...(BARRELS.test(id) ? barrelSources(graph, id, missing) : [id]));
    }
  return found;
}

/** The relative modules `code` re-exports without importing anything of them itself (as `/x.ts`). */
function reExportedOnly(code: string): string[] {
  const imported = new Set(
    [...code.matchAll(/(?:^|[;\s])import\b[^;'"]*?["']([^"']+)["']/g)].map((m) => m[1]!),
  );
  return [...code.matchAll(/(?:^|[;\s])export\s*(?:\*|\{[^}]*\})\s*from\s*["'](\.[^"']+)["']/g)]
    .map((m) => m[1]!)
    .filter((specifier) => !imported.has(specifier))
    .map((specifier) => specifier.slice(1));
}

/** Modules reachable from `roots` by static imports, barrels followed only to the names imported. */
function reachable(graph: Graph, roots: readonly string[], skip: (id: string) => boolean): Set<string> {
  const found = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (found.has(id) || skip(id)) continue;
    found.add(id);
    const info = graph.getModuleInfo(id);
    const passedOn = reExportedOnly(info?.code ?? '');
    for (const dep of info?.importedIds ?? []) {
      // A module only re-exported here (shared's bff.ts re-exports users.ts): the bundler puts it
      // with whoever uses it, so it is not followed.
      if (passedOn.some((suffix) => dep.endsWith(suffix))) continue;
      if (!BARRELS.test(dep)) {
        stack.push(dep);
        continue;
      }
      const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(dep)![1]!.replace(/\\/g, '/');
      const names = namesFrom(info?.code ?? '', (from) => from === pkg);
      stack.push(...barrelSources(graph, dep, names));
    }
  }
  return found;
}

/** The module of a Mantine component (or its provider) by name. */
function mantineModules(ids: readonly string[], names: readonly string[]): string[] {
  return names.flatMap((name) =>
    ids.filter((id) =>
      new RegExp(`[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/].*[\\\\/]${name}\\.mjs$`).test(id),
    ),
  );
}

const inNodeModules = (id: string) => /[\\/]node_modules[\\/]/.test(id);

export function chunkGroups() {
  const firstLoad = new Set<string>();
  const mantine = new Set<string>();
  const overlays = new Set<string>();
  const plugin: Plugin = {
    name: 'review-desk:chunk-groups',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const fill = (into: Set<string>, from: Set<string>) => {
        into.clear();
        for (const id of from) into.add(id);
      };
      fill(
        firstLoad,
        reachable(
          this,
          ids.filter((id) => FIRST_LOAD_ROOTS.some((root) => root.test(id))),
          () => false,
        ),
      );
      // Within the packages: our modules that use Mantine stay with their pages.
      const common = reachable(
        this,
        mantineModules(ids, MANTINE_COMMON),
        (id) => !inNodeModules(id) || firstLoad.has(id),
      );
      for (const id of ids) if (OURS_WITH_MANTINE.test(id)) common.add(id);
      // What the pages' other components need stays out of the overlays' file: a page with a
      // checkbox must not load the dialogs to get a helper they share.
      const overlayRoots = mantineModules(ids, MANTINE_OVERLAYS);
      const drawn = ids
        .filter((id) => !inNodeModules(id))
        .flatMap((id) => {
          const info = this.getModuleInfo(id);
          const names = namesFrom(info?.code ?? '', (from) => from === '@mantine/core');
          const barrel = info?.importedIds.find((dep) =>
            /[\\/]@mantine[\\/]core[\\/]esm[\\/]index\.mjs$/.test(dep),
          );
          return names.size > 0 && barrel ? barrelSources(this, barrel, names) : [];
        })
        .filter((id) => !overlayRoots.includes(id));
      const elsewhere = reachable(this, drawn, (id) => !inNodeModules(id) || firstLoad.has(id));
      // Mantine's own helpers (its core and hooks, not a component) that other components use go
      // with the common file: a file of a few hundred bytes is a request of its own otherwise.
      for (const id of elsewhere)
        if (/[\\/]@mantine[\\/](core[\\/]esm[\\/]core|hooks)[\\/]/.test(id)) common.add(id);
      fill(mantine, common);
      const opened = reachable(
        this,
        overlayRoots,
        (id) => !inNodeModules(id) || firstLoad.has(id) || common.has(id) || elsewhere.has(id),
      );
      fill(overlays, opened);
    },
  };
  const groups = [
    {
      name: 'first-load',
      // main.tsx itself stays the entry's own (small) file, which index.html loads.
      test: (id: string) => firstLoad.has(id) && !ENTRY.test(id),
      priority: 1,
      includeDependenciesRecursively: false,
    },
    {
      name: 'mantine',
      test: (id: string) => mantine.has(id),
      priority: 1,
      includeDependenciesRecursively: false,
    },
    {
      name: 'mantine-overlays',
      test: (id: string) => overlays.has(id),
      priority: 1,
      includeDependenciesRecursively: false,
    },
  ];
  return { plugin, groups };
}
