// The live channel's fan-out: writers NOTIFY inside their transaction (delivered at commit), and each API process
// keeps one LISTEN connection that hands notifications to the open event streams of that document.
import type { Knex } from 'knex';
import pg from 'pg';
import { config } from '../../platform/config.js';
import { logger } from '../../platform/logger.js';

/** The PostgreSQL channel. Payloads carry ids and numbers only, never content: `<document uuid> <event> <revision>`. */
export const DOCUMENT_CHANNEL = 'folio_documents';

export type LiveEventName = 'revision' | 'threads';

export interface LiveEvent {
  event: LiveEventName;
  documentUuid: string;
  revision: number;
}

/** Queues a notification in the transaction; PostgreSQL delivers it only if and when the transaction commits. */
export async function notifyDocumentChange(tx: Knex.Transaction, documentUuid: string, event: LiveEventName, revision: number): Promise<void> {
  await tx.raw('select pg_notify(?, ?)', [DOCUMENT_CHANNEL, `${documentUuid} ${event} ${revision}`]);
}

function parsePayload(payload: string | undefined): LiveEvent | undefined {
  const [documentUuid, event, revision] = (payload ?? '').split(' ');
  if (!documentUuid || (event !== 'revision' && event !== 'threads') || !/^\d+$/.test(revision ?? '')) return undefined;
  return { documentUuid, event, revision: Number(revision) };
}

export type LiveListener = (event: LiveEvent | { event: 'resync'; documentUuid: string }) => void;

const RECONNECT_DELAY_MS = 1000;

/**
 * One LISTEN connection per process, opened with the first subscriber. After a lost connection it reconnects and
 * tells every subscriber to resync, since notifications sent meanwhile are lost.
 */
class LiveHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  async subscribe(documentUuid: string, listener: LiveListener): Promise<() => void> {
    let set = this.listeners.get(documentUuid);
    if (!set) this.listeners.set(documentUuid, (set = new Set()));
    set.add(listener);
    try {
      await this.connect();
    } catch (error) {
      this.remove(documentUuid, listener);
      throw error;
    }
    return () => this.remove(documentUuid, listener);
  }

  get subscriberCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private remove(documentUuid: string, listener: LiveListener) {
    const set = this.listeners.get(documentUuid);
    set?.delete(listener);
    if (set?.size === 0) this.listeners.delete(documentUuid);
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: config().databaseUrl });
    client.on('notification', (message) => {
      const event = parsePayload(message.payload);
      if (!event) return;
      for (const listener of this.listeners.get(event.documentUuid) ?? []) listener(event);
    });
    client.on('error', (error) => {
      logger.warn({ category: 'documents-live', err: error }, 'live channel connection failed');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${DOCUMENT_CHANNEL}`);
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
          for (const [documentUuid, set] of this.listeners) for (const listener of set) listener({ event: 'resync', documentUuid });
        },
        (error) => {
          logger.warn({ category: 'documents-live', err: error }, 'live channel reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, RECONNECT_DELAY_MS).unref();
  }
}

let shared: LiveHub | undefined;

export function liveHub(): LiveHub {
  shared ??= new LiveHub();
  return shared;
}
