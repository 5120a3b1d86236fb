// Drive push subscriptions: a device registers to be told when Drive content changes, and unregisters
// (spec/drive.md § Push subscriptions; decisions in docs/drive-push.md). Push clients are made by the operator CLI.
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentPushSubscription } from '../../presenters/drive-push.js';
import { registerPushSubscription, unregisterPushSubscription } from '../../../domain/drive/push.js';
import type { ApiServices } from '../../services.js';

const PushSubscriptionsCreateSchema = z.object({
  body: z.object({
    push_client_uuid: z.string(),
    device_token: z.string(),
    container_identifier: z.string(),
    domain_identifier: z.string(),
  }),
});

const PushSubscriptionsDeleteSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function pushSubscriptionsRouter(services: ApiServices): Router {
  const router = new Router({
    prefix: '/v1/drive/push_subscriptions',
    sensitive: true,
  });

  router.post(
    '/',
    requireScope('drive.read'),
    jsonBody(),
    validate(PushSubscriptionsCreateSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { body } = input(ctx.state, PushSubscriptionsCreateSchema);
      const subscription = await registerPushSubscription(
        unitOf(ctx.state).tx,
        services.settings.masterKey,
        callerOf(ctx.state),
        {
          pushClientUuid: body.push_client_uuid,
          deviceToken: body.device_token,
          containerIdentifier: body.container_identifier,
          domainIdentifier: body.domain_identifier,
        },
      );
      ctx.status = 201;
      ctx.body = presentPushSubscription(subscription);
    },
  );

  router.delete(
    '/:uuid',
    requireScope('drive.read'),
    validate(PushSubscriptionsDeleteSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, PushSubscriptionsDeleteSchema);
      ctx.body = presentPushSubscription(
        await unregisterPushSubscription(unitOf(ctx.state).tx, callerOf(ctx.state), params.uuid),
      );
    },
  );
  return router;
}
