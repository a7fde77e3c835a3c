// The service's idea of "now" for scheduled work (quiet hours, reminders, digests, job run
// times). Production reads the system clock; tests and the dev hooks use a fake one they set or
// advance, and whoever waits on the time (the job runner) is told when it moves.
// Leases (jobs.ts, instances.ts) deliberately use the system clock, not this one: moving a fake
// clock by a day must not make every live replica's lease look expired.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Subscribes to jumps of a clock that can be moved; the system clock never calls it. */
  onChange?(listener: (now: number) => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };

export class FakeClock implements Clock {
  #offsetMs = 0;
  #frozenAt: number | undefined;
  readonly #listeners = new Set<(now: number) => void>();

  /**
   * A clock that runs with the system clock from `start` (default: now), or stands still at it
   * with `frozen` (unit tests that count milliseconds).
   */
  constructor(start?: number, options: { frozen?: boolean } = {}) {
    const base = start ?? Date.now();
    if (options.frozen) this.#frozenAt = base;
    else this.#offsetMs = base - Date.now();
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offsetMs;
  }

  /** Jumps to `ms` (and keeps running from there unless frozen). */
  set(ms: number): number {
    if (!Number.isFinite(ms)) throw new RangeError('The clock takes a time in milliseconds');
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offsetMs = ms - Date.now();
    return this.#changed();
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms)) throw new RangeError('The clock advances by a number of milliseconds');
    return this.set(this.now() + ms);
  }

  onChange(listener: (now: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): number {
    const now = this.now();
    for (const listener of this.#listeners) listener(now);
    return now;
  }
}

/** The system clock, or a fake one starting at `fakeStart` when the dev hooks ask for it. */
export function createClock(options: { fake?: boolean; fakeStart?: number } = {}): Clock {
  return options.fake ? new FakeClock(options.fakeStart) : systemClock;
}

export type ClockState = { now: number; iso: string };

/**
 * What the dev hook does with a request body: `{}` reads the clock, `{ "advanceMs": 3600000 }`
 * moves it forward, `{ "set": "2030-01-01T23:00:00Z" }` or `{ "set": 1893538800000 }` jumps.
 * Throws a RangeError (the hook answers 400 with its message) for anything else.
 */
export function clockCommand(clock: FakeClock, body: unknown): ClockState {
  const input = (body ?? {}) as { advanceMs?: unknown; set?: unknown };
  if (typeof input !== 'object' || Array.isArray(input)) throw new RangeError('Send a JSON object');
  const { advanceMs, set, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new RangeError(`Unknown field ${unknown[0]}: send advanceMs or set`);
  if (advanceMs !== undefined && set !== undefined) throw new RangeError('Send advanceMs or set, not both');
  if (advanceMs !== undefined) {
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs)) {
      throw new RangeError('advanceMs must be a number of milliseconds');
    }
    clock.advance(advanceMs);
  } else if (set !== undefined) {
    const ms = typeof set === 'number' ? set : typeof set === 'string' ? Date.parse(set) : Number.NaN;
    if (!Number.isFinite(ms))
      throw new RangeError('set must be milliseconds since the epoch or an ISO 8601 time');
    clock.set(ms);
  }
  const now = clock.now();
  return { now, iso: new Date(now).toISOString() };
}

type HookRequest = { method?: string; body?: unknown };
type HookResponse = { status(code: number): HookResponse; json(body: unknown): unknown };

/**
 * An Express handler for the dev hook (mount it only when the service's dev hooks are on, e.g.
 * `app.all('/dev/clock', express.json(), clockHook(clock))`): GET reads, POST moves the clock.
 */
export function clockHook(clock: FakeClock) {
  return (req: HookRequest, res: HookResponse): void => {
    try {
      const state = clockCommand(clock, req.method === 'POST' ? req.body : {});
      res.status(200).json({ success: true, data: state });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      res.status(400).json({ success: false, error: error.message });
    }
  };
}
