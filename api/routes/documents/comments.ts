// Comments: create on a quote or the whole document, reply, resolve or reopen, edit a message, delete a comment or a message.
import Router from '@koa/router';
import type { CommentTarget } from '../../../domain/document-engine/index.js';
import { createComment, deleteComment, deleteMessage, editMessage, renderThread, replyToComment, setCommentStatus } from '../../../domain/documents/comments.js';
import { invalidCommentBody, invalidCommentTarget, invalidStatus } from '../../../domain/documents/errors.js';
import { db } from '../../../platform/database.js';
import { requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentThread } from '../../presenters/documents.js';
import { bodyObject, checkPathUuids, documentCaller } from './params.js';

/** body: a non-blank markdown string, else 422 invalid_body. */
export function readMessageBody(raw: unknown): string {
  const { body } = bodyObject(raw);
  if (typeof body !== 'string' || body.trim() === '') throw invalidCommentBody();
  return body;
}

/** on, occurrence, before, after: as an edit's quote. A malformed one is 422 invalid_operation without an index. */
export function readCommentTarget(raw: unknown): CommentTarget {
  const body = bodyObject(raw);
  const target: CommentTarget = {};
  const text = (key: 'on' | 'before' | 'after') => {
    const value = body[key];
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || value.trim() === '') throw invalidCommentTarget(`${key} must be a non-blank string.`);
    target[key] = value;
  };
  text('on');
  text('before');
  text('after');
  const occurrence = body.occurrence;
  if (occurrence !== undefined && occurrence !== null) {
    if (occurrence !== 'first' && occurrence !== 'last' && !(typeof occurrence === 'number' && Number.isInteger(occurrence) && occurrence >= 1)) {
      throw invalidCommentTarget('occurrence must be a whole number from 1, "first" or "last".');
    }
    target.occurrence = occurrence;
  }
  if (target.on === undefined && (target.before !== undefined || target.after !== undefined || target.occurrence !== undefined)) {
    throw invalidCommentTarget('occurrence, before and after narrow the quote in on; a comment without on is on the whole document.');
  }
  return target;
}

export const commentsRouter = new Router({ prefix: '/v1/documents/:uuid/comments' });

commentsRouter.post('/', requireScope('docs.comment'), checkPathUuids(), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const body = readMessageBody(ctx.request.body);
  const target = readCommentTarget(ctx.request.body);
  const thread = await db().transaction((tx) => createComment(tx, me, ctx.params.uuid!, { body, target }));
  ctx.status = 201;
  ctx.body = presentThread(renderThread(thread), me.userUuid);
});

commentsRouter.post('/:thread/replies', requireScope('docs.comment'), checkPathUuids(), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const body = readMessageBody(ctx.request.body);
  const thread = await db().transaction((tx) => replyToComment(tx, me, ctx.params.uuid!, ctx.params.thread!, body));
  ctx.status = 201;
  ctx.body = presentThread(renderThread(thread), me.userUuid);
});

commentsRouter.post('/:thread', requireScope('docs.comment'), checkPathUuids(), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const { status } = bodyObject(ctx.request.body);
  if (status !== 'open' && status !== 'resolved') throw invalidStatus();
  const thread = await db().transaction((tx) => setCommentStatus(tx, me, ctx.params.uuid!, ctx.params.thread!, status));
  ctx.body = presentThread(renderThread(thread), me.userUuid);
});

commentsRouter.post('/:thread/messages/:message', requireScope('docs.comment'), checkPathUuids(), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const body = readMessageBody(ctx.request.body);
  const thread = await db().transaction((tx) => editMessage(tx, me, ctx.params.uuid!, ctx.params.thread!, ctx.params.message!, body));
  ctx.body = presentThread(renderThread(thread), me.userUuid);
});

commentsRouter.delete('/:thread', requireScope('docs.comment'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  await db().transaction((tx) => deleteComment(tx, me, ctx.params.uuid!, ctx.params.thread!));
  ctx.status = 204;
});

commentsRouter.delete('/:thread/messages/:message', requireScope('docs.comment'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  await db().transaction((tx) => deleteMessage(tx, me, ctx.params.uuid!, ctx.params.thread!, ctx.params.message!));
  ctx.status = 204;
});
