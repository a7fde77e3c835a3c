// In-process timings of the list and analytics paths (no HTTP), to tell database cost from
// server overhead:  node apps/api/scripts/store-latency.ts <database> <businessSlug>
import { computeAnalytics } from '../src/domain/analytics.ts';
import { listReviews } from '../src/domain/reviews.ts';
import { openStore } from '../src/store/index.ts';

const [file, slug] = process.argv.slice(2);
if (!file || !slug) {
  process.stderr.write('usage: node apps/api/scripts/store-latency.ts <database> <businessSlug>\n');
  process.exit(2);
}
const store = openStore(file);
const business = store.businesses.bySlug(slug);
if (!business) throw new Error(`no business ${slug}`);
const total = store.reviews.total(business.id, {});
const time = (name: string, fn: () => unknown, n = 300) => {
  for (let i = 0; i < 20; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  process.stdout.write(`${name.padEnd(32)} p50 ${p(0.5).padStart(8)} ms   p99 ${p(0.99).padStart(8)} ms\n`);
};
const q = (extra: object) => ({ page: 1, limit: 20, ...extra });
time('no filter, page 1', () => listReviews(store, business.id, q({})));
time('status=pending', () => listReviews(store, business.id, q({ status: 'pending' })));
time('minRating=5', () => listReviews(store, business.id, q({ minRating: 5 })));
time('minRating=3', () => listReviews(store, business.id, q({ minRating: 3 })));
time('status=responded&minRating=5', () =>
  listReviews(store, business.id, q({ status: 'responded', minRating: 5 })),
);
time('page=500', () => listReviews(store, business.id, q({ page: 500 })));
time('middle page', () => listReviews(store, business.id, q({ page: Math.floor(total / 40) })), 30);
time('last page', () => listReviews(store, business.id, q({ page: Math.ceil(total / 20) })));
time('limit=100', () => listReviews(store, business.id, q({ limit: 100 })));
time('analytics 30', () => computeAnalytics(store, business.id, 30, Date.now()));
time('analytics 365', () => computeAnalytics(store, business.id, 365, Date.now()));
