// Threads (comments and suggestions) and their messages as stored, and the views the content read and thread writes answer.
import type { Knex } from 'knex';
import type { ThreadPlacement, WorkingDocument } from '../document-engine/index.js';

type ThreadKind = 'comment' | 'suggestion';
type ThreadStatus = 'open' | 'resolved' | 'closed';

export interface ThreadRow {
  uuid: string;
  document_uuid: string;
  kind: ThreadKind;
  ref: number | null;
  status: ThreadStatus;
  resolution: 'accepted' | 'rejected' | null;
  author_uuid: string;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRow {
  uuid: string;
  thread_uuid: string;
  author_uuid: string;
  body: string;
  created_at: Date;
  edited_at: Date | null;
}

/** A thread of a document, as a request names it. */
export interface ThreadRef {
  documentUuid: string;
  threadUuid: string;
}

/** A message of a thread, as a request names it. */
export interface MessageRef extends ThreadRef {
  messageUuid: string;
}

/** A person as thread and message authors are shown. */
export interface Person {
  uuid: string;
  first_name: string | null;
  last_name: string | null;
}

export interface MessageView {
  uuid: string;
  author: Person;
  body: string;
  created_at: Date;
  edited_at: Date | null;
}

export interface ThreadView {
  uuid: string;
  kind: ThreadKind;
  ref: number | null;
  status: ThreadStatus;
  placement: ThreadPlacement;
  author: Person;
  created_at: Date;
  messages: MessageView[];
}

/** A thread of the document, locked when asked, or undefined. */
export async function findThread(
  knex: Knex,
  documentUuid: string,
  threadUuid: string,
  forUpdate = false,
): Promise<ThreadRow | undefined> {
  const query = knex('document_threads').where({ document_uuid: documentUuid, uuid: threadUuid });
  if (forUpdate) query.forUpdate();
  return (await query.first()) as ThreadRow | undefined;
}

export async function findMessage(
  knex: Knex,
  threadUuid: string,
  messageUuid: string,
): Promise<MessageRow | undefined> {
  return (await knex('document_thread_messages')
    .where({ thread_uuid: threadUuid, uuid: messageUuid })
    .first()) as MessageRow | undefined;
}

/** The first message of a thread, which opens it. */
export async function openingMessageUuid(knex: Knex, threadUuid: string): Promise<string | undefined> {
  const row = await knex('document_thread_messages')
    .where({ thread_uuid: threadUuid })
    .orderBy('seq', 'asc')
    .first('uuid');
  return row?.uuid as string | undefined;
}

export async function insertMessage(
  knex: Knex,
  input: { threadUuid: string; authorUuid: string; body: string },
): Promise<string> {
  const [row] = await knex('document_thread_messages')
    .insert({ thread_uuid: input.threadUuid, author_uuid: input.authorUuid, body: input.body })
    .returning('uuid');
  return row.uuid as string;
}

/** A thread as stored, with its author and messages: everything of a thread view but its placement. */
export type ThreadRecord = Omit<ThreadView, 'placement'>;

/**
 * Threads with authors and messages, oldest first. Without `uuids`, the open threads of the document: open
 * comments and open suggestions.
 */
export async function loadThreadRecords(
  knex: Knex,
  documentUuid: string,
  uuids?: string[],
): Promise<ThreadRecord[]> {
  const query = knex('document_threads as t')
    .join('users as a', 'a.uuid', 't.author_uuid')
    .where('t.document_uuid', documentUuid)
    .select('t.*', 'a.first_name as author_first_name', 'a.last_name as author_last_name')
    .orderBy([
      { column: 't.created_at', order: 'asc' },
      { column: 't.seq', order: 'asc' },
    ]);
  if (uuids) query.whereIn('t.uuid', uuids);
  else query.where('t.status', 'open');
  const threads = (await query) as Array<
    ThreadRow & { author_first_name: string | null; author_last_name: string | null }
  >;
  if (threads.length === 0) return [];
  const messages = (await knex('document_thread_messages as m')
    .join('users as a', 'a.uuid', 'm.author_uuid')
    .whereIn(
      'm.thread_uuid',
      threads.map((thread) => thread.uuid),
    )
    .select('m.*', 'a.first_name as author_first_name', 'a.last_name as author_last_name')
    .orderBy('m.seq', 'asc')) as Array<
    MessageRow & { author_first_name: string | null; author_last_name: string | null }
  >;
  const byThread = new Map<string, MessageView[]>();
  for (const message of messages) {
    const list = byThread.get(message.thread_uuid) ?? [];
    list.push({
      uuid: message.uuid,
      author: {
        uuid: message.author_uuid,
        first_name: message.author_first_name,
        last_name: message.author_last_name,
      },
      body: message.body,
      created_at: message.created_at,
      edited_at: message.edited_at,
    });
    byThread.set(message.thread_uuid, list);
  }
  return threads.map((thread) => ({
    uuid: thread.uuid,
    kind: thread.kind,
    ref: thread.ref,
    status: thread.status,
    author: {
      uuid: thread.author_uuid,
      first_name: thread.author_first_name,
      last_name: thread.author_last_name,
    },
    created_at: thread.created_at,
    messages: byThread.get(thread.uuid) ?? [],
  }));
}

/**
 * Places threads in the engine state: pure CPU work, done outside any lock where it can be. One reading of the
 * document places them all, so a read costs the document's size, not its size times its threads.
 */
export function placeThreads(records: ThreadRecord[], document: WorkingDocument): ThreadView[] {
  if (records.length === 0) return [];
  const placements = document.placements(records.map((record) => record.uuid));
  return records.map((record) => ({ ...record, placement: placements.get(record.uuid)! }));
}
