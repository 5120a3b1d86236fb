// The live channel's fan-out: writers NOTIFY inside their transaction (delivered at commit), and each API process
// keeps one LISTEN connection that hands notifications to the open event streams of that document.
import type { Knex } from 'knex';
import type { HubChannel, Subscribable } from '../../platform/notification-hub.js';
import type { Caller } from '../caller.js';
import type { DocumentsDeps } from './deps.js';
import { findVisibleDocument } from './documents.js';

/** The PostgreSQL channel. Payloads carry ids and numbers only, never content: `<document uuid> <event> <revision>`. */
const DOCUMENT_CHANNEL = 'folio_documents';

export type LiveEventName = 'revision' | 'threads';

export interface LiveEvent {
  event: LiveEventName;
  documentUuid: string;
  revision: number;
}

/** Queues a notification in the transaction; PostgreSQL delivers it only if and when the transaction commits. */
export async function notifyDocumentChange(
  tx: Knex.Transaction,
  documentUuid: string,
  event: LiveEventName,
  revision: number,
): Promise<void> {
  await tx.raw('select pg_notify(?, ?)', [DOCUMENT_CHANNEL, `${documentUuid} ${event} ${revision}`]);
}

function parsePayload(payload: string | undefined): LiveEvent | undefined {
  const [documentUuid, event, revision] = (payload ?? '').split(' ');
  if (!documentUuid || (event !== 'revision' && event !== 'threads') || !/^\d+$/.test(revision ?? ''))
    return undefined;
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
export async function mayStillFollow(
  knex: Knex,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  follower: { tokenUuid: string; documentUuid: string },
): Promise<boolean> {
  const { tokenUuid, documentUuid } = follower;
  const token = await knex('access_tokens')
    .where({ uuid: tokenUuid })
    .whereNull('revoked_at')
    .where('expires_at', '>', knex.fn.now())
    .first('uuid');
  if (!token) return false;
  return findVisibleDocument(knex, deps, caller, documentUuid).then(
    () => true,
    () => false,
  );
}

/** The live channel, keyed by document, for a NotificationHub (platform/notification-hub.ts). */
export const documentLiveChannel: HubChannel<LiveEvent> = {
  channel: DOCUMENT_CHANNEL,
  name: 'live channel',
  parse: (payload) => {
    const event = parsePayload(payload);
    return event && { key: event.documentUuid, event };
  },
};

/** The live channel's subscriptions, on the hub of documentLiveChannel that the composition root hands in. */
export class LiveHub {
  constructor(private readonly hub: Subscribable<LiveEvent> & { close(): Promise<void> }) {}

  subscribe(documentUuid: string, listener: LiveListener): Promise<() => void> {
    return this.hub.subscribe(documentUuid, (event) =>
      listener(event === 'resync' ? { event: 'resync', documentUuid } : event),
    );
  }

  close(): Promise<void> {
    return this.hub.close();
  }
}
