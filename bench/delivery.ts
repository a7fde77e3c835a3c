import path from 'node:path';
import { type FakeTwilio, startFakeTwilio, twilioSettings } from '../test/support/fake-twilio.ts';
import { type LoadSpec, runLoad } from './lib/load.ts';
import { ENTRIES, runCli, type Server, startServer, tempDir } from './lib/processes.ts';
import type { Section, Table, Target } from './lib/report.ts';
import { sendRequest } from './service.ts';

// Benchmark: delivery through Twilio. The API (SMS_PROVIDER=twilio) sends to the stand-in Twilio
// of the test support, a real HTTP server in this process speaking the Messages API: sends per
// second over HTTP (each send: reserve in a transaction, the Twilio call with no transaction open,
// then the outcome and the leg recorded), and signed status callbacks per second through
// POST /webhooks/twilio/status (signature check, one forward-only update each).

export type DeliveryOptions = { quick: boolean; cpuProfDir?: string };

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * `request` at 10, then 50 connections for `seconds` each: a row per load (connections, rate,
 * p50, p99, the API's CPU per answer, what `made` counted meanwhile if given, errors) and the best
 * rate.
 */
async function atEachLoad(
  server: Server,
  seconds: number,
  request: LoadSpec['request'],
  made?: () => number,
): Promise<{ rows: Table['rows']; best: number }> {
  const rows: Table['rows'] = [];
  let best = 0;
  for (const connections of [10, 50]) {
    const before = { cpu: server.cpuMs(), made: made?.() ?? 0 };
    const result = await runLoad({ url: server.url, connections, seconds, request });
    const cpu = ((server.cpuMs() - before.cpu) * 1000) / Math.max(1, result.ok);
    best = Math.max(best, result.rps);
    rows.push([
      String(connections),
      Math.round(result.rps),
      round(result.p50),
      round(result.p99),
      Math.round(cpu),
      ...(made ? [made() - before.made] : []),
      String(result.failed),
    ]);
  }
  return { rows, best };
}

export async function deliveryBenchmark(options: DeliveryOptions): Promise<Section> {
  const temp = tempDir('rd-bench-delivery-');
  // Receipts are measured apart (below), not mixed into the sends.
  const fake: FakeTwilio = await startFakeTwilio({ receipts: [] });
  let api: Server | undefined;
  try {
    const db = path.join(temp.dir, 'api.db');
    const env = { DATABASE_PATH: db };
    await runCli(
      'api',
      ['business', 'create', 'bench', 'Bench Co', '--review-url', 'https://example.com/r'],
      {
        env,
      },
    );
    const out = await runCli(
      'api',
      ['key', 'create', '--business', 'bench', '--scopes', 'review_requests:write,review_requests:read'],
      { env },
    );
    const key = out.trim().split('\n').at(-1)!.trim();
    api = await startServer('api', ENTRIES.api, {
      ...(options.cpuProfDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] } : {}),
      logFile: path.join(temp.dir, 'api.log'),
      env: {
        DATABASE_PATH: db,
        FREQUENCY_CAP_DAYS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        MONTHLY_SEND_ALLOWANCE: '0',
        QUIET_HOURS: 'off',
        ...twilioSettings(fake),
        LOG_LEVEL: 'info',
      },
    });
    const server = api;
    const seconds = options.quick ? 3 : 8;
    const targets: Target[] = [];

    // Sends through Twilio.
    const sends = await atEachLoad(server, seconds, sendRequest(key, server.url), () => fake.messages.length);
    targets.push({
      name: 'sends per second through Twilio (the stand-in, over HTTP)',
      target: '≥ 500/s',
      measured: `${Math.round(sends.best).toLocaleString('en-US')}/s`,
      met: sends.best >= 500,
    });

    // Status callbacks: each message's `sent` then `delivered`, signed as Twilio signs them.
    const callbackUrl = `${server.url}/webhooks/twilio/status`;
    const sids = fake.messages.filter((m) => m.answered === 201).map((m) => m.sid);
    const statuses = ['sent', 'delivered'] as const;
    let next = 0;
    const callbacks = await atEachLoad(server, seconds, {
      method: 'POST',
      path: '/webhooks/twilio/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      setupRequest: (request) => {
        const i = next++;
        const sid = sids[Math.floor(i / 2) % sids.length] as string;
        const params = {
          AccountSid: fake.accountSid,
          ApiVersion: '2010-04-01',
          MessageSid: sid,
          SmsSid: sid,
          MessageStatus: statuses[i % 2] as string,
          SmsStatus: statuses[i % 2] as string,
          To: '+14155550100',
          From: '+15005550006',
        };
        return {
          ...request,
          headers: { ...request.headers, 'x-twilio-signature': fake.sign(callbackUrl, params) },
          body: new URLSearchParams(params).toString(),
        };
      },
    });
    targets.push({
      name: 'Twilio status callbacks per second (signed, over HTTP)',
      target: '≥ 2,000/s',
      measured: `${Math.round(callbacks.best).toLocaleString('en-US')}/s`,
      met: callbacks.best >= 2000,
    });

    return {
      name: 'Delivery through Twilio',
      tables: [
        {
          title: `POST /api/v1/requests/send with SMS_PROVIDER=twilio, ${seconds} s per row`,
          note: 'Each send: validation, phone check, the reservation in one transaction, the Twilio call (none open across it), then the outcome, the outbox row and the leg.',
          columns: ['conns', 'sends/s', 'p50 ms', 'p99 ms', 'API CPU µs/send', 'Twilio creates', 'errors'],
          rows: sends.rows,
        },
        {
          title: `POST /webhooks/twilio/status, ${seconds} s per row (each message's sent, then delivered)`,
          note: 'Each callback: form parse, X-Twilio-Signature over PUBLIC_ORIGIN + path (the twilio package), one forward-only UPDATE.',
          columns: ['conns', 'callbacks/s', 'p50 ms', 'p99 ms', 'API CPU µs/callback', 'errors'],
          rows: callbacks.rows,
        },
      ],
      targets,
      notes: [
        'The stand-in Twilio and the load generator run in the benchmark process, on the same two cores as the API.',
        'API: LOG_LEVEL=info (stdout to a file), FREQUENCY_CAP_DAYS=0, RATE_LIMIT_PER_MINUTE=0, MONTHLY_SEND_ALLOWANCE=0, QUIET_HOURS=off.',
      ],
    };
  } finally {
    await api?.stop();
    await fake.close();
    temp.cleanup();
  }
}
