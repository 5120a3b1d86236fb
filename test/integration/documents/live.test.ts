// The live channel: Server-Sent Events of new revisions, fanned out through PostgreSQL LISTEN/NOTIFY.
import { afterEach, describe, expect, it } from 'vitest';
import { notifyDocumentChange } from '../../../domain/documents/live.js';
import { db } from '../../../platform/database.js';
import { everyApiProcessHeard } from '../../../platform/process-session.js';
import {
  apiUrl,
  call,
  fetchApi,
  firstApiUrl,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  tokenFor,
  type TestUser,
} from '../../support/api.js';

interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/** A live connection read with a streaming fetch reader, parsed into events as they arrive. */
class EventStream {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  readonly events: SseEvent[] = [];
  retry?: number;

  private constructor(
    readonly response: Response,
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly controller: AbortController,
  ) {}

  static async open(token: string, documentUuid: string, api = apiUrl()): Promise<EventStream> {
    const controller = new AbortController();
    const response = await fetchApi(
      `/v1/documents/${documentUuid}/events`,
      { headers: { authorization: `Bearer ${token}` }, signal: controller.signal },
      api,
    );
    return new EventStream(response, response.body!.getReader(), controller);
  }

  /** Reads until an event satisfies the predicate; the test's own timeout bounds the wait. */
  async next(predicate: (event: SseEvent) => boolean): Promise<SseEvent> {
    for (;;) {
      const found = this.events.find(predicate);
      if (found) {
        this.events.splice(this.events.indexOf(found), 1);
        return found;
      }
      const { value, done } = await this.reader.read();
      if (done) throw new Error('the event stream ended');
      this.buffer += this.decoder.decode(value, { stream: true });
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
        }
        if (fields.retry) this.retry = Number(fields.retry);
        if (fields.event)
          this.events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') });
      }
    }
  }

  close() {
    this.controller.abort();
  }
}

const open: EventStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

async function listen(user: TestUser | string, documentUuid: string, api?: string) {
  const stream = await EventStream.open(typeof user === 'string' ? user : user.token, documentUuid, api);
  open.push(stream);
  return stream;
}

