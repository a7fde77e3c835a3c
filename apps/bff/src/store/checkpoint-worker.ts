import { DatabaseSync } from 'node:sqlite';
import { workerData } from 'node:worker_threads';

// The WAL checkpointer's thread (see checkpointer.ts): its own connection copies committed WAL
// frames into the database file and syncs both, off the event loop that serves requests.

const { file, everyMs } = workerData as { file: string; everyMs: number };
// No busy wait: a checkpoint that meets another one simply tries again on the next tick.
const db = new DatabaseSync(file, { timeout: 0 });
// PASSIVE never blocks writers or readers: it backfills what it can and returns.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // Busy (another checkpoint runs) or the file is going away at shutdown: the next tick retries.
  }
}, everyMs);
