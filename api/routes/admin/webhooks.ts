// The webhook admin API, for programs (docs/webhooks.md § Admin API): destinations of the caller's workspace, their
// secret, status switch, delivery history and statistics, and the deliveries in flight. Workspace admins only. The
// admin app offers the same on pages rendered on the server, on the same domain rules; it calls none of these routes.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import * as z from 'zod';
import { invalidBody, notFound } from '../../../domain/errors.js';
import { isUuid } from '../../../domain/uuid.js';
import {
  dailyStats,
  attemptUuidOfDeliveryId,
  findDelivery,
  listAttempts,
  listDeliveries,
  resendDelivery,
  retryDeliveryNow,
  terminateDelivery,
} from '../../../domain/webhooks/deliveries.js';
import {
  changeDestinationStatus,
  createDestination,
  DestinationChangesSchema,
  DestinationFieldsSchema,
  findDestination,
  listDestinations,
  revealSigningSecrets,
  rotateSigningSecret,
  updateDestination,
  type StatusChange,
} from '../../../domain/webhooks/destinations.js';
import { eventUuidOf, sendTestEvent } from '../../../domain/webhooks/events.js';
import { targetPolicyFrom } from '../../../domain/webhooks/target.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { input, validate, type InputErrors } from '../../middleware/validate.js';
import { requireWorkspaceAdmin } from '../../middleware/workspace-admin.js';
import {
  presentAttemptPage,
  presentDailyStats,
  presentDelivery,
  presentDestination,
  presentDestinationWithSecret,
  presentSecrets,
} from '../../presenters/webhooks.js';
import type { ApiServices } from '../../services.js';

/** An unknown or malformed id in the path is 404; anything else wrong in the input is 400 invalid_body with its fields. */
const adminInput: InputErrors = {
  pathParam: () => notFound(),
  otherwise: (fields) => invalidBody(`Invalid fields: ${fields.join(', ')}.`, { fields }),
};

const uuid = z.string().refine(isUuid);
const eventIdParam = z
  .string()
  .transform(
    (value, ctx) =>
      eventUuidOf(value) ?? (ctx.addIssue({ code: 'custom', message: 'not an event id' }), z.NEVER),
  );
const DestinationParams = z.object({ uuid });
const DeliveryParams = z.object({ uuid, event: eventIdParam });

// A destination's fields are checked by the domain's schemas, the same the admin app's form meets (docs/admin-app.md).
const WebhooksCreateSchema = z.object({ body: DestinationFieldsSchema });
const WebhooksShowSchema = z.object({ params: DestinationParams });
const WebhooksUpdateSchema = z.object({
  params: DestinationParams,
  body: DestinationChangesSchema,
});
const WebhooksAttemptsSchema = z.object({
  params: DestinationParams,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(100).default(25),
    cursor: z
      .string()
      .transform(
        (value, ctx) =>
          attemptUuidOfDeliveryId(value) ??
          (ctx.addIssue({ code: 'custom', message: 'bad cursor' }), z.NEVER),
      )
      .optional(),
    event: eventIdParam.optional(),
  }),
});
const WebhooksDeliveriesSchema = z.object({
  params: DestinationParams,
  query: z.object({
    state: z.enum(['waiting', 'running', 'done']).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(100),
  }),
});
const WebhooksDeliveryRetrySchema = z.object({ params: DeliveryParams });
const WebhooksDeliveryResendSchema = z.object({ params: DeliveryParams });
const WebhooksDeliveryTerminateSchema = z.object({
  params: DeliveryParams,
  body: z.object({ reason: z.string().min(1).max(1000) }),
});

