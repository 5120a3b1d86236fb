// Comments: create on a quote or the whole document, reply, resolve or reopen, edit a message, delete a comment or a message.
import Router from '@koa/router';
import * as z from 'zod';
import {
  createComment,
  deleteComment,
  deleteMessage,
  editMessage,
  replyToComment,
  setCommentStatus,
} from '../../../domain/documents/comments.js';
import { invalidCommentBody, invalidCommentTarget, invalidStatus } from '../../../domain/documents/errors.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, type InputErrors, uuidParam, validate } from '../../middleware/validate.js';
import { presentThread } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const nonBlank = (text: string) => text.trim() !== '';

/** A message body: a non-blank markdown string, else 422 invalid_body. */
const messageBody = z.string().refine(nonBlank);

/** A piece of a comment's quote, as an edit's quote: a non-blank string; null means absent. */
const quoteText = (key: string) => {
  const message = `${key} must be a non-blank string.`;
  return z
    .string({ error: message })
    .refine(nonBlank, { message })
    .nullish()
    .transform((text) => text ?? undefined);
};

const occurrence = z
  .union([z.literal('first'), z.literal('last'), z.number().refine((n) => Number.isInteger(n) && n >= 1)], {
    error: 'occurrence must be a whole number from 1, "first" or "last".',
  })
  .nullish()
  .transform((value) => value ?? undefined);

/** body, and the quote the comment is on: on, occurrence, before, after; without on it is on the whole document. */
const CommentsCreateSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z
    .object({
      body: messageBody,
      on: quoteText('on'),
      before: quoteText('before'),
      after: quoteText('after'),
      occurrence,
    })
    .superRefine((target, ctx) => {
      if (
        target.on === undefined &&
        (target.before !== undefined || target.after !== undefined || target.occurrence !== undefined)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['on'],
          message:
            'occurrence, before and after narrow the quote in on; a comment without on is on the whole document.',
        });
      }
    }),
});

/** A malformed quote is 422 invalid_operation, as an edit's quote, without an index. */
const quoteError = (issue: { message: string }) => invalidCommentTarget(issue.message);
const commentInput: InputErrors = {
  ...documentsInput,
  fields: {
    'body.body': invalidCommentBody,
    'body.on': quoteError,
    'body.before': quoteError,
    'body.after': quoteError,
    'body.occurrence': quoteError,
  },
};
const messageInput: InputErrors = { ...documentsInput, fields: { 'body.body': invalidCommentBody } };

const CommentsReplySchema = z.object({
  params: z.object({ uuid: uuidParam, thread: uuidParam }),
  body: z.object({ body: messageBody }),
});

const CommentsStatusSchema = z.object({
  params: z.object({ uuid: uuidParam, thread: uuidParam }),
  body: z.object({ status: z.enum(['open', 'resolved']) }),
});

const CommentsEditMessageSchema = z.object({
  params: z.object({ uuid: uuidParam, thread: uuidParam, message: uuidParam }),
  body: z.object({ body: messageBody }),
});

const CommentsDeleteSchema = z.object({ params: z.object({ uuid: uuidParam, thread: uuidParam }) });

const CommentsDeleteMessageSchema = z.object({
  params: z.object({ uuid: uuidParam, thread: uuidParam, message: uuidParam }),
});

export function commentsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/comments', sensitive: true });

  router.post(
    '/',
    requireScope('docs.comment'),
    documentVisible(services),
    jsonBody(),
    validate(CommentsCreateSchema, commentInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, CommentsCreateSchema);
      const me = callerOf(ctx.state);
      const { body: message, ...target } = body;
      const thread = await createComment(unitOf(ctx.state).tx, services.documents, me, params.uuid, {
        body: message,
        target,
      });
      ctx.status = 201;
      ctx.body = presentThread(thread, me.userUuid);
    },
  );

  router.post(
    '/:thread/replies',
    requireScope('docs.comment'),
    documentVisible(services),
    jsonBody(),
    validate(CommentsReplySchema, messageInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, CommentsReplySchema);
      const me = callerOf(ctx.state);
      const thread = await replyToComment(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        { documentUuid: params.uuid, threadUuid: params.thread },
        body.body,
      );
      ctx.status = 201;
      ctx.body = presentThread(thread, me.userUuid);
    },
  );

  router.post(
    '/:thread',
    requireScope('docs.comment'),
    documentVisible(services),
    jsonBody(),
    validate(CommentsStatusSchema, { ...documentsInput, fields: { 'body.status': invalidStatus } }),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, CommentsStatusSchema);
      const me = callerOf(ctx.state);
      const thread = await setCommentStatus(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        { documentUuid: params.uuid, threadUuid: params.thread },
        body.status,
      );
      ctx.body = presentThread(thread, me.userUuid);
    },
  );

  router.post(
    '/:thread/messages/:message',
    requireScope('docs.comment'),
    documentVisible(services),
    jsonBody(),
    validate(CommentsEditMessageSchema, messageInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, CommentsEditMessageSchema);
      const me = callerOf(ctx.state);
      const thread = await editMessage(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        { documentUuid: params.uuid, threadUuid: params.thread, messageUuid: params.message },
        body.body,
      );
      ctx.body = presentThread(thread, me.userUuid);
    },
  );

  router.delete(
    '/:thread',
    requireScope('docs.comment'),
    validate(CommentsDeleteSchema, documentsInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, CommentsDeleteSchema);
      await deleteComment(unitOf(ctx.state).tx, services.documents, callerOf(ctx.state), {
        documentUuid: params.uuid,
        threadUuid: params.thread,
      });
      ctx.status = 204;
    },
  );

  router.delete(
    '/:thread/messages/:message',
    requireScope('docs.comment'),
    validate(CommentsDeleteMessageSchema, documentsInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, CommentsDeleteMessageSchema);
      await deleteMessage(unitOf(ctx.state).tx, services.documents, callerOf(ctx.state), {
        documentUuid: params.uuid,
        threadUuid: params.thread,
        messageUuid: params.message,
      });
      ctx.status = 204;
    },
  );
  return router;
}
