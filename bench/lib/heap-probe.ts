// Preloaded into a server under test (`node --expose-gc --import bench/lib/heap-probe.ts <entry>`):
// on SIGUSR2 the process collects its garbage and writes one line {"msg":"heap",…} on stdout, so a
// benchmark can read the server's live heap precisely rather than whatever garbage it holds.

const collect = (globalThis as { gc?: () => void }).gc;
process.on('SIGUSR2', () => {
  for (let i = 0; i < 3; i++) collect?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ msg: 'heap', heapUsed, rss, at: Date.now() })}\n`);
});
