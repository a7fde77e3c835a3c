import path from 'node:path';
import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { faults, startFakeUpstream } from '../test/support/fault-upstream.ts';
import { Session } from '../test/support/http.ts';
import { OWNER, startSystemApi } from '../test/support/stack.ts';
import { generateHistory } from './lib/generate.ts';
import { storeLocations } from './lib/locations.ts';
import { ENTRIES, startServer, tempDir } from './lib/processes.ts';
import type { Section } from './lib/report.ts';

// Low-rating alerts' polling cost: 50 locations (each a poll job with its own key, all on one
// real API through a counting relay), one owner subscribed so every poll reads the reviews. The
// BFF's CPU (user + system) is measured over a window at the default interval (120 s: one round
// of 50 polls, plus the job runner's look for due jobs every 5 s), and per poll at a 2-second
// interval, from which the default interval's share of a core is also projected.

const LOCATIONS = 50;
const DEFAULT_INTERVAL_S = 120;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function alertsSection(quick: boolean): Promise<Section> {
  const temp = tempDir('rd-bench-alerts-');
  const api = await startSystemApi({ RATE_LIMIT_PER_MINUTE: '1000000' });
  await generateHistory(api.cli, 'harbour', { reviews: 500, requests: 200, seed: 7 });
  const key = await api.createKey(undefined, ['--rate-limit', '1000000']);
  const relay = await startFakeUpstream();
  relay.behave(faults.relay(api.url));
  const polls = () => relay.count('/api/v1/reviews');

  const bffEnv = await storeLocations(
    temp.dir,
    Array.from({ length: LOCATIONS }, (_, i) => ({
      slug: `loc-${String(i + 1).padStart(2, '0')}`,
      name: `Location ${i + 1}`,
      key,
    })),
  );

  const run = async (intervalS: number, windowMs: number) => {
    const bff = await startServer('bff', ENTRIES.bff, {
      logFile: path.join(temp.dir, `bff-${intervalS}.log`),
      env: {
        UPSTREAM_URL: relay.url,
        UPSTREAM_API_KEY: key,
        ...bffEnv,
        WEB_DIST_DIR: path.join(temp.dir, 'no-web'),
        ALERT_POLL_SECONDS: String(intervalS),
        LOG_LEVEL: 'warn',
      },
    });
    try {
      const owner = new Session(bff.url);
      await owner.login(OWNER.email, OWNER.password);
      await owner.request('PUT', ALERT_PATHS.preferences, {
        json: { enabled: true, threshold: 2, channel: 'in_app', timeZone: 'UTC', digest: false },
      });
      // Start-up and the first (baseline) round settle before measuring.
      await sleep(5_000);
      const cpuBefore = bff.cpuMs();
      const pollsBefore = polls();
      await sleep(windowMs);
      const result = { cpuMs: bff.cpuMs() - cpuBefore, polls: polls() - pollsBefore, windowMs };
      return result;
    } finally {
      await bff.stop();
    }
  };

  try {
    // The default interval: one whole round of 50 polls falls in the window.
    const steady = await run(DEFAULT_INTERVAL_S, (DEFAULT_INTERVAL_S + 5) * 1000);
    const fast = await run(2, quick ? 20_000 : 40_000);
    const perPollMs = fast.cpuMs / Math.max(1, fast.polls);
    const steadyShare = steady.cpuMs / steady.windowMs;
    const projected = (perPollMs * LOCATIONS) / (DEFAULT_INTERVAL_S * 1000);
    const pct = (share: number) => `${(share * 100).toFixed(2)}%`;
    const target = 0.01;
    return {
      name: 'Alerts: polling 50 locations',
      tables: [
        {
          title: 'BFF CPU for low-rating alerts, 50 locations, one subscriber',
          note: 'user + system time of the BFF process; polls are reads of GET /api/v1/reviews',
          columns: ['interval', 'window', 'polls', 'CPU ms', 'share of a core', 'CPU per poll'],
          rows: [
            [
              `${DEFAULT_INTERVAL_S} s (default)`,
              `${(steady.windowMs / 1000).toFixed(0)} s`,
              String(steady.polls),
              steady.cpuMs.toFixed(0),
              pct(steadyShare),
              steady.polls > 0 ? `${(steady.cpuMs / steady.polls).toFixed(2)} ms` : '—',
            ],
            [
              '2 s',
              `${(fast.windowMs / 1000).toFixed(0)} s`,
              String(fast.polls),
              fast.cpuMs.toFixed(0),
              pct(fast.cpuMs / fast.windowMs),
              `${perPollMs.toFixed(2)} ms`,
            ],
          ],
        },
      ],
      targets: [
        {
          name: 'polling 50 locations at the default interval, share of one core (measured)',
          target: '≤ 1%',
          measured: pct(steadyShare),
          met: steadyShare <= target,
        },
        {
          name: '… projected from the CPU per poll at a 2 s interval (50 polls / 120 s)',
          target: '≤ 1%',
          measured: pct(projected),
          met: projected <= target,
        },
      ],
      notes: [
        'The measured figure is the whole BFF process: besides the polls, the job runner looking for due jobs every 5 s (one small write transaction) and the BFF’s own timers (instance heartbeat, sweeps).',
      ],
    };
  } finally {
    await relay.close();
    await api.cleanup();
    temp.cleanup();
  }
}
