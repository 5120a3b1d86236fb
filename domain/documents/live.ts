// The live channel's fan-out: writers NOTIFY inside their transaction (delivered at commit), and each API process
// keeps one LISTEN connection that hands notifications to the open event streams of that document.
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../../platform/logger.js';
import type { Caller } from '../caller.js';
import { findVisibleDocument, type DocumentSettings } from './documents.js';

/** The PostgreSQL channel. Payloads carry ids and numbers only, never content: `<document uuid> <event> <revision>`. */
const DOCUMENT_CHANNEL = 'folio_documents';

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

/** The document's revision now, or undefined once it is gone: what a stream sends first and after a resync. */
export async function currentRevision(knex: Knex, documentUuid: string): Promise<number | undefined> {
  const row = await knex('documents').where({ uuid: documentUuid }).first('revision');
  return row ? (row.revision as number) : undefined;
}

/**
 * Whether a reader may still be sent events of a document: the access token the stream was opened with is neither
 * revoked nor expired, and the caller still sees the document.
 */
export async function mayStillFollow(knex: Knex, caller: Caller, settings: DocumentSettings, tokenUuid: string, documentUuid: string): Promise<boolean> {
  const token = await knex('access_tokens').where({ uuid: tokenUuid }).whereNull('revoked_at').where('expires_at', '>', knex.fn.now()).first('uuid');
  if (!token) return false;
  return findVisibleDocument(knex, caller, settings, documentUuid).then(
    () => true,
    () => false,
  );
}

const RECONNECT_DELAY_MS = 1000;

/**
 * One LISTEN connection per process, opened with the first subscriber. After a lost connection it reconnects and
 * tells every subscriber to resync, since notifications sent meanwhile are lost.
 */
export class LiveHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  /** `connectionString` is the database's; the LISTEN connection is its own, outside the pool. */
  constructor(private readonly options: { connectionString: string; log: Pick<Logger, 'warn'> }) {}

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
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      const event = parsePayload(message.payload);
      if (!event) return;
      for (const listener of this.listeners.get(event.documentUuid) ?? []) listener(event);
    });
    client.on('error', (error) => {
      this.options.log.warn({ err: error }, 'live channel connection failed');
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
          this.options.log.warn({ err: error }, 'live channel reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, RECONNECT_DELAY_MS).unref();
  }
}