export function adminWebhooksRouter(services: ApiServices): Router {
  const admin: Middleware[] = [requireScope('webhooks.manage'), requireWorkspaceAdmin(services)];
  const destinationDeps = () => ({
    masterKey: services.settings.masterKey,
    policy: targetPolicyFrom(services.settings.webhook),
  });
  const router = new Router({ prefix: '/v1/admin/webhooks', sensitive: true });

  router.get('/', ...admin, async (ctx) => {
    const destinations = await listDestinations(services.db, callerOf(ctx.state).workspaceUuid);
    ctx.body = { object: 'list', data: destinations.map(presentDestination) };
  });

  router.post(
    '/',
    ...admin,
    jsonBody(),
    validate(WebhooksCreateSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { body } = input(ctx.state, WebhooksCreateSchema);
      const { workspaceUuid } = callerOf(ctx.state);
      const created = await createDestination(unitOf(ctx.state).tx, destinationDeps(), {
        workspaceUuid,
        ...body,
      });
      ctx.status = 201;
      ctx.body = presentDestinationWithSecret(created);
    },
  );

  router.get('/:uuid', ...admin, validate(WebhooksShowSchema, adminInput), async (ctx) => {
    const { params } = input(ctx.state, WebhooksShowSchema);
    ctx.body = presentDestination(
      await findDestination(services.db, params.uuid, callerOf(ctx.state).workspaceUuid),
    );
  });

  router.patch(
    '/:uuid',
    ...admin,
    jsonBody(),
    validate(WebhooksUpdateSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, WebhooksUpdateSchema);
      const target = { uuid: params.uuid, workspaceUuid: callerOf(ctx.state).workspaceUuid };
      ctx.body = presentDestination(
        await updateDestination(unitOf(ctx.state).tx, destinationDeps(), target, body),
      );
    },
  );

  for (const change of ['pause', 'resume', 'enable'] as StatusChange[]) {
    router.post(
      `/:uuid/${change}`,
      ...admin,
      validate(WebhooksShowSchema, adminInput),
      transaction(services),
      async (ctx) => {
        const { params } = input(ctx.state, WebhooksShowSchema);
        const target = { uuid: params.uuid, workspaceUuid: callerOf(ctx.state).workspaceUuid };
        ctx.body = presentDestination(await changeDestinationStatus(unitOf(ctx.state).tx, target, change));
      },
    );
  }

  router.get('/:uuid/secret', ...admin, validate(WebhooksShowSchema, adminInput), async (ctx) => {
    const { params } = input(ctx.state, WebhooksShowSchema);
    ctx.set('Cache-Control', 'no-store');
    const me = callerOf(ctx.state);
    const target = { uuid: params.uuid, workspaceUuid: me.workspaceUuid };
    ctx.body = presentSecrets(
      await revealSigningSecrets(services.db, services.settings.masterKey, target, {
        userUuid: me.userUuid,
        via: 'api',
      }),
    );
  });

  router.post(
    '/:uuid/rotate-secret',
    ...admin,
    validate(WebhooksShowSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, WebhooksShowSchema);
      const target = { uuid: params.uuid, workspaceUuid: callerOf(ctx.state).workspaceUuid };
      const deps = {
        masterKey: services.settings.masterKey,
        overlapMs: services.settings.webhook.secretOverlapMs,
      };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentDestinationWithSecret(await rotateSigningSecret(unitOf(ctx.state).tx, deps, target));
    },
  );

  router.get('/:uuid/stats', ...admin, validate(WebhooksShowSchema, adminInput), async (ctx) => {
    const { params } = input(ctx.state, WebhooksShowSchema);
    const destination = await findDestination(services.db, params.uuid, callerOf(ctx.state).workspaceUuid);
    ctx.body = {
      object: 'list',
      data: (await dailyStats(services.db, destination.uuid, 7)).map(presentDailyStats),
    };
  });

  router.get('/:uuid/attempts', ...admin, validate(WebhooksAttemptsSchema, adminInput), async (ctx) => {
    const { params, query } = input(ctx.state, WebhooksAttemptsSchema);
    const destination = await findDestination(services.db, params.uuid, callerOf(ctx.state).workspaceUuid);
    const attempts = await listAttempts(services.db, destination.uuid, {
      limit: query.limit,
      after: query.cursor,
      eventUuid: query.event,
    });
    ctx.body = presentAttemptPage(attempts, query.limit);
  });

  router.get('/:uuid/deliveries', ...admin, validate(WebhooksDeliveriesSchema, adminInput), async (ctx) => {
    const { params, query } = input(ctx.state, WebhooksDeliveriesSchema);
    const destination = await findDestination(services.db, params.uuid, callerOf(ctx.state).workspaceUuid);
    ctx.body = {
      object: 'list',
      data: (
        await listDeliveries(services.db, {
          destinationUuid: destination.uuid,
          state: query.state,
          limit: query.limit,
        })
      ).map(presentDelivery),
    };
  });

  router.post(
    '/:uuid/deliveries/:event/retry',
    ...admin,
    validate(WebhooksDeliveryRetrySchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, WebhooksDeliveryRetrySchema);
      const unit = unitOf(ctx.state);
      const destination = await findDestination(unit.tx, params.uuid, callerOf(ctx.state).workspaceUuid);
      ctx.status = 202;
      ctx.body = presentDelivery(
        await retryDeliveryNow(unit, { destinationUuid: destination.uuid, eventUuid: params.event }),
      );
    },
  );

  router.post(
    '/:uuid/deliveries/:event/terminate',
    ...admin,
    jsonBody(),
    validate(WebhooksDeliveryTerminateSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, WebhooksDeliveryTerminateSchema);
      const me = callerOf(ctx.state);
      const unit = unitOf(ctx.state);
      const destination = await findDestination(unit.tx, params.uuid, me.workspaceUuid);
      const key = { destinationUuid: destination.uuid, eventUuid: params.event };
      ctx.body = presentDelivery(
        await terminateDelivery(unit, key, { actor: `user:${me.userUuid}`, reason: body.reason }),
      );
    },
  );

  // Extensions (docs/extensions.md § Webhooks): a signed webhook.test event, and a manual resend of one past event.
  router.post(
    '/:uuid/test',
    ...admin,
    validate(WebhooksShowSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, WebhooksShowSchema);
      const unit = unitOf(ctx.state);
      const destination = await findDestination(unit.tx, params.uuid, callerOf(ctx.state).workspaceUuid);
      const event = await sendTestEvent(unit, destination.uuid);
      ctx.status = 202;
      ctx.body = presentDelivery(
        (await findDelivery(unit.tx, { destinationUuid: destination.uuid, eventUuid: event }))!,
      );
    },
  );

  router.post(
    '/:uuid/deliveries/:event/resend',
    ...admin,
    validate(WebhooksDeliveryResendSchema, adminInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, WebhooksDeliveryResendSchema);
      const unit = unitOf(ctx.state);
      const destination = await findDestination(unit.tx, params.uuid, callerOf(ctx.state).workspaceUuid);
      ctx.status = 202;
      ctx.body = presentDelivery(
        await resendDelivery(unit, { destinationUuid: destination.uuid, eventUuid: params.event }),
      );
    },
  );
  return router;
}
