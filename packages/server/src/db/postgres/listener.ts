import pg from 'pg';
import type { DbLogger, ListenOptions, Subscription } from '../types.ts';

// LISTEN on a connection of its own (a pooled one would be handed to other queries). When it is
// lost (a server restart, a network cut, a terminated backend) it reconnects with backoff, listens
// again on every channel, and tells each subscriber: messages sent meanwhile were missed, so what
// they fed (a session cache) must be dropped. A ping finds a connection that died silently.

type Entry = { onMessage: (payload: string) => void; onReconnect: (() => void) | undefined };

const PING_EVERY_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5_000;

export class PostgresListener {
  readonly #config: pg.ClientConfig;
  readonly #logger: DbLogger;
  readonly #channels = new Map<string, Set<Entry>>();
  #client: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  #backoffMs = BACKOFF_MIN_MS;
  #retry: NodeJS.Timeout | undefined;
  #ping: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(config: pg.ClientConfig, logger: DbLogger) {
    this.#config = {
      ...config,
      application_name: `${config.application_name ?? 'review-desk'} (listener)`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    };
    this.#logger = logger;
  }

  async listen(
    channel: string,
    onMessage: (payload: string) => void,
    options: ListenOptions,
  ): Promise<Subscription> {
    if (this.#closed) throw new Error('The database is closed');
    const entry: Entry = { onMessage, onReconnect: options.onReconnect };
    let entries = this.#channels.get(channel);
    const first = entries === undefined;
    if (entries === undefined) {
      entries = new Set();
      this.#channels.set(channel, entries);
    }
    entries.add(entry);
    try {
      const client = await this.#connect();
      if (first) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      this.#remove(channel, entry);
      throw error;
    }
    return { close: async () => this.#remove(channel, entry) };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#ping);
    this.#channels.clear();
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #remove(channel: string, entry: Entry): void {
    const entries = this.#channels.get(channel);
    if (!entries?.delete(entry) || entries.size > 0) return;
    this.#channels.delete(channel);
    this.#client?.query(`UNLISTEN ${this.#client.escapeIdentifier(channel)}`).catch(() => {});
  }

  #connect(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    client.on('notification', (message) => this.#deliver(message.channel, message.payload ?? ''));
    client.on('error', (error) => {
      this.#logger.warn({ err: error }, 'The PostgreSQL notification connection failed');
      this.#lost(client);
    });
    client.on('end', () => this.#lost(client));
    await client.connect();
    for (const channel of this.#channels.keys())
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    if (this.#closed) {
      await client.end().catch(() => {});
      throw new Error('The database is closed');
    }
    this.#client = client;
    clearInterval(this.#ping);
    this.#ping = setInterval(() => this.#checkAlive(client), PING_EVERY_MS).unref();
    return client;
  }

  #deliver(channel: string, payload: string): void {
    for (const entry of [...(this.#channels.get(channel) ?? [])]) {
      try {
        entry.onMessage(payload);
      } catch (error) {
        this.#logger.warn({ err: error, channel }, 'A database notification listener failed');
      }
    }
  }

  #checkAlive(client: pg.Client): void {
    let answered = false;
    const timer = setTimeout(() => {
      if (!answered) this.#lost(client);
    }, PING_TIMEOUT_MS).unref();
    client.query('SELECT 1').then(
      () => {
        answered = true;
        clearTimeout(timer);
      },
      () => {
        answered = true;
        clearTimeout(timer);
        this.#lost(client);
      },
    );
  }

  #lost(client: pg.Client): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    clearInterval(this.#ping);
    client.end().catch(() => {});
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#channels.size === 0 || this.#retry) return;
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(BACKOFF_MAX_MS, this.#backoffMs * 2);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect().then(
        () => {
          this.#backoffMs = BACKOFF_MIN_MS;
          for (const entries of this.#channels.values()) for (const entry of entries) this.#resync(entry);
        },
        (error) => {
          this.#logger.warn({ err: error }, 'Reconnecting the PostgreSQL notification connection failed');
          this.#scheduleReconnect();
        },
      );
    }, delay);
    this.#retry.unref();
  }

  #resync(entry: Entry): void {
    try {
      entry.onReconnect?.();
    } catch (error) {
      this.#logger.warn({ err: error }, 'A database notification listener failed');
    }
  }
}
