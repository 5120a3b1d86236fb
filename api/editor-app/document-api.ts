// The editor page's own JSON endpoints (docs/editor.md § How the page talks to the server): behind the session cookie
// and CSRF, they call the same domain functions the /v1 routes call, for the caller the session and the document
// name. Errors are the API's (AppError, mapped by api/middleware/errors.ts), so the page reads the spec's codes.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createComment, replyToComment } from '../../domain/documents/comments.js';
import {
  decideSuggestion,
  readContent,
  writeOperations,
  type OperationsWrite,
} from '../../domain/documents/content.js';
import { findVisibleDocument } from '../../domain/documents/documents.js';
import { invalidRevision } from '../../domain/documents/errors.js';
import { listRevisions, readRevision, restoreRevision } from '../../domain/documents/history.js';
import type { LiveHub } from '../../domain/documents/live.js';
import { markdownToHtml } from '../../domain/document-engine/html.js';
import { parseOperations } from '../../domain/document-engine/index.js';
import { AppError } from '../../domain/errors.js';
import type { Caller } from '../../domain/caller.js';
import type { RunInTransaction } from '../../domain/unit-of-work.js';
import { atLeast } from '../../domain/roles.js';
import { isUuid } from '../../domain/uuid.js';
import { openEventStream } from '../event-stream.js';
import type { PerUserSlots } from '../per-user-slots.js';
import {
  contentPresenter,
  presentContent,
  presentRevisionContent,
  presentRevisionList,
  presentThread,
} from '../presenters/documents.js';
import { basePath, type EditorAppOptions } from './session.js';

/**
 * What the JSON endpoints need beyond the pages: transactions whose workflow starts follow the commit, the live hub,
 * and the live streams each person holds (the API's own, services.liveStreams: one cap for both).
 */
export interface EditorWriteOptions {
  runInTransaction: RunInTransaction;
  liveHub: LiveHub;
  liveStreams: PerUserSlots;
}

const REVISIONS_PER_PAGE = 25;

const notSignedIn = () => new AppError(401, 'unauthorized', 'Sign in to the editor app again.');
const noEarlyAccess = () =>
  new AppError(403, 'forbidden', 'The editor app is open only to accounts with early access.');
const documentNotFound = () => new AppError(404, 'not_found', 'No such document.');
const invalid = (description: string) => new AppError(422, 'invalid_request', description);

/**
 * The workspace a signed-in person opens a document as: the document's own, when they are a member of it. In the API
 * a person acts with a token of one workspace; here the document names it, and its roles decide the rest.
 */
export async function callerFor(
  options: EditorAppOptions,
  userUuid: string,
  documentUuid: string,
): Promise<Caller | undefined> {
  const row = await options
    .db('documents as d')
    .join('workspace_members as m', 'm.workspace_uuid', 'd.workspace_uuid')
    .where({ 'd.uuid': documentUuid, 'm.user_uuid': userUuid })
    .first('d.workspace_uuid');
  return row ? { userUuid, workspaceUuid: row.workspace_uuid as string } : undefined;
}

async function callerOf(ctx: Context, options: EditorAppOptions): Promise<Caller> {
  const session = ctx.state.editorSession;
  if (!session) throw notSignedIn();
  if (!session.earlyAccess) throw noEarlyAccess();
  const caller = await callerFor(options, session.userUuid, ctx.params.uuid!.toLowerCase());
  if (!caller) throw documentNotFound();
  return caller;
}

const bodyOf = (ctx: Context) => (ctx.request.body ?? {}) as Record<string, unknown>;

/** A revision number in the path, as the API's history routes read it. */
function revisionOf(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2 ** 31 - 1) throw invalidRevision();
  return Number(value);
}

/** The export's renderer (as the document's page): no raw HTML passes, CriticMarkup shows as <ins>, <del>, <mark>. */
const renderedHtml = (documentUuid: string, markdown: string) =>
  markdownToHtml(markdown, {
    attachmentUrl: (attachment) => `/v1/documents/${documentUuid}/attachments/${attachment}/download`,
  });

function baseRevision(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new AppError(422, 'invalid_base_revision', 'base_revision must be a revision number.');
  return value as number;
}

