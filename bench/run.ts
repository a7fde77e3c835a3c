import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { alertsSection } from './alerts.ts';
import { bulkBenchmark } from './bulk.ts';
import { bulkFloodBenchmark } from './bulk-flood.ts';
import { browserSection, bundleSection } from './dashboard.ts';
import { phoneSection } from './dashboard-phone.ts';
import { deliveryBenchmark } from './delivery.ts';
import { exportSection } from './export.ts';
import { inboxBenchmark } from './inbox.ts';
import { inboxBrowserSection } from './inbox-browser.ts';
import { tempDir } from './lib/processes.ts';
import { printTable, printTargets, type Section, writeResults } from './lib/report.ts';
import { buildDashboard, launchBrowser, startStack } from './lib/stack.ts';
import { locationsSection } from './locations.ts';
import { proxyBenchmark } from './proxy.ts';
import { serviceBenchmark } from './service.ts';
import { webhooksBenchmark } from './webhooks.ts';
import { widgetBenchmark } from './widget.ts';

// npm run bench [-- --quick] [--only proxy,service,delivery,dashboard,export,locations,bulk,alerts,webhooks,widget,inbox] [--workers N[,N…]] [--cpu-prof DIR]
//
// Runs the benchmarks one after another (never two at once: they share the machine), prints each
// table as it finishes and writes bench/results/latest.{json,md} (--quick: latest-quick.*; a run
// of some of them, --only: latest-<names>.*, so the full run's file keeps every benchmark).

const BENCHMARKS = [
  'proxy',
  'service',
  'delivery',
  'dashboard',
  'export',
  'locations',
  'bulk',
  'alerts',
  'inbox',
  'webhooks',
  'widget',
] as const;
type Name = (typeof BENCHMARKS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    workers: { type: 'string' },
    'cpu-prof': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(
    'npm run bench [-- --quick] [--only proxy,service,delivery,dashboard,export,locations,bulk,alerts,webhooks,widget,inbox] [--workers N[,N…]] [--cpu-prof DIR]',
  );
  process.exit(0);
}
const only = (values.only?.split(',').map((s) => s.trim()) ?? [...BENCHMARKS]) as Name[];
const unknown = only.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
  process.exit(2);
}
const quick = values.quick;
const started = performance.now();
const load = { before: os.loadavg(), after: [0, 0, 0] };
const sections: Section[] = [];

function report(section: Section): void {
  sections.push(section);
  console.log(`\n=== ${section.name} ===`);
  for (const table of section.tables) printTable(table);
  if (section.notes) for (const note of section.notes) console.log(`· ${note}`);
  console.log('');
  printTargets(section.targets);
}

console.log(
  `Review Desk benchmarks${quick ? ' (quick)' : ''}: ${only.join(', ')} — ${os.cpus().length} cores, Node ${process.version}, load average ${load.before.map((l) => l.toFixed(2)).join(' ')}`,
);

if (only.includes('proxy')) {
  report(
    await proxyBenchmark({
      quick,
      // Judged on one worker, the production default and, on two cores shared with the API and the
      // load generator, the faster setting; a full run measures two workers alongside.
      workers: (values.workers ?? (quick ? '1' : '1,2')).split(',').map((w) => w.trim()),
      ...(values['cpu-prof'] ? { cpuProfDir: path.resolve(values['cpu-prof']) } : {}),
    }),
  );
}
if (only.includes('service')) report(await serviceBenchmark({ quick }));
if (only.includes('bulk')) {
  report(await bulkBenchmark({ quick }));
  report(await bulkFloodBenchmark({ quick }));
}
if (only.includes('delivery'))
  report(
    await deliveryBenchmark({
      quick,
      ...(values['cpu-prof'] ? { cpuProfDir: path.resolve(values['cpu-prof']) } : {}),
    }),
  );
if (only.includes('alerts')) report(await alertsSection(quick));
if (only.includes('webhooks')) report(await webhooksBenchmark({ quick }));
if (only.includes('widget')) report(await widgetBenchmark({ quick }));
if (only.includes('inbox')) report(await inboxBenchmark({ quick }));
const inBrowser = ['dashboard', 'export', 'locations', 'inbox'] as const;
if (inBrowser.some((name) => only.includes(name))) {
  const temp = tempDir('rd-bench-web-');
  const dist = path.join(temp.dir, 'dist');
  try {
    const buildMs = await buildDashboard(dist);
    if (only.includes('dashboard')) report(bundleSection(dist, buildMs));
    if (only.includes('locations')) {
      const browser = await launchBrowser();
      try {
        report(await locationsSection(browser, dist, quick));
      } finally {
        await browser.close();
      }
    }
    if (only.includes('dashboard') || only.includes('export') || only.includes('inbox')) {
      const stack = await startStack({
        dataDir: path.join(temp.dir, 'data'),
        distDir: dist,
        password: 'bench-demo-password-2024',
      });
      const browser = await launchBrowser();
      try {
        if (only.includes('dashboard')) {
          report(await browserSection(browser, stack, quick));
          report(await phoneSection(stack, quick));
        }
        if (only.includes('export')) report(await exportSection(browser, stack, quick));
        if (only.includes('inbox')) report(await inboxBrowserSection(browser, stack, quick));
      } finally {
        await browser.close();
        await stack.stop();
      }
    }
  } finally {
    temp.cleanup();
  }
}

load.after = os.loadavg();
const seconds = (performance.now() - started) / 1000;
const file = writeResults(sections, {
  quick,
  seconds,
  load,
  ...(only.length < BENCHMARKS.length ? { only } : {}),
});
const targets = sections.flatMap((s) => s.targets);
console.log(
  `\n${targets.filter((t) => t.met).length} of ${targets.length} targets met · ${seconds.toFixed(0)} s · load average before ${load.before[0]!.toFixed(2)}, after ${load.after[0]!.toFixed(2)} · bench/results/${file}.{json,md}`,
);
