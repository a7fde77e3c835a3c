import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { tempDir } from '../../../test/support/processes.ts';
import { waitFor } from '../../../test/support/stack.ts';
import { LOGGED_PATH_MAX } from '../src/http/context.ts';
import { startBff, type TestBff } from './support/bff.ts';
import { raw } from './support/client.ts';

// Serving the dashboard's build: cache rules, client-route fallback, the placeholder, security
// headers; and the operational endpoints.

let upstream: FakeUpstream;
let built: TestBff;
let unbuilt: TestBff;
let dotted: TestBff;
const dist = tempDir('bff-dist-');
// The project may live under a dot-directory (~/.local/share/…) and a folder with a space.
const dottedDist = path.join(dist.dir, '.local share', 'review desk', 'dist');
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  mkdirSync(path.join(dist.dir, 'assets'));
  writeFileSync(path.join(dist.dir, 'index.html'), INDEX);
  writeFileSync(path.join(dist.dir, 'assets', 'index-Ab12Cd.js'), SCRIPT);
  writeFileSync(path.join(dist.dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // Dot-files inside the build are never served.
  writeFileSync(path.join(dist.dir, '.env'), 'SECRET=1');
  mkdirSync(path.join(dist.dir, 'assets', '.cache'));
  writeFileSync(path.join(dist.dir, 'assets', '.cache', 'x.js'), 'secret();');
  mkdirSync(path.join(dottedDist, 'assets'), { recursive: true });
  writeFileSync(path.join(dottedDist, 'index.html'), INDEX);
  writeFileSync(path.join(dottedDist, 'assets', 'index-Ab12Cd.js'), SCRIPT);
  // A build may link to its files (a store of builds, a deploy tool).
  symlinkSync(
    path.join(dottedDist, 'assets', 'index-Ab12Cd.js'),
    path.join(dottedDist, 'assets', 'linked-Ef34.js'),
  );
  upstream = await startFakeUpstream();
  [built, unbuilt, dotted] = await Promise.all([
    startBff(upstream.url, { WEB_DIST_DIR: dist.dir }),
    startBff(upstream.url),
    startBff(upstream.url, { WEB_DIST_DIR: dottedDist }),
  ]);
});

