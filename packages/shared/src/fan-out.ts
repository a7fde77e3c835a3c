// A bounded-parallel fan-out: at most `limit` calls at once, answers in the input's order, and a
// call that throws becomes that item's error instead of failing the whole (one location's
// upstream down must not hide the others).

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function mapBounded<I, T>(
  items: readonly I[],
  limit: number,
  fn: (item: I, index: number) => Promise<T>,
): Promise<Settled<T>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number ≥ 1');
  const results: Settled<T>[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await fn(items[index] as I, index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
