// One PostgreSQL LISTEN connection per app and channel, handing each notification to the subscribers of its key: the
// Documents live channel and the Drive changes long-poll, whose channels domain/documents/live.ts and
// domain/drive/change-notifications.ts describe. An adapter, not a rule: the API's composition root (api/services.ts)
// creates one per channel and hands it to the code that subscribes.
import pg from 'pg';
import type { Logger } from './logger.js';

const RECONNECT_DELAY_MS = 1000;

/** What a subscriber hears: an event of its key, or `resync` after a lost connection (events meanwhile are lost). */
export type HubListener<E> = (event: E | 'resync') => void;

/** A channel as the domain describes it: its name, and how a payload reads. */
export interface HubChannel<E> {
  /** The PostgreSQL channel; writers pg_notify it inside their transaction, so it is heard only at commit. */
  channel: string;
  /** For log lines. */
  name: string;
  /** The key a payload is for and its event, or undefined to ignore it. */
  parse(payload: string | undefined): { key: string; event: E } | undefined;
}

export interface HubOptions<E> extends HubChannel<E> {
  /** The database's; the LISTEN connection is its own, outside the pool. */
  connectionString: string;
  log: Pick<Logger, 'warn'>;
}

/** What a subscriber needs of a hub (the domain's waits take this, not the connection). */
export interface Subscribable<E> {
  subscribe(key: string, listener: HubListener<E>): Promise<() => void>;
}

/**
 * One LISTEN connection per process and channel, opened with the first subscriber. After a lost connection it
 * reconnects and tells every subscriber to resync, since notifications sent meanwhile are lost.
 */
export class NotificationHub<E> implements Subscribable<E> {
  private readonly listeners = new Map<string, Set<HubListener<E>>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: HubOptions<E>) {}

  async subscribe(key: string, listener: HubListener<E>): Promise<() => void> {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    try {
      await this.connect();
    } catch (error) {
      this.remove(key, listener);
      throw error;
    }
    return () => this.remove(key, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private remove(key: string, listener: HubListener<E>) {
    const set = this.listeners.get(key);
    set?.delete(listener);
    if (set?.size === 0) this.listeners.delete(key);
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      const parsed = this.options.parse(message.payload);
      if (!parsed) return;
      for (const listener of this.listeners.get(parsed.key) ?? []) listener(parsed.event);
    });
    client.on('error', (error) => {
      this.options.log.warn({ err: error }, `${this.options.name} connection failed`);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed || this.listeners.size === 0) return;
    setTimeout(() => {
      this.connect().then(
        () => {
          for (const set of this.listeners.values()) for (const listener of set) listener('resync');
        },
        (error) => {
          this.options.log.warn({ err: error }, `${this.options.name} reconnect failed`);
          this.scheduleReconnect();
        },
      );
    }, RECONNECT_DELAY_MS).unref();
  }
}
