// The widgets as answered to visitors, kept in memory so a view reads no database: an entry is
// built once per change (and again after `ttlMs`, or when `fresh` says so — a new day moves the
// window), served stale while it is built again in the background, and dropped at once when what
// it shows changes. Bounded twice: at most `maxEntries` businesses and `maxBytes` of bodies, the
// least recently viewed going first. One build per business at a time, however many views wait;
// a build that a change overtook answers its waiters but is not kept.

export type CacheLimits = {
  /** Businesses kept. */
  maxEntries: number;
  /** Their bodies' bytes together. */
  maxBytes: number;
  /** After this long an entry is built again (while it is still served). */
  ttlMs: number;
};

/** A minute's staleness at most for what no notification reached; ~10,000 widgets in 64 MiB. */
export const WIDGET_CACHE_LIMITS: CacheLimits = { maxEntries: 10_000, maxBytes: 64 * 2 ** 20, ttlMs: 60_000 };

type Slot<E> = { entry: E; at: number; bytes: number };
type Build<E> = { promise: Promise<E | undefined>; overtaken: boolean };

export type ViewCache<E> = ReturnType<typeof createViewCache<E>>;

export function createViewCache<E>(options: {
  build: (key: number) => Promise<E | undefined>;
  bytes: (entry: E) => number;
  /** False when an entry describes another day than today: served once more, built again. */
  fresh?: (entry: E) => boolean;
  limits?: CacheLimits;
  /** A monotonic clock in ms. */
  now?: () => number;
  /** Hears a background build that failed (the stale entry keeps being served). */
  onError?: (error: unknown) => void;
}) {
  const limits = options.limits ?? WIDGET_CACHE_LIMITS;
  const now = options.now ?? (() => performance.now());
  const slots = new Map<number, Slot<E>>();
  const builds = new Map<number, Build<E>>();
  let bytes = 0;

  const remove = (key: number) => {
    const slot = slots.get(key);
    if (!slot) return;
    bytes -= slot.bytes;
    slots.delete(key);
  };

  function keep(key: number, entry: E): void {
    remove(key);
    const size = options.bytes(entry);
    if (size > limits.maxBytes) return; // answered, never kept
    while (slots.size > 0 && (slots.size >= limits.maxEntries || bytes + size > limits.maxBytes))
      remove(slots.keys().next().value as number);
    slots.set(key, { entry, at: now(), bytes: size });
    bytes += size;
  }

  function build(key: number): Promise<E | undefined> {
    const running = builds.get(key);
    if (running) return running.promise;
    const job: Build<E> = { overtaken: false, promise: Promise.resolve(undefined) };
    job.promise = options
      .build(key)
      .then((entry) => {
        if (!job.overtaken) {
          if (entry === undefined) remove(key);
          else keep(key, entry);
        }
        return entry;
      })
      .finally(() => {
        if (builds.get(key) === job) builds.delete(key);
      });
    builds.set(key, job);
    return job.promise;
  }

  /**
   * The entry of `key` if one is kept: fresh, or stale while it is built again in the
   * background. Undefined: nothing kept (`lookup` builds it).
   */
  function peek(key: number): E | undefined {
    const slot = slots.get(key);
    if (!slot) return undefined;
    // Most recently viewed last: the first in the map is the next to go.
    slots.delete(key);
    slots.set(key, slot);
    if (now() - slot.at > limits.ttlMs || (options.fresh && !options.fresh(slot.entry)))
      build(key).catch((error: unknown) => options.onError?.(error));
    return slot.entry;
  }

  return {
    peek,
    /** The entry of `key`: kept (see `peek`), or the build's promise (undefined: nothing to show). */
    lookup: (key: number): E | Promise<E | undefined> => peek(key) ?? build(key),
    /**
     * What `key` shows changed: never served again, nor kept from a build already running; the
     * next view waits for a build that starts after the change.
     */
    drop(key: number): void {
      remove(key);
      const running = builds.get(key);
      if (running) running.overtaken = true;
      builds.delete(key);
    },
    /** Every entry (a lost notification connection: anything may have changed). */
    clear(): void {
      slots.clear();
      bytes = 0;
      for (const running of builds.values()) running.overtaken = true;
      builds.clear();
    },
    size: () => slots.size,
    bytes: () => bytes,
  };
}
