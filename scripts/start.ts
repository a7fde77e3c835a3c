import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensurePrivateDir, makePrivate } from '@review-desk/server/files';
import { portInUse } from '@review-desk/server/serve';
import { StartupError } from '@review-desk/server/startup-error';
import { DEMO_BUSINESS } from '@review-desk/shared';
import { ensureWebBuild } from '../apps/bff/scripts/ensure-web-build.ts';
import { connectDemoBusiness, type DemoGoogleRun, demoGoogle } from './demo-google.ts';

// `npm start`: the whole system on one machine — the Review Collection API (embedded, with demo
// data and the dev outbox), the BFF in front of it with the demo key, and three demo users.
// `npm run dev`: the same with Vite's dev server (hot reload) in front of the BFF.
// With UPSTREAM_URL and a key in the environment, only the BFF starts, against that upstream.
//
// Environment: REVIEW_DESK_DATA_DIR (./data), PORT (BFF) and API_PORT (the API) — unset: 8080 and
// 4000, or the next free port after each; a number: exactly that port (taken: one line, no
// start); `<n>+`: that port or the next free one —, VITE_PORT (5173), DEMO_PASSWORD (every demo
// user gets it; never printed), UPSTREAM_URL + UPSTREAM_API_KEY[_FILE], NODE_ENV and
// DELIVERY_PROVIDER (either of production or a real provider: no dev outbox).

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const dev = process.argv.includes('--dev');
const dataDir = path.resolve(repoRoot, env.REVIEW_DESK_DATA_DIR || 'data');
const logDir = path.join(dataDir, 'logs');
const external = Boolean(env.UPSTREAM_URL && (env.UPSTREAM_API_KEY || env.UPSTREAM_API_KEY_FILE));
/**
 * The dev outbox (its page of customers' contacts and its fault hooks) is for the demo only:
 * never with NODE_ENV=production or a real delivery provider. Set DEV_OUTBOX=1 in that
 * combination and the service refuses to start, saying why.
 */
const devOutbox =
  env.DEV_OUTBOX ||
  (env.NODE_ENV === 'production' ||
  (env.EMAIL_PROVIDER || env.DELIVERY_PROVIDER || 'outbox') !== 'outbox' ||
  (env.SMS_PROVIDER || 'outbox') !== 'outbox'
    ? '0'
    : '1');
/** The BFF's dev hooks (its outbox of alert emails, its clock) follow the demo's outbox. */
const demoHooks =
  (devOutbox === '1' || devOutbox === 'true') && !env.BFF_SMTP_URL && env.BFF_DEV_HOOKS === undefined;
const DEMO_USERS = [
  { email: 'owner@example.com', role: 'owner' },
  { email: 'manager@example.com', role: 'manager' },
  { email: 'staff@example.com', role: 'staff' },
] as const;

const ENTRIES = {
  api: path.join(repoRoot, 'apps/api/src/main.ts'),
  bff: path.join(repoRoot, 'apps/bff/src/main.ts'),
  bffCli: path.join(repoRoot, 'apps/bff/src/cli.ts'),
  vite: path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
};

type Running = { name: string; child: ChildProcess; url: string };
const running: Running[] = [];
let stopping = false;

const say = (line = '') => process.stdout.write(`${line}\n`);
const time = () => new Date().toTimeString().slice(0, 8);

/** A child's JSON log line, shortened for the console; access-log lines go to the file only. */
function consoleLine(name: string, line: string): string | null {
  let entry: { level?: number; msg?: string; [k: string]: unknown };
  try {
    entry = JSON.parse(line);
  } catch {
    return line.trim() === '' ? null : `${time()} ${name.padEnd(4)} ${line}`;
  }
  if (entry.msg === 'request' || (entry.level ?? 30) < 30) return null;
  const level = (entry.level ?? 30) >= 50 ? 'ERROR ' : (entry.level ?? 30) >= 40 ? 'warn  ' : '';
  const { level: _l, time: _t, msg, pid: _p, app: _a, service: _s, hostname: _h, ...rest } = entry;
  const detail = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  return `${time()} ${name.padEnd(4)} ${level}${msg ?? ''}${detail}`;
}

function spawnChild(
  name: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; ready: (line: string) => string | null },
): Promise<Running> {
  ensurePrivateDir(logDir, 'REVIEW_DESK_DATA_DIR');
  const logFile = path.join(logDir, `${name}.log`);
  const log: WriteStream = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  makePrivate(logFile);
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let ready = false;
    const recent: string[] = [];
    // Plain lines before the app is ready may be its refusal to start: said once, by main().
    const held: string[] = [];
    const onLine = (line: string) => {
      log.write(`${line}\n`);
      recent.push(line);
      if (recent.length > 20) recent.shift();
      if (!ready) {
        const url = options.ready(line);
        if (url) {
          ready = true;
          for (const earlier of held.splice(0)) say(`${time()} ${name.padEnd(4)} ${earlier}`);
          const entry = { name, child, url };
          running.push(entry);
          resolve(entry);
        } else if (!line.startsWith('{')) {
          if (line.trim() !== '') held.push(line);
          return;
        }
      }
      const shown = consoleLine(name, line);
      if (shown !== null) say(shown);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code, signal) => {
      log.end();
      if (!ready) {
        // An app that refuses to start says why in one plain line (a port, a folder, a setting).
        reject(
          new Error(
            held.length > 0
              ? held.join('\n')
              : `${name} stopped before it was ready (${signal ?? `exit code ${code}`}):\n${recent.join('\n')}`,
          ),
        );
        return;
      }
      if (!stopping) {
        say(
          `\n${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping Review Desk. See ${path.join(logDir, `${name}.log`)}.`,
        );
        void stopAll(1);
      }
    });
  });
}

