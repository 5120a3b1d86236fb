// The live channel: Server-Sent Events of a document's new revisions (and thread changes), for anyone who can read it.
// Events carry numbers only; a client reads the content again with GET /content. See docs/documents-api.md § Live.
import Router from '@koa/router';
import * as z from 'zod';
import { findVisibleDocument } from '../../../domain/documents/documents.js';
import { currentRevision, mayStillFollow, type LiveListener } from '../../../domain/documents/live.js';
import { openEventStream, type EventStream } from '../../event-stream.js';
import { caller, callerOf, requireScope } from '../../middleware/auth.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import type { ApiServices } from '../../services.js';

const EventsStreamSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function liveRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/events', sensitive: true });

  router.get('/', requireScope('docs.read'), validate(EventsStreamSchema, documentsInput), async (ctx) => {
    const { params } = input(ctx.state, EventsStreamSchema);
    const me = callerOf(ctx.state);
    const document = await findVisibleDocument(services.db, services.documents, me, params.uuid);
    let sent = 0;
    const sendRevision = (stream: EventStream, revision: number) => {
      if (revision <= sent) return;
      sent = revision;
      stream.send('revision', { document_uuid: document.uuid, revision }, revision);
    };
    const { tokenUuid } = caller(ctx.state);
    // Subscribed before the revision is read, so nothing committed in between is missed.
    const opened = await openEventStream<Parameters<LiveListener>[0]>(ctx, {
      slots: services.liveStreams,
      userUuid: me.userUuid,
      limit: services.settings.documentLimits.liveStreamsPerUser,
      subscribe: (listener) => services.liveHub.subscribe(document.uuid, listener),
      // A revoked token ends the stream too, not only a revoked share.
      stillAllowed: () =>
        mayStillFollow(services.db, services.documents, me, { tokenUuid, documentUuid: document.uuid }),
      deliver: (event, stream) => {
        if (event.event === 'revision') sendRevision(stream, event.revision);
        else if (event.event === 'threads')
          stream.send('threads', { document_uuid: document.uuid, revision: event.revision });
        else
          void currentRevision(services.db, document.uuid).then(
            (revision) => revision !== undefined && sendRevision(stream, revision),
            () => undefined,
          );
      },
    });
    sendRevision(opened, (await currentRevision(services.db, document.uuid)) ?? document.revision);
  });
  return router;
}
