// The editor page's own JSON endpoints (docs/editor.md § How the page talks to the server): behind the session cookie
// and CSRF, they call the same domain functions the /v1 routes call, for the caller the session and the document
// name. Errors are the API's (AppError, mapped by api/middleware/errors.ts), so the page reads the spec's codes.
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { createComment, replyToComment } from '../../domain/documents/comments.js';
import { decideSuggestion, readContent, writeOperations } from '../../domain/documents/content.js';
import { findVisibleDocument } from '../../domain/documents/documents.js';
import type { LiveHub } from '../../domain/documents/live.js';
import { parseOperations } from '../../domain/document-engine/index.js';
import { AppError } from '../../domain/errors.js';
import type { Caller } from '../../domain/caller.js';
import type { RunInTransaction } from '../../domain/unit-of-work.js';
import { atLeast } from '../../domain/roles.js';
import { isUuid } from '../../domain/uuid.js';
import { contentPresenter, presentContent, presentThread } from '../presenters/documents.js';
import type { EditorAppOptions } from './session.js';

/** What the JSON endpoints need beyond the pages: transactions whose workflow starts follow the commit, the live hub. */
export interface EditorWriteOptions {
  runInTransaction: RunInTransaction;
  liveHub: LiveHub;
}

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

function baseRevision(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new AppError(422, 'invalid_base_revision', 'base_revision must be a revision number.');
  return value as number;
}

export function documentApiRouter(options: EditorAppOptions & EditorWriteOptions): Router {
  const router = new Router({ prefix: '/:uuid', sensitive: true });
  const settings = options.documents;

  router.get('/content', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const document = await findVisibleDocument(options.db, caller, settings, uuid);
    const content = await readContent(options.db, caller, settings, uuid);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentContent(content, caller.userUuid), role: document.my_role, me: caller.userUuid };
  });

  // An edit for editors, a suggestion for commenters: the page sends the same operations, the role decides which.
  router.post('/content', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    const body = bodyOf(ctx);
    const document = await findVisibleDocument(options.db, caller, settings, uuid);
    const mode = atLeast(document.my_role, 'editor') ? 'edit' : 'suggest';
    const input = {
      operations: parseOperations(body.operations, mode),
      baseRevision: baseRevision(body.base_revision),
    };
    const answer = await options.runInTransaction((unit) =>
      writeOperations(unit.tx, caller, settings, uuid, mode, input, contentPresenter(caller.userUuid)),
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
      decideSuggestion(unit.tx, caller, settings, ctx.params.uuid!.toLowerCase(), thread!, decision),
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
        ? replyToComment(unit.tx, caller, settings, uuid, String(body.thread), body.body as string)
        : createComment(unit.tx, caller, settings, uuid, {
            body: body.body as string,
            target: body.on === undefined ? {} : { on: body.on as string },
          }),
    );
    ctx.status = 201;
    ctx.body = presentThread(thread, caller.userUuid);
  });

  // The live channel, for the page: one `change` event per revision or thread change of the document. The page then
  // reads the content again. Access is checked again before each event, as the API's stream does.
  router.get('/events', async (ctx) => {
    const caller = await callerOf(ctx, options);
    const uuid = ctx.params.uuid!.toLowerCase();
    await findVisibleDocument(options.db, caller, settings, uuid);
    const stream = new PassThrough();
    const write = (text: string) => {
      if (!stream.writableEnded && !stream.destroyed) stream.write(text);
    };
    let pending = Promise.resolve();
    const unsubscribe = await options.liveHub.subscribe(uuid, () => {
      pending = pending.then(async () => {
        const still = await findVisibleDocument(options.db, caller, settings, uuid).then(
          () => true,
          () => false,
        );
        if (still) write('event: change\ndata: {}\n\n');
        else close();
      });
    });
    const keepAlive = setInterval(() => write(': keep-alive\n\n'), 25_000);
    keepAlive.unref();
    const close = () => {
      clearInterval(keepAlive);
      unsubscribe();
      stream.end();
    };
    ctx.req.on('close', close);
    if (ctx.req.socket.destroyed) close();
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.body = stream;
    write('retry: 2000\n\n');
  });

  return router;
}
