import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultBehaviour,
  type FakeUpstream,
  startFakeUpstream,
} from '../../../test/support/fault-upstream.ts';
import { startBff, type TestBff } from './support/bff.ts';

// The send's upstream connection (docs/decisions/0008-bff-send-forwarding.md): kept alive between
// sends that follow each other, never reused once it has been idle for more than a second.

let upstream: FakeUpstream;
let bff: TestBff;
const ports: number[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.behaveOn('/api/v1/requests/send', (req, res, socket) => {
    ports.push(socket.remotePort ?? 0);
    defaultBehaviour(req, res, socket);
  });
  bff = await startBff(upstream.url);
});

afterAll(async () => {
  await bff?.stop();
  await upstream?.close();
});

const body = { customerName: 'Ada', customerPhone: '+14155552671', channel: 'sms' };

describe('the send connection', () => {
  it('is reused by the next send, and replaced after a second of idleness', async () => {
    const owner = await bff.owner();
    for (let i = 0; i < 3; i++) expect((await owner.send(body)).status).toBe(200);
    expect(new Set(ports).size).toBe(1);
    // Real time: the connection's idleness is timed by the socket's own timer.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await owner.send(body)).status).toBe(200);
    expect(ports).toHaveLength(4);
    expect(ports[3]).not.toBe(ports[0]);
  });
});
