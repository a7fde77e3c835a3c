import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_BUSINESS } from '@review-desk/shared';
import { DEMO_GOOGLE, type DemoGoogle, startDemoGoogle } from '../test/support/fake-google/demo.ts';

// `npm start`'s Google: the demo business's location connected to a local stand-in for Google's
// Business Profile API (test/support/fake-google), so its Google reviews reach the inbox and
// replies are posted somewhere real — on this machine only. Not when Google is configured
// (GOOGLE_API_BASE or GOOGLE_CLIENT_ID), nor without the demo's dev outbox.

export type DemoGoogleRun = DemoGoogle & { env: Record<string, string> };

/** Starts the stand-in and the service's settings for it. */
export async function demoGoogle(dataDir: string): Promise<DemoGoogleRun> {
  const run = await startDemoGoogle(dataDir);
  return {
    ...run,
    env: {
      GOOGLE_API_BASE: run.google.url,
      GOOGLE_TOKEN_URL: run.google.tokenUrl,
      GOOGLE_CLIENT_ID: DEMO_GOOGLE.clientId,
      GOOGLE_CLIENT_SECRET: DEMO_GOOGLE.clientSecret,
      // The demo reads its stand-in every minute (a real location: GOOGLE_SYNC_SECONDS, 900).
      GOOGLE_SYNC_SECONDS: '60',
    },
  };
}

function apiCli(
  repoRoot: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number; out: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/api/src/cli.ts'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, out })));
}

/** Connects the demo business to the stand-in's location, once (a later start keeps it). */
export async function connectDemoBusiness(
  repoRoot: string,
  env: NodeJS.ProcessEnv,
  run: DemoGoogleRun,
): Promise<void> {
  const status = await apiCli(repoRoot, env, ['google', 'status', '--business', DEMO_BUSINESS.slug]);
  if (status.code === 0 && !status.out.includes('not connected')) return;
  const connected = await apiCli(repoRoot, env, [
    'google',
    'connect',
    '--business',
    DEMO_BUSINESS.slug,
    '--account',
    DEMO_GOOGLE.accountId,
    '--location',
    DEMO_GOOGLE.locationId,
    '--refresh-token-file',
    run.refreshTokenFile,
  ]);
  if (connected.code !== 0)
    throw new Error(`could not connect the demo to the Google stand-in: ${connected.out.trim()}`);
}
