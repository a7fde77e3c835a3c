import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  WIDGET_ID_PREFIX,
  WIDGET_PATHS,
  WIDGET_SCRIPT_GZIP_MAX_BYTES,
  widgetOwnerSchema,
} from '@review-desk/shared';
import { runLoad } from './lib/load.ts';
import { ENTRIES, repoRoot, type Server, startServer, tempDir } from './lib/processes.ts';
import type { Section, Table, Target } from './lib/report.ts';

// The website widget's views, served as production serves them: the service as its own process
// (logs to a file), the demo business with its consented reviews, autocannon on the same machine.
// Views per second from the service's memory: the widget's data (a first view, gzipped; a browser
// revalidating its copy: 304), the script, an id nobody issued (404). Beside each run of the data,
// the floor: a bare node:http server answering the same bytes with as many headers, measured in
// turn with the service so both meet the same machine. Then the script's size as served, gzipped.

const TARGET_VIEWS_PER_SECOND = 10_000;

type Case = { name: string; path: string; headers: Record<string, string>; status: number };

export async function widgetBenchmark(options: { quick: boolean }): Promise<Section> {
  const temp = tempDir('rd-bench-widget-');
  const keyFile = path.join(temp.dir, 'demo-key');
  const servers: Server[] = [];
  try {
    const api = await startServer('api', ENTRIES.api, {
      logFile: path.join(temp.dir, 'api.log'),
      env: {
        DATABASE_PATH: path.join(temp.dir, 'api.db'),
        SEED_DEMO: '1',
        DEMO_KEY_FILE: keyFile,
        RATE_LIMIT_PER_MINUTE: '0',
      },
      timeoutMs: 120_000,
    });
    servers.push(api);
    const key = readFileSync(keyFile, 'utf8').trim();
    const owner = await fetch(`${api.url}/api/v1/widget`, { headers: { 'x-api-key': key } });
    const widget = widgetOwnerSchema.parse(((await owner.json()) as { data: unknown }).data);
    const data = WIDGET_PATHS.data(widget.id);
    const first = await fetch(`${api.url}${data}`, { headers: { 'accept-encoding': 'gzip' } });
    const etag = first.headers.get('etag') ?? '';
    const headerCount = [...first.headers].length;
    // fetch decodes: the bytes on the wire are the gzipped body the service keeps.
    const wire = gzipSync(Buffer.from(await first.arrayBuffer()), { level: 9 });
    writeFileSync(path.join(temp.dir, 'body'), wire);
    const bare = await startServer('bare', path.join(repoRoot, 'bench/bare-bytes.ts'), {
      logFile: path.join(temp.dir, 'bare.log'),
      env: { BODY_FILE: path.join(temp.dir, 'body'), HEADERS: String(headerCount) },
    });
    servers.push(bare);

    const gzip = { 'accept-encoding': 'gzip' };
    const cases: Case[] = [
      { name: 'data, gzipped (a first view)', path: data, headers: gzip, status: 200 },
      {
        name: 'data, revalidated (304)',
        path: data,
        headers: { ...gzip, 'if-none-match': etag },
        status: 304,
      },
      { name: 'script, gzipped', path: WIDGET_PATHS.script, headers: gzip, status: 200 },
      {
        name: 'an id nobody issued (404)',
        path: WIDGET_PATHS.data(`${WIDGET_ID_PREFIX}${'Z'.repeat(22)}`),
        headers: {},
        status: 404,
      },
    ];
    const seconds = options.quick ? 5 : 15;
    const rows: Table['rows'] = [];
    let dataRate = 0;
    let floorRate = 0;
    const measure = async (server: Server, name: string, c: Case, connections: number) => {
      const cpuBefore = server.cpuMs();
      const result = await runLoad({
        url: server.url,
        connections,
        seconds,
        request: { method: 'GET', path: c.path, headers: c.headers },
        okStatus: c.status,
      });
      const cpuMs = server.cpuMs() - cpuBefore;
      rows.push([
        name,
        connections,
        Math.round(result.rps),
        result.p50,
        result.p99,
        result.ok > 0 ? Math.round((cpuMs * 1000) / result.ok) : null,
        result.failed,
      ]);
      return result.rps;
    };
    for (const connections of [10, 50]) {
      floorRate = Math.max(
        floorRate,
        await measure(bare, 'floor: bare node:http, same bytes', cases[0]!, connections),
      );
      for (const c of cases) {
        const rate = await measure(api, c.name, c, connections);
        if (c === cases[0]) dataRate = Math.max(dataRate, rate);
      }
    }

    const script = await fetch(`${api.url}${WIDGET_PATHS.script}`);
    const scriptBytes = Buffer.from(await script.arrayBuffer());
    const scriptGzip = gzipSync(scriptBytes, { level: 9 }).length;
    const targets: Target[] = [
      {
        name: 'widget data views from cache (gzipped, 200)',
        target: `≥ ${TARGET_VIEWS_PER_SECOND.toLocaleString('en-US')}/s`,
        measured: `${Math.round(dataRate).toLocaleString('en-US')}/s (bare node:http: ${Math.round(floorRate).toLocaleString('en-US')}/s)`,
        met: dataRate >= TARGET_VIEWS_PER_SECOND,
      },
      {
        name: 'widget script, gzip',
        target: `≤ ${WIDGET_SCRIPT_GZIP_MAX_BYTES / 1024} KB`,
        measured: `${(scriptGzip / 1024).toFixed(1)} KB (${(scriptBytes.length / 1024).toFixed(1)} KB raw)`,
        met: scriptGzip <= WIDGET_SCRIPT_GZIP_MAX_BYTES,
      },
    ];
    return {
      name: 'Website widget',
      tables: [
        {
          title: 'Views from the service’s memory',
          note: `The demo business's widget (${widget.preview.reviews.length} reviews, ${wire.length.toLocaleString('en-US')} bytes gzipped, ${headerCount} headers); ${seconds} s per row, keep-alive connections; the service logs to its file. CPU: the server's user + system time per answer.`,
          columns: ['Case', 'Connections', 'Views/s', 'p50 ms', 'p99 ms', 'CPU µs/view', 'Failed'],
          rows,
        },
        {
          title: 'The script as served',
          columns: ['File', 'Raw bytes', 'gzip -9 bytes', 'Limit'],
          rows: [
            [
              '/widget/v1.js (stylesheet inside)',
              scriptBytes.length,
              scriptGzip,
              WIDGET_SCRIPT_GZIP_MAX_BYTES,
            ],
          ],
        },
      ],
      targets,
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    temp.cleanup();
  }
}
