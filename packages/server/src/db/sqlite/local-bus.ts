import type { Subscription } from '../types.ts';

// Notifications inside one process, for SQLite (the engine of a single machine). Every handle
// opened on the same file in this process shares one bus, so a message reaches them all, always
// on a later turn of the event loop, as a PostgreSQL NOTIFY would. Processes that share a SQLite
// file (cluster workers, the CLI) relay messages between themselves; see docs/decisions.

type Listener = (payload: string) => void;
type Entry = { listener: Listener; onError: (error: unknown) => void };

export class LocalBus {
  readonly #channels = new Map<string, Set<Entry>>();

  /** `onError` hears what a listener threw, so one broken listener neither crashes nor silences. */
  listen(channel: string, listener: Listener, onError: (error: unknown) => void): Subscription {
    let listeners = this.#channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
    }
    // An entry per subscription, so the same function listening twice is two subscriptions.
    const entry: Entry = { listener, onError };
    listeners.add(entry);
    return {
      close: async () => {
        listeners.delete(entry);
        if (listeners.size === 0) this.#channels.delete(channel);
      },
    };
  }

  /** Delivers on a later turn; a listener that throws does not stop the others. */
  publish(channel: string, payload: string): void {
    const listeners = this.#channels.get(channel);
    if (!listeners || listeners.size === 0) return;
    setImmediate(() => {
      for (const entry of [...listeners]) {
        try {
          entry.listener(payload);
        } catch (error) {
          entry.onError(error);
        }
      }
    });
  }
}

const buses = new Map<string, LocalBus>();

/** The bus of a database file (absolute path); an in-memory database gets its own. */
export function busFor(file: string): LocalBus {
  if (file === ':memory:') return new LocalBus();
  let bus = buses.get(file);
  if (!bus) {
    bus = new LocalBus();
    buses.set(file, bus);
  }
  return bus;
}
