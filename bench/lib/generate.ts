/** What the API's CLI makes up for a business: reviews and requests, over `days`, from `seed`. */
export type History = { reviews: number; requests: number; days?: number; seed?: number };

/** `generate` of the API's CLI (run through `cli`): a made-up history for `business`. */
export function generateHistory(
  cli: (args: string[]) => Promise<string>,
  business: string,
  history: History,
): Promise<string> {
  const { reviews, requests, days, seed } = history;
  return cli([
    'generate',
    ...['--business', business, '--reviews', String(reviews), '--requests', String(requests)],
    ...(days === undefined ? [] : ['--days', String(days)]),
    ...(seed === undefined ? [] : ['--seed', String(seed)]),
  ]);
}
