// Loaded (node --import) into every app the test support starts, which starts it with an IPC
// channel: once the process that started it is gone — a test run stopped with Ctrl-C, killed or
// crashed — the channel closes and the app stops as on SIGTERM, instead of living on orphaned
// with its port and its database. Cluster workers talk to their primary on their own channel and
// are left to it.
import cluster from 'node:cluster';

if (process.channel && cluster.isPrimary) {
  // The channel alone never keeps the app running.
  process.channel.unref();
  process.once('disconnect', () => {
    process.kill(process.pid, 'SIGTERM');
    // An app whose shutdown hangs is ended all the same.
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
