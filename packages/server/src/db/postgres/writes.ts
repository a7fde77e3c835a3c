import type { Writable } from 'node:stream';
import type pg from 'pg';

// The driver writes each protocol message of a query (Parse, Bind, Describe, Execute, Sync) with
// a write of its own, and its sockets have Nagle's algorithm off: every message is a system call
// and a TCP segment, which the server reads and answers one by one. Profiled on a send (a dozen
// statements), those writes were nearly half the service's CPU. Here the socket is corked at the
// first write of a turn of the event loop and uncorked before the next I/O: everything a turn
// asks of one connection leaves as one write. Nothing waits longer than the current turn
// (docs/decisions/0022-postgres-round-trips.md).

/** Makes every write of one turn on this client's socket go out together. */
export function coalesceWrites(client: pg.PoolClient | pg.Client): void {
  const stream = (client as unknown as { connection?: { stream?: Writable } }).connection?.stream;
  if (!stream || typeof stream.cork !== 'function') return;
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as Writable['write'];
}
