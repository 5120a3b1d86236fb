// Reading an email: GET /v1/emails/{uuid}, for members of its mailbox (spec/webhooks.md § Endpoints, docs/webhooks.md).
import Router from '@koa/router';
import * as z from 'zod';
import { readEmail } from '../../../domain/email/messages.js';
import { isUuid } from '../../../domain/uuid.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { driveInput, input, validate } from '../../middleware/validate.js';
import { presentEmail } from '../../presenters/email.js';
import type { ApiServices } from '../../services.js';

const EmailsShowSchema = z.object({ params: z.object({ uuid: z.string().refine(isUuid) }) });

export function emailsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/emails', sensitive: true });

  // An API key is refused by requireScope (403 forbidden); a non-member, admin or not, gets 404 from readEmail.
  router.get('/:uuid', requireScope('email.read'), validate(EmailsShowSchema, driveInput), async (ctx) => {
    const { params } = input(ctx.state, EmailsShowSchema);
    const email = await readEmail(
      services.db,
      services.content.objects,
      services.settings.masterKey,
      callerOf(ctx.state),
      params.uuid,
    );
    ctx.body = presentEmail(email);
  });
  return router;
}
