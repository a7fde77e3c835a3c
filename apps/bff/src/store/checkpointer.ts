import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

// WAL checkpoints off the event loop. Every commit appends to the WAL without syncing
// (synchronous = NORMAL); a checkpoint then copies the frames into the database file and syncs the
// WAL and the file. Run by the connection that commits, as SQLite does by default, that sync lands
// on the request path: under a stream of sends the WAL holds tens of megabytes of unsynced frames,
// and flushing them stalled every request for tens to hundreds of milliseconds. Here a worker
// thread with its own connection checkpoints (PASSIVE: never blocking a writer) a few times a
// second, so the sync has little to flush and happens on another thread. The serving connection
// keeps its own automatic checkpoint as a backstop (store/db.ts): it is what lets SQLite restart
// the WAL from its beginning under sustained load, and by then it finds almost nothing to copy.

const EVERY_MS = 200;

export function startCheckpointer(file: string, logger: Logger): { stop(): Promise<void> } | null {
  if (file === ':memory:') return null;
  const worker = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), {
    workerData: { file, everyMs: EVERY_MS },
  });
  worker.unref();
  worker.on('error', (error) => {
    // Only the timing of checkpoints changes: the serving connection still checkpoints itself.
    logger.warn({ err: error }, 'WAL checkpointer stopped; checkpoints run on the serving connection');
  });
  return {
    stop: async () => {
      await worker.terminate();
    },
  };
}