/** The `{"msg":"listening","url":…}` line every app logs once it accepts connections. */
const listeningLine = (line: string): string | null => {
  if (!line.includes('"listening"')) return null;
  try {
    const entry = JSON.parse(line) as { msg?: string; url?: string };
    return entry.msg === 'listening' && entry.url ? entry.url : null;
  } catch {
    return null;
  }
};

/** Vite prints `Local:   http://127.0.0.1:5173/` (with colours) once it serves. */
const viteLine = (line: string): string | null => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes
  const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
  const match = /Local:\s+(http\S+)/.exec(plain);
  return match ? match[1]!.replace(/\/$/, '') : null;
};

async function stopAll(code: number): Promise<never> {
  stopping = true;
  // The BFF first, so a send it is forwarding can still get its answer from the API.
  for (const entry of [...running].reverse()) {
    if (entry.child.exitCode !== null || entry.child.signalCode !== null) continue;
    const exited = new Promise((resolve) => entry.child.once('exit', resolve));
    entry.child.kill('SIGTERM');
    const timer = setTimeout(() => entry.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  process.exit(code);
}

function runCli(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [ENTRIES.bffCli, ...args], {
    cwd: repoRoot,
    env: { ...env, BFF_DATABASE_PATH: path.join(dataDir, 'bff.db') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

/** Creates the demo users that do not exist yet; returns the passwords it generated. */
async function ensureDemoUsers(): Promise<{
  created: { email: string; role: string; password: string }[];
  existing: string[];
}> {
  const listed = await runCli(['user', 'list', '--json']);
  if (listed.code !== 0) throw new Error(`could not read the BFF's users: ${listed.stderr.trim()}`);
  const existing = new Set((JSON.parse(listed.stdout) as { email: string }[]).map((u) => u.email));
  const created: { email: string; role: string; password: string }[] = [];
  const kept: string[] = [];
  await Promise.all(
    DEMO_USERS.map(async (user) => {
      const password = env.DEMO_PASSWORD || randomBytes(12).toString('base64url');
      if (existing.has(user.email)) {
        kept.push(user.email);
        // Browser tests set DEMO_PASSWORD and must be able to sign in whatever an earlier run chose.
        if (env.DEMO_PASSWORD) {
          const reset = await runCli(['user', 'passwd', '--email', user.email], `${password}\n`);
          if (reset.code !== 0)
            throw new Error(`could not set ${user.email}'s password: ${reset.stderr.trim()}`);
        }
        return;
      }
      const added = await runCli(
        ['user', 'add', '--email', user.email, '--role', user.role],
        `${password}\n`,
      );
      if (added.code !== 0) throw new Error(`could not create ${user.email}: ${added.stderr.trim()}`);
      created.push({ ...user, password });
    }),
  );
  const order = (email: string) => DEMO_USERS.findIndex((u) => u.email === email);
  created.sort((a, b) => order(a.email) - order(b.email));
  kept.sort((a, b) => order(a) - order(b));
  return { created, existing: kept };
}

/** Whether nothing listens on the port (127.0.0.1, where the apps listen). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function withoutKeys(base: NodeJS.ProcessEnv, keys: string[]): NodeJS.ProcessEnv {
  const copy = { ...base };
  for (const key of keys) delete copy[key];
  return copy;
}

async function main(): Promise<void> {
  // SIGHUP: the terminal was closed. Without it the apps would outlive this process, still
  // holding their ports and databases.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      say('\nStopping Review Desk…');
      void stopAll(0);
    });
  }
  // Whoever read the console is gone (a closed pipe): stop the apps rather than crash and leave
  // them running unattended.
  process.stdout.on('error', () => {
    if (!stopping) void stopAll(1);
  });
  ensurePrivateDir(dataDir, 'REVIEW_DESK_DATA_DIR');
  // A port chosen by the operator that is taken stops everything before anything starts.
  for (const [variable, value] of [
    ['PORT', env.PORT],
    ['API_PORT', external ? undefined : env.API_PORT],
  ] as const) {
    if (value && /^[1-9][0-9]*$/.test(value) && !(await portIsFree(Number(value))))
      throw new StartupError(portInUse(Number(value), variable), { variable });
  }

  const web = dev ? null : ensureWebBuild();
  if (web?.status === 'unavailable')
    say(`The dashboard is not built (${web.detail}); the BFF serves a placeholder page.`);

  let upstreamEnv: NodeJS.ProcessEnv;
  let api: Running | null = null;
  let google: DemoGoogleRun | null = null;
  const keyFile = path.join(dataDir, 'demo-api-key');
  if (external) {
    upstreamEnv = {};
  } else {
    // The demo's Google is a local stand-in, unless Google itself is configured.
    const standIn =
      (devOutbox === '1' || devOutbox === 'true') && !env.GOOGLE_API_BASE && !env.GOOGLE_CLIENT_ID;
    google = standIn ? await demoGoogle(dataDir) : null;
    const apiEnv = {
      ...withoutKeys(env, ['UPSTREAM_URL', 'UPSTREAM_API_KEY', 'UPSTREAM_API_KEY_FILE', 'PORT']),
      ...(google?.env ?? {}),
      HOST: '127.0.0.1',
      SEED_DEMO: '1',
      DEV_OUTBOX: devOutbox,
      DATABASE_PATH: path.join(dataDir, 'api.db'),
      DEMO_KEY_FILE: keyFile,
      SECRETS_KEY_FILE: env.SECRETS_KEY_FILE || path.join(dataDir, 'api-secrets-key'),
    };
    api = await spawnChild('api', [ENTRIES.api], {
      // Unset: the service's own default, 4000 or the next free port.
      env: { ...apiEnv, ...(env.API_PORT ? { PORT: env.API_PORT } : {}) },
      ready: listeningLine,
    });
    if (google) await connectDemoBusiness(repoRoot, apiEnv, google);
    upstreamEnv = {
      UPSTREAM_URL: api.url,
      UPSTREAM_API_KEY_FILE: keyFile,
      BUSINESS_NAME: env.BUSINESS_NAME || DEMO_BUSINESS.name,
    };
  }

  const users = await ensureDemoUsers();
  const bff = await spawnChild('bff', [ENTRIES.bff], {
    env: {
      ...withoutKeys(env, external ? [] : ['UPSTREAM_API_KEY']),
      ...upstreamEnv,
      BFF_DATABASE_PATH: path.join(dataDir, 'bff.db'),
      // The demo's key allows 1,200 calls a minute (apps/api demo data): each user gets half.
      ...(external ? {} : { USER_RATE_LIMIT_PER_MINUTE: env.USER_RATE_LIMIT_PER_MINUTE || '600' }),
      // With the demo's outbox on and no mail server, alert emails go to the BFF's own dev outbox.
      ...(demoHooks ? { BFF_DEV_HOOKS: '1' } : {}),
    },
    ready: listeningLine,
  });

  let dashboard = bff.url;
  if (dev) {
    const vite = await spawnChild('vite', [ENTRIES.vite, '--port', env.VITE_PORT || '5173', '--strictPort'], {
      cwd: path.join(repoRoot, 'apps/web'),
      env: { ...env, BFF_URL: bff.url },
      ready: viteLine,
    });
    dashboard = vite.url;
  }

  say('');
  say(
    `Review Desk is running: ${dashboard}${dev ? '  (Vite dev server with hot reload, in front of the BFF)' : ''}`,
  );
  if (users.created.length > 0) {
    say('');
    say(
      env.DEMO_PASSWORD
        ? 'Demo users (password from DEMO_PASSWORD):'
        : 'Demo users — passwords are shown this once:',
    );
    for (const u of users.created) {
      say(`  ${u.role.padEnd(8)} ${u.email.padEnd(22)} ${env.DEMO_PASSWORD ? '' : u.password}`);
    }
  }
  if (users.existing.length > 0 && !env.DEMO_PASSWORD) {
    say('');
    say(`Existing demo users: ${users.existing.join(', ')}. Forgot a password? Reset it with`);
    say(
      `  BFF_DATABASE_PATH=${path.join(dataDir, 'bff.db')} npm run cli -w apps/bff -- user passwd --email owner@example.com`,
    );
  }
  say('');
  if (api) {
    say(`Review Collection API (embedded, demo data): ${api.url}`);
    say(`  Demo API key file: ${keyFile}`);
    if (devOutbox === '1' || devOutbox === 'true') {
      say(`  Dev outbox on: messages are kept, not delivered; see them at ${api.url}/dev/outbox.`);
      say(
        '  Its fault hooks fail an SMS to a number ending 0000 and an email to an address at fail.example.',
      );
    } else {
      say('  Dev outbox off (NODE_ENV=production or a real delivery provider).');
    }
    if (google)
      say(
        `  Google: the demo location is connected to a local stand-in for Google (${google.google.url}); its reviews reach the inbox, and replies are posted there.`,
      );
  } else {
    say(`Upstream: ${env.UPSTREAM_URL} (only the BFF was started)`);
  }
  if (demoHooks) say(`Alert emails (no BFF_SMTP_URL) are kept at ${bff.url}/dev/outbox.json, not sent.`);
  say(`Logs: ${logDir} · Press Ctrl-C to stop.`);
  say('');
}

main().catch((error: Error) => {
  say(`Review Desk could not start: ${error.message}`);
  void stopAll(1);
});
