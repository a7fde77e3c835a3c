import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createAccessLog, turnLines } from './log.ts';

// The access and send lines of one turn of the event loop reach the destination in one write, in
// the order they were logged, and a flush or the end hands over what is pending at once.

const recorder = () => {
  const writes: string[] = [];
  return { writes, destination: { write: (text: string) => writes.push(text) } };
};

const request = (reqId: string, status = 200) => ({
  reqId,
  method: 'POST',
  path: '/api/v1/requests/send',
  route: 'send',
  status,
  ms: 1.5,
  user: 'u1',
});

describe('the access log', () => {
  it('writes the lines of one turn in one write, in order, each a JSON line', async () => {
    const { writes, destination } = recorder();
    const access = createAccessLog(turnLines(destination), ',"service":"bff","pid":1', true);
    access.write(request('a'));
    access.send({
      reqId: 'b',
      user: 'u1',
      send: 'entry-1',
      outcome: 'sent',
      upstreamStatus: 200,
      upstreamError: undefined,
      ms: 9.3,
    });
    access.write(request('b', 201));
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    const lines = (writes[0] as string).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ reqId: 'a', status: 200, msg: 'request', service: 'bff' }),
      expect.objectContaining({ reqId: 'b', send: 'entry-1', outcome: 'sent', msg: 'send' }),
      expect.objectContaining({ reqId: 'b', status: 201, msg: 'request' }),
    ]);
    // The next turn's lines are a write of their own.
    access.write(request('c'));
    await nextTurn();
    expect(writes).toHaveLength(2);
    expect(JSON.parse(writes[1] as string)).toMatchObject({ reqId: 'c' });
  });

  it('hands over pending lines at once when drained (before a flush or the end), and only once', async () => {
    const { writes, destination } = recorder();
    const lines = turnLines(destination);
    const access = createAccessLog(lines, '', true);
    access.write(request('a'));
    lines.drain();
    expect(writes).toHaveLength(1);
    expect(JSON.parse(writes[0] as string)).toMatchObject({ reqId: 'a' });
    await nextTurn();
    expect(writes).toHaveLength(1);
  });

  it('drops the lines of a destination that has ended instead of throwing from a timer', async () => {
    const lines = turnLines({
      write: () => {
        throw new Error('SonicBoom destroyed');
      },
    });
    lines.write('{"msg":"late"}\n');
    expect(() => lines.drain()).not.toThrow();
  });
});
