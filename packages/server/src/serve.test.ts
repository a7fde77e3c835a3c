import net from 'node:net';
import { codedErrorEnvelopeSchema } from '@review-desk/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type Refusal, type Served, serve } from './serve.ts';
import { StartupError } from './startup-error.ts';

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** Holds a free port, as another program would. */
async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const held = {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  opened.push(held);
  return held;
}

async function start(options: Partial<Parameters<typeof serve>[0]> = {}): Promise<Served> {
  const served = await serve({
    handler: (_req, res) => res.end('ok'),
    port: 0,
    host: '127.0.0.1',
    portVariable: 'PORT',
    portExplicit: false,
    ...options,
  });
  opened.push(served);
  return served;
}

/** Sends raw bytes and returns the whole answer. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) =>
  codedErrorEnvelopeSchema.parse(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)));

describe('a busy port', () => {
  it('with the built-in default, moves on to the next free port and reports the one really served', async () => {
    const held = await holdPort();
    const served = await start({ port: held.port });
    expect(served.port).toBeGreaterThan(held.port);
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(await (await fetch(served.url)).text()).toBe('ok');
  });

  it('chosen by the operator, stops the start with one line naming the port and the variable', async () => {
    const held = await holdPort();
    const error = await start({ port: held.port, portExplicit: true, portVariable: 'API_PORT' }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toBe(
      `Port ${held.port} is in use (API_PORT=${held.port}): stop what uses it, or set API_PORT to another port.`,
    );
    expect(error.variable).toBe('API_PORT');
  });
});

describe('requests Node would answer by itself', () => {
  it('gets the envelope and is reported: no Host, an unknown Expect, unparsable bytes', async () => {
    const refused: Refusal[] = [];
    const served = await start({ onRefused: (r) => refused.push(r) });

    const noHost = await raw(served.port, 'GET /x HTTP/1.1\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1.1 400 /);
    expect(bodyOf(noHost).code).toBe('host_missing');
    expect(noHost.toLowerCase()).toContain('cache-control: no-store');

    const expect417 = await raw(served.port, 'GET /x HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n');
    expect(expect417).toMatch(/^HTTP\/1.1 417 /);
    expect(bodyOf(expect417).code).toBe('expectation_failed');

    const garbage = await raw(served.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400 /);
    expect(bodyOf(garbage).code).toBe('malformed_request');

    // HTTP/1.0 needs no Host; 100-continue is served as usual.
    expect(await raw(served.port, 'GET /x HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1.1 200 /);
    const continued = await raw(
      served.port,
      'POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi',
    );
    expect(continued).toContain('HTTP/1.1 200 ');

    expect(refused.map((r) => [r.status, r.code])).toEqual([
      [400, 'host_missing'],
      [417, 'expectation_failed'],
      [400, 'malformed_request'],
    ]);
    expect(refused[0]).toMatchObject({ method: 'GET', url: '/x' });
  });
});

describe('closing', () => {
  it('waits for what is in flight, up to the grace period', async () => {
    let finish: () => void = () => {};
    const arrived = Promise.withResolvers<void>();
    const served = await start({
      handler: (_req, res) => {
        finish = () => res.end('late');
        arrived.resolve();
      },
    });
    const answer = fetch(served.url).then((r) => r.text());
    await arrived.promise;
    const closed = served.close({ graceMs: 5_000 });
    setImmediate(() => finish()); // answered after the close began
    await closed;
    expect(await answer).toBe('late');
  });
});