afterAll(async () => {
  await Promise.all([built?.stop(), unbuilt?.stop(), dotted?.stop()]);
  await upstream?.close();
  dist.cleanup();
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A browser navigation to each target gets the dashboard's index.html. */
async function expectDashboardAt(base: string, targets: string[]) {
  for (const target of targets) {
    const reply = await raw(base, 'GET', target, html);
    expect({ target, status: reply.status, body: reply.text }).toEqual({ target, status: 200, body: INDEX });
  }
}

describe('the dashboard build', () => {
  it('serves index.html with no-cache and a strict CSP that allows no inline script', async () => {
    const reply = await raw(built.url, 'GET', '/', html);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(INDEX);
    expect(reply.headers['cache-control']).toBe('no-cache');
    const csp = String(reply.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src '))!;
    expect(scriptSrc.trim()).toBe("script-src 'self'");
    const styleSrc = csp.split(';').find((d) => d.trim().startsWith('style-src '))!;
    expect(styleSrc.trim()).toBe("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers client routes with index.html for navigations', async () => {
    await expectDashboardAt(built.url, ['/reviews', '/send?channel=sms', '/analytics/30']);
    for (const target of ['/api/v1/nothing', '/auth/nothing', '/bff/nothing', '/dev/nothing']) {
      const reply = await raw(built.url, 'GET', target, html);
      expect({ target, status: reply.status }).toEqual({ target, status: 404 });
      expect(JSON.parse(reply.text)).toEqual({ success: false, error: 'Not found.', code: 'not_found' });
    }
    const post = await raw(
      built.url,
      'POST',
      '/reviews',
      { ...html, 'content-type': 'application/json', origin: built.url },
      '{}',
    );
    expect(post.status).toBe(404);
  });

  it('serves / and the dashboard’s pages to any GET, as static hosts do; unknown API paths and files stay JSON 404s', async () => {
    // curl and scripts send no Accept: text/html.
    for (const target of ['/', '/reviews', '/l/alpha/send?channel=sms', '/users']) {
      for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Record<
        string,
        string
      >[]) {
        const reply = await raw(built.url, 'GET', target, headers);
        expect({ target, headers, status: reply.status, body: reply.text }).toEqual({
          target,
          headers,
          status: 200,
          body: INDEX,
        });
      }
    }
    expect((await raw(built.url, 'HEAD', '/reviews')).status).toBe(200);
    for (const target of [
      '/api/v1/nothing',
      '/bff/nothing',
      '/auth/nothing',
      '/favicon.ico',
      '/robots.txt',
    ]) {
      const reply = await raw(built.url, 'GET', target);
      expect({ target, status: reply.status }).toEqual({ target, status: 404 });
      expect(JSON.parse(reply.text)).toMatchObject({ success: false, code: 'not_found' });
    }
  });

  it('caches hashed assets for a year as immutable, compressed', async () => {
    const reply = await raw(built.url, 'GET', '/assets/index-Ab12Cd.js', { 'accept-encoding': 'gzip' });
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(reply.headers['content-encoding']).toBe('gzip');
    const missing = await raw(built.url, 'GET', '/assets/index-Zz99.js', html);
    expect(missing.status).toBe(404);
    const favicon = await raw(built.url, 'GET', '/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('sends each asset compressed once: gzip at once, brotli once made in the background, byte for byte', async () => {
    const decoded = async (encoding: string) => {
      const response = await fetch(`${built.url}/assets/index-Ab12Cd.js`, {
        headers: { 'accept-encoding': encoding },
      });
      return {
        encoding: response.headers.get('content-encoding'),
        type: response.headers.get('content-type'),
        cache: response.headers.get('cache-control'),
        body: await response.text(), // fetch decodes gzip and brotli
      };
    };
    const expected = {
      type: 'text/javascript; charset=utf-8',
      cache: 'public, max-age=31536000, immutable',
      body: SCRIPT,
    };
    expect(await decoded('gzip, br;q=0')).toEqual({ ...expected, encoding: 'gzip' });
    let best = await decoded('gzip, deflate, br');
    for (let i = 0; i < 100 && best.encoding !== 'br'; i++) {
      expect(best).toEqual({ ...expected, encoding: 'gzip' });
      await new Promise((resolve) => setTimeout(resolve, 50)); // poll: a look again at the encoding
      best = await decoded('gzip, deflate, br');
    }
    expect(best).toEqual({ ...expected, encoding: 'br' });
    expect(await decoded('identity')).toMatchObject({ encoding: null, body: SCRIPT, cache: expected.cache });
    const head = await raw(built.url, 'HEAD', '/assets/index-Ab12Cd.js', { 'accept-encoding': 'br' });
    expect([head.status, head.headers['content-encoding'], head.text]).toEqual([200, 'br', '']);
  });

  it('serves the dashboard from a build under a dot-directory whose path has a space', async () => {
    await expectDashboardAt(dotted.url, ['/', '/reviews', '/send?channel=sms']);
    for (const [name, encoding] of [
      ['index-Ab12Cd.js', 'identity'],
      ['index-Ab12Cd.js', 'gzip'],
      ['linked-Ef34.js', 'identity'],
    ] as const) {
      const asset = await raw(dotted.url, 'GET', `/assets/${name}`, { 'accept-encoding': encoding });
      expect([asset.status, asset.headers['cache-control']]).toEqual([
        200,
        'public, max-age=31536000, immutable',
      ]);
    }
  });

  it('never serves a dot-file inside the build', async () => {
    for (const target of ['/.env', '/assets/.cache/x.js', '/%2eenv']) {
      for (const headers of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        const reply = await raw(built.url, 'GET', target, headers);
        expect({ target, refused: [400, 404].includes(reply.status) }).toEqual({ target, refused: true });
        expect(reply.text).not.toContain('secret');
        expect(reply.text).not.toContain('SECRET');
      }
    }
  });

  it('serves a script-free placeholder while the web app is not built', async () => {
    const reply = await raw(unbuilt.url, 'GET', '/', html);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain('has not been built yet');
    expect(reply.text).not.toContain('<script');
    expect(reply.text).not.toContain('<style');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await raw(built.url, 'GET', '/healthz');
    expect([health.status, JSON.parse(health.text)]).toEqual([
      200,
      { success: true, data: { status: 'ok' } },
    ]);
    const ready = await raw(built.url, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text).data.checks).toEqual({ database: 'ok', upstream: 'ok' });
  });

  it('exposes request and upstream metrics by route name', async () => {
    const client = await built.owner();
    await client.get('/api/v1/reviews');
    await client.get('/api/v1/nothing');
    const metrics = await raw(built.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/bff_http_requests_total\{route="reviews",method="GET",status="200"\} 1/);
    expect(metrics.text).toMatch(
      /bff_http_requests_total\{route="api-unknown",method="GET",status="404"\} \d+/,
    );
    expect(metrics.text).toMatch(
      /bff_upstream_request_duration_seconds_count\{endpoint="reviews",status="200"\} 1/,
    );
    expect(metrics.text).toMatch(/bff_logins_total\{result="ok"\} 1/);
    expect(metrics.text).toContain('process_cpu_user_seconds_total');
  });

  it('logs a long made-up path cut short', async () => {
    const name = 'x'.repeat(8_000);
    const reply = await raw(built.url, 'GET', `/assets/${name}.js`, { 'accept-encoding': 'gzip' });
    expect(reply.status).toBe(404);
    const id = String(reply.headers['x-request-id']);
    let line: string | undefined;
    for (let i = 0; i < 40 && line === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50)); // poll: a look again at the log
      line = built.app.logs.find((l) => l.includes(id) && l.includes('"msg":"request"'));
    }
    const { path: logged } = JSON.parse(line!) as { path: string };
    const kept = `/assets/${name}`.slice(0, LOGGED_PATH_MAX);
    expect(logged).toBe(`${kept}…`);
  });

  it('logs one JSON line per request with its id, and never the query', async () => {
    const client = await built.owner();
    const reply = await client.get(`/bff/sends?contact=${encodeURIComponent('+14155552671')}`);
    const id = reply.headers.get('x-request-id')!;
    const logged = () => built.app.logs.find((l) => l.includes(id) && l.includes('"msg":"request"'));
    await waitFor(() => logged() !== undefined, 5_000, 'the request line');
    const line = logged();
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      reqId: id,
      method: 'GET',
      path: '/bff/sends',
      route: 'sends',
      status: 200,
    });
    expect(built.app.logs.join('\n')).not.toContain('4155552671');
  });
});
