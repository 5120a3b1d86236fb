// The live channel: Server-Sent Events of a document's new revisions (and thread changes), for anyone who can read it.
// Events carry numbers only; a client reads the content again with GET /content. See docs/documents-api.md § Live.
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { z } from 'zod';
import { findVisibleDocument } from '../../../domain/documents/documents.js';
import { tooManyStreams } from '../../../domain/documents/errors.js';
import { currentRevision, mayStillFollow, type LiveListener } from '../../../domain/documents/live.js';
import { caller, callerOf, requireScope } from '../../middleware/auth.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import type { ApiServices } from '../../services.js';

const KEEP_ALIVE_MS = 15_000;
const RETRY_MS = 2_000;

const EventsStreamSchema = z.object({ params: z.object({ uuid: uuidParam }) });

// Streams each person holds open in this app (services.liveStreams): a stream holds a socket and a listener until the
// client leaves, so one person (or one leaked client) may not hold them without bound: past the cap a new one is 429.
// They end when the app begins to stop (api/services.ts), so the server can close its connections and exit.
const STREAM_RETRY_AFTER_SECONDS = 30;

const frame = (event: string, data: unknown, id?: number) =>
  `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function liveRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/events', sensitive: true });

  router.get('/', requireScope('docs.read'), validate(EventsStreamSchema, documentsInput), async (ctx) => {
    const { params } = input(ctx.state, EventsStreamSchema);
    const me = callerOf(ctx.state);
    const document = await findVisibleDocument(services.db, services.documents, me, params.uuid);
    const stream = new PassThrough();
    // Counted with no await between the check and the count, so concurrent opens cannot pass the cap together.
    const limit = services.settings.documentLimits.liveStreamsPerUser;
    const release = services.liveStreams.take(me.userUuid, limit, () => stream.end());
    if (!release) throw tooManyStreams(limit, STREAM_RETRY_AFTER_SECONDS);
    // A late event (a resync query finishing after the client left) must not write to an ended stream.
    const write = (text: string) => {
      if (!stream.writableEnded && !stream.destroyed) stream.write(text);
    };
    let sent = 0;
    const sendRevision = (revision: number) => {
      if (revision <= sent) return;
      sent = revision;
      write(frame('revision', { document_uuid: document.uuid, revision }, revision));
    };
    // Access is checked again before each event: a reader whose share or token was revoked since the stream
    // opened gets no more events, and the stream ends.
    const { tokenUuid } = caller(ctx.state);
    const stillAllowed = () =>
      mayStillFollow(services.db, services.documents, me, { tokenUuid, documentUuid: document.uuid });
    // One event at a time, in arrival order, each after its access check.
    let pending = Promise.resolve();
    const deliver = (event: Parameters<LiveListener>[0]) => {
      if (event.event === 'revision') sendRevision(event.revision);
      else if (event.event === 'threads')
        write(frame('threads', { document_uuid: document.uuid, revision: event.revision }));
      else
        void currentRevision(services.db, document.uuid).then(
          (revision) => revision !== undefined && sendRevision(revision),
          () => undefined,
        );
    };

    // Subscribe before reading the revision, so nothing committed in between is missed.
    const unsubscribe = await services.liveHub
      .subscribe(document.uuid, (event) => {
        pending = pending.then(
          async () => {
            if (await stillAllowed()) deliver(event);
            else close();
          },
          () => undefined,
        );
      })
      .catch((error: unknown) => {
        release();
        throw error;
      });
    const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    const close = () => {
      clearInterval(keepAlive);
      unsubscribe();
      release();
      stream.end();
    };
    ctx.req.on('close', close);
    // A client gone while we subscribed sent its 'close' before anyone listened: its count must still be given back.
    if (ctx.req.socket.destroyed) close();
    stream.on('close', close);
    stream.on('error', close);

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setKeepAlive(true);
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = stream;
    write(`retry: ${RETRY_MS}\n\n`);
    sendRevision((await currentRevision(services.db, document.uuid)) ?? document.revision);
  });
  return router;
}