describe('the live channel of a document', () => {
  it('opens an event stream that starts with the current revision', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Live.' });
    const stream = await listen(user, document.uuid);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    // Proxies that follow nginx's header would otherwise buffer the events.
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    const first = await stream.next((event) => event.event === 'revision');
    expect(first).toEqual({
      event: 'revision',
      id: '2',
      data: { document_uuid: document.uuid, revision: 2 },
    });
    expect(stream.retry).toBe(2000);
  });

  it('pushes each new revision to every reader at once, and a comment as a threads event', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const document = await makeDocument(owner, { markdown: 'Counter 1' });
    await shareDocument(document.uuid, viewer, 'viewer');
    const mine = await listen(owner, document.uuid);
    const theirs = await listen(viewer, document.uuid);
    await mine.next((event) => event.data.revision === 2);
    await theirs.next((event) => event.data.revision === 2);

    const edited = await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'replace', find: 'Counter 1', with: 'Counter 2' }] },
    });
    expect(edited.body.revision).toBe(3);
    for (const stream of [mine, theirs]) {
      expect(await stream.next((event) => event.event === 'revision')).toEqual({
        event: 'revision',
        id: '3',
        data: { document_uuid: document.uuid, revision: 3 },
      });
    }
    await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'Nice', on: 'Counter' },
    });
    expect(await theirs.next((event) => event.event === 'threads')).toEqual({
      event: 'threads',
      data: { document_uuid: document.uuid, revision: 3 },
    });
  });

  it('delivers a revision committed by any process through NOTIFY, and nothing from other documents', async () => {
    const user = await makeUser();
    const watched = await makeDocument(user, { markdown: 'Watched' });
    const other = await makeDocument(user, { markdown: 'Other' });
    const stream = await listen(user, watched.uuid);
    await stream.next((event) => event.data.revision === 2);
    // Another API process commits: the notification goes through PostgreSQL, not through this API's memory.
    await db().transaction(async (tx) => {
      await notifyDocumentChange(tx, other.uuid, 'revision', 40);
      await notifyDocumentChange(tx, watched.uuid, 'revision', 41);
    });
    const event = await stream.next((e) => e.event === 'revision');
    expect(event.data).toEqual({ document_uuid: watched.uuid, revision: 41 });
    // A notification in a transaction that rolls back is never delivered.
    await db()
      .transaction(async (tx) => {
        await notifyDocumentChange(tx, watched.uuid, 'revision', 50);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await db().transaction((tx) => notifyDocumentChange(tx, watched.uuid, 'revision', 51));
    expect((await stream.next((e) => e.event === 'revision')).data.revision).toBe(51);
  });

  it('ends the stream of a reader whose share is revoked, sending them no further revision', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const document = await makeDocument(owner, { markdown: 'Secret plan 1' });
    const grantUuid = await shareDocument(document.uuid, viewer, 'viewer');
    const theirs = await listen(viewer, document.uuid);
    await theirs.next((event) => event.data.revision === 2);
    const { revokeDocumentGrant } = await import('../../../domain/documents/grants.js');
    expect(await revokeDocumentGrant(db(), grantUuid)).toBe(true);

    const edited = await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'replace', find: 'Secret plan 1', with: 'Secret plan 2' }] },
    });
    expect(edited.body.revision).toBe(3);
    await expect(theirs.next((event) => event.event === 'revision')).rejects.toThrow(
      'the event stream ended',
    );
  });

  it('ends the stream once its token is revoked', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Draft 1' });
    const token = await tokenFor(owner, ['docs.read']);
    const stream = await listen(token, document.uuid);
    await stream.next((event) => event.data.revision === 2);
    const { revokeAccessToken } = await import('../../../domain/accounts/credentials.js');
    await revokeAccessToken(db(), token, everyApiProcessHeard);
    await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'replace', find: 'Draft 1', with: 'Draft 2' }] },
    });
    await expect(stream.next((event) => event.event === 'revision')).rejects.toThrow(
      'the event stream ended',
    );
  });

  it('holds at most FOLIO_LIVE_STREAMS_PER_USER streams per user on one API process (4 here): past it 429 too_many_streams with Retry-After, until one closes', async () => {
    const user = await makeUser();
    const other = await makeColleague(user);
    const document = await makeDocument(user, { markdown: 'Busy.' });
    await shareDocument(document.uuid, other, 'viewer');
    const held: EventStream[] = [];
    for (let i = 0; i < 4; i++) {
      const stream = await listen(user, document.uuid, firstApiUrl());
      expect(stream.response.status).toBe(200);
      await stream.next((event) => event.event === 'revision');
      held.push(stream);
    }
    const refused = await call('GET', `/v1/documents/${document.uuid}/events`, {
      token: user.token,
      api: firstApiUrl(),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toEqual({
      error: 'too_many_streams',
      error_description: expect.any(String),
      max_streams: 4,
    });
    // The cap is per user: another reader of the same document is not affected.
    expect((await listen(other, document.uuid, firstApiUrl())).response.status).toBe(200);
    // A closed stream gives its place back (the server sees the close a moment later: poll with a deadline).
    held[0]!.close();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const again = await listen(user, document.uuid, firstApiUrl());
      if (again.response.status === 200) break;
      expect(again.response.status).toBe(429);
      if (Date.now() > deadline) throw new Error('the closed stream was never given back');
      await new Promise((resolve) => setTimeout(resolve, 100)); // A poll interval, not an assertion.
    }
  });

  it('refuses a caller who cannot see the document with 404, and a token without docs.read with 403', async () => {
    const owner = await makeUser();
    const stranger = await makeColleague(owner);
    const document = await makeDocument(owner);
    const hidden = await call('GET', `/v1/documents/${document.uuid}/events`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
    const token = await tokenFor(owner, ['docs.write']);
    const noScope = await call('GET', `/v1/documents/${document.uuid}/events`, { token });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toBe('insufficient_scope');
    const malformed = await call('GET', '/v1/documents/nope/events', { token: owner.token });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toBe('invalid_uuid');
  });
});