export function documentApiRouter(options: EditorAppOptions & EditorWriteOptions): Router {
  const router = new Router({ prefix: '/:uuid', sensitive: true });
  const deps = options.documents;

  router.get('/content', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const document = await findVisibleDocument(options.db, deps, caller, uuid);
    const content = await readContent(options.db, deps, caller, uuid);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentContent(content, caller.userUuid), role: document.my_role, me: caller.userUuid };
  });

  // An edit for editors, a suggestion for commenters: the page sends the same operations, the role decides which.
  router.post('/content', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const body = bodyOf(ctx);
    const document = await findVisibleDocument(options.db, deps, caller, uuid);
    const mode = atLeast(document.my_role, 'editor') ? 'edit' : 'suggest';
    const input: OperationsWrite = {
      mode,
      operations: parseOperations(body.operations, mode),
      baseRevision: baseRevision(body.base_revision),
    };
    const answer = await options.runInTransaction((unit) =>
      writeOperations(unit.tx, deps, caller, uuid, input, contentPresenter(caller.userUuid)),
    );
    ctx.status = answer.status;
    ctx.body = { ...answer.body, mode };
  });

  router.post('/suggestions/:thread/:decision', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const { thread, decision } = ctx.params;
    if (!isUuid(thread!) || (decision !== 'accept' && decision !== 'reject'))
      throw new AppError(404, 'suggestion_not_found', 'No such suggestion.');
    const view = await options.runInTransaction((unit) =>
      decideSuggestion(
        unit.tx,
        deps,
        caller,
        { documentUuid: ctx.params.uuid!.toLowerCase(), threadUuid: thread! },
        decision,
      ),
    );
    ctx.body = presentContent(view, caller.userUuid);
  });

  router.post('/comments', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const body = bodyOf(ctx);
    if (typeof body.body !== 'string' || !body.body.trim())
      throw new AppError(422, 'invalid_body', 'Write a comment.');
    if (body.on !== undefined && (typeof body.on !== 'string' || !body.on))
      throw invalid('on must be quoted text.');
    const uuid = ctx.params.uuid!.toLowerCase();
    const thread = await options.runInTransaction((unit) =>
      body.thread !== undefined
        ? replyToComment(
            unit.tx,
            deps,
            caller,
            { documentUuid: uuid, threadUuid: String(body.thread) },
            body.body as string,
          )
        : createComment(unit.tx, deps, caller, uuid, {
            body: body.body as string,
            target: body.on === undefined ? {} : { on: body.on as string },
          }),
    );
    ctx.status = 201;
    ctx.body = presentThread(thread, caller.userUuid);
  });

  // History (docs/extensions.md § Documents history): the domain functions of the API's revisions routes, whose
  // editor role they check themselves; a commenter or viewer gets their 403 forbidden.
  router.get('/revisions', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const cursor = typeof ctx.query.cursor === 'string' && ctx.query.cursor ? ctx.query.cursor : undefined;
    const page = await listRevisions(options.db, deps, caller, uuid, {
      limit: REVISIONS_PER_PAGE,
      cursor,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentRevisionList(`${basePath(options)}/${uuid}/revisions`, page, caller.userUuid);
  });

  // One revision, with its text rendered as the page renders the document, to be shown read-only.
  router.get('/revisions/:revision', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const revision = await readRevision(options.db, deps, caller, uuid, revisionOf(ctx.params.revision));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      ...presentRevisionContent(uuid, revision, caller.userUuid),
      html: renderedHtml(uuid, revision.markdown),
    };
  });

  // A new revision with that revision's text; its live notification updates every open page, this one included.
  router.post('/revisions/:revision/restore', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const revision = revisionOf(ctx.params.revision);
    const answer = await options.runInTransaction((unit) =>
      restoreRevision(unit.tx, deps, caller, uuid, revision, contentPresenter(caller.userUuid)),
    );
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  // The live channel, for the page: one `change` event per revision or thread change of the document. The page then
  // reads the content again. Access is checked again before each event, as the API's stream does. The stream counts
  // against the person's cap of live streams shared with the API's (FOLIO_LIVE_STREAMS_PER_USER, per process).
  router.get('/events', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    await findVisibleDocument(options.db, deps, caller, uuid);
    await openEventStream(ctx, {
      slots: options.liveStreams,
      userUuid: caller.userUuid,
      limit: deps.settings.documentLimits.liveStreamsPerUser,
      subscribe: (listener) => options.liveHub.subscribe(uuid, listener),
      stillAllowed: () =>
        findVisibleDocument(options.db, deps, caller, uuid).then(
          () => true,
          () => false,
        ),
      deliver: (_event, stream) => stream.send('change', {}),
    });
  });

  return router;
}
