// Measures GET /api/v1/reviews and /api/v1/analytics latency against a running service, one
// request at a time (so the figure is the service's, not a queue's), and prints a table.
//
//   node apps/api/scripts/list-latency.ts <baseUrl> <apiKey> [requestsPerCase]
//
// The key needs reviews:read and analytics:read and a rate limit that allows the run (or start
// the service with RATE_LIMIT_PER_MINUTE=0).

const [baseUrl, apiKey, countArg] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  process.stderr.write('usage: node apps/api/scripts/list-latency.ts <baseUrl> <apiKey> [requestsPerCase]\n');
  process.exit(2);
}
const count = Number(countArg ?? 300);

async function get(path: string): Promise<{ ms: number; body: { data: { total?: number } } }> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': apiKey! } });
  const body = (await response.json()) as { data: { total?: number } };
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const first = await get('/api/v1/reviews?limit=20');
const total = first.body.data.total ?? 0;
const lastPage = Math.max(1, Math.ceil(total / 20));
const cases: [string, string][] = [
  ['no filter, page 1', '/api/v1/reviews'],
  ['status=pending', '/api/v1/reviews?status=pending'],
  ['status=responded', '/api/v1/reviews?status=responded'],
  ['status=ignored', '/api/v1/reviews?status=ignored'],
  ['minRating=5', '/api/v1/reviews?minRating=5'],
  ['minRating=3', '/api/v1/reviews?minRating=3'],
  ['status=pending&minRating=5', '/api/v1/reviews?status=pending&minRating=5'],
  ['page=500', '/api/v1/reviews?page=500'],
  [`last page (${lastPage})`, `/api/v1/reviews?page=${lastPage}`],
  ['limit=100', '/api/v1/reviews?limit=100'],
  ['analytics days=30', '/api/v1/analytics?days=30'],
  ['analytics days=365', '/api/v1/analytics?days=365'],
];

process.stdout.write(`${baseUrl}: ${total} reviews; ${count} sequential requests per case\n\n`);
process.stdout.write(
  `${'case'.padEnd(30)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}\n`,
);
for (const [name, path] of cases) {
  for (let i = 0; i < 20; i++) await get(path); // warm-up
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push((await get(path)).ms);
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(30)} ${pct(times, 50).toFixed(2).padStart(8)} ${pct(times, 99).toFixed(2).padStart(8)} ${times.at(-1)!.toFixed(2).padStart(8)}\n`,
  );
}
