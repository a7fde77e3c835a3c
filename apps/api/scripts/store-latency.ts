// In-process timings of the list and analytics paths (no HTTP), to tell database cost from
// server overhead:  node apps/api/scripts/store-latency.ts <database file or postgres:// URL> <businessSlug>
import { computeAnalytics } from '../src/analytics/compute.ts';
import { listReviews } from '../src/reviews/list.ts';
import { openStore } from '../src/store/index.ts';

const [file, slug] = process.argv.slice(2);
if (!file || !slug) {
  process.stderr.write('usage: node apps/api/scripts/store-latency.ts <database> <businessSlug>\n');
  process.exit(2);
}
const store = await openStore(
  /^postgres(ql)?:/.test(file) ? { databasePath: ':memory:', databaseUrl: file } : { databasePath: file },
);
const business = await store.businesses.bySlug(slug);
if (!business) throw new Error(`no business ${slug}`);
const total = await store.reviews.total(business.id, {});
const time = async (name: string, fn: () => Promise<unknown>, n = 300) => {
  for (let i = 0; i < 20; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  process.stdout.write(`${name.padEnd(32)} p50 ${p(0.5).padStart(8)} ms   p99 ${p(0.99).padStart(8)} ms\n`);
};
const q = (extra: object) => ({ page: 1, limit: 20, ...extra });
await time('no filter, page 1', () => listReviews(store, business.id, q({})));
await time('status=pending', () => listReviews(store, business.id, q({ status: 'pending' })));
await time('minRating=5', () => listReviews(store, business.id, q({ minRating: 5 })));
await time('minRating=3', () => listReviews(store, business.id, q({ minRating: 3 })));
await time('status=responded&minRating=5', () =>
  listReviews(store, business.id, q({ status: 'responded', minRating: 5 })),
);
await time('page=500', () => listReviews(store, business.id, q({ page: 500 })));
await time('middle page', () => listReviews(store, business.id, q({ page: Math.floor(total / 40) })), 30);
await time('last page', () => listReviews(store, business.id, q({ page: Math.ceil(total / 20) })));
await time('limit=100', () => listReviews(store, business.id, q({ limit: 100 })));
await time('analytics 30', () => computeAnalytics(store, business.id, 30, Date.now()));
await time('analytics 365', () => computeAnalytics(store, business.id, 365, Date.now()));
await store.close();
