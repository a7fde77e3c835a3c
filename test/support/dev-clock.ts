// The clock of a process started with dev hooks on (the API's DEV_CLOCK=1, the BFF's
// BFF_DEV_HOOKS=1), moved over HTTP: POST /dev/clock with `set` (an instant) or `advanceMs`.

export type ClockMove = { set: string | number } | { advanceMs: number };

/** Moves the clock of the process at `base` (`{}` reads it); rejects unless it answers 200. Its time after. */
export async function moveDevClock(base: string, move: ClockMove | Record<string, never>): Promise<number> {
  const reply = await fetch(`${base}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(move),
  });
  if (reply.status !== 200)
    throw new Error(`${base}/dev/clock answered ${reply.status}: ${await reply.text()}`);
  return ((await reply.json()) as { data: { now: number } }).data.now;
}

/**
 * Runs the due jobs of the process at `base` (POST /dev/jobs), and what they lead to, until none
 * is left; resolves with how many ran. After it, what has not happened in that process will not
 * happen until the clock moves again.
 */
export async function drainDevJobs(base: string): Promise<number> {
  const reply = await fetch(`${base}/dev/jobs`, { method: 'POST' });
  if (reply.status !== 200)
    throw new Error(`${base}/dev/jobs answered ${reply.status}: ${await reply.text()}`);
  return ((await reply.json()) as { data: { ran: number } }).data.ran;
}
