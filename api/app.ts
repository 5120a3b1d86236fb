// Builds the Koa application from an app's services (api/services.ts): request context, error mapping, health routes,
// then authenticated /v1 routes. Every router is built here, from the same services, once per app.
import Koa from 'koa';
import Router from '@koa/router';
import { methodNotAllowed, routeNotFound } from '../domain/errors.js';
import { canSendMail, sendMail } from '../platform/mail-out.js';
import { targetPolicyFrom } from '../domain/webhooks/target.js';
import { adminApp } from './admin-app/index.js';
import { editorApp } from './editor-app/index.js';
import { authenticate } from './middleware/auth.js';
import { errorMapping } from './middleware/errors.js';
import { httpMetrics } from './middleware/metrics.js';
import {
  closeConnectionWhileDraining,
  jsonAnswersAsBytes,
  strictTransportSecurity,
} from './middleware/transport.js';
import { httpTracing } from './middleware/tracing.js';
import { tracingEnabled } from '../platform/tracing.js';
import { requestContext } from './middleware/request-context.js';
import { changesRouter } from './routes/drive/changes.js';
import { fileContentRouter } from './routes/drive/file-content.js';
import { filesRouter } from './routes/drive/files.js';
import { foldersRouter } from './routes/drive/folders.js';
import { publicLinksRouter } from './routes/drive/public-links.js';
import { pushSubscriptionsRouter } from './routes/drive/push-subscriptions.js';
import { sharingRouter } from './routes/drive/sharing.js';
import { thumbnailsRouter } from './routes/drive/thumbnails.js';
import { trashRouter } from './routes/drive/trash.js';
import { uploadsRouter } from './routes/drive/uploads.js';
import { attachmentsRouter } from './routes/documents/attachments.js';
import { commentsRouter } from './routes/documents/comments.js';
import { contentRouter } from './routes/documents/content.js';
import { documentsRouter } from './routes/documents/documents.js';
import { exportRouter } from './routes/documents/export.js';
import { liveRouter } from './routes/documents/live.js';
import { revisionsRouter } from './routes/documents/revisions.js';
import { suggestionsRouter } from './routes/documents/suggestions.js';
import { healthRouter } from './routes/health.js';
import { apiReferenceRouter } from './routes/api-reference.js';
import { adminWebhooksRouter } from './routes/admin/webhooks.js';
import { emailsRouter } from './routes/emails/emails.js';
import type { ApiServices } from './services.js';

/** The routers of one app, built from its services. */
interface AppRouters {
  health: Router;
  apiReference: Router;
  publicLinks: Router;
  /** Each resource router mounts itself under /v1; see api/routes/. */
  resources: Router[];
  /** Every router of the API outside the admin app, in the order they are tried. */
  served: Router[];
}

export function appRouters(services: ApiServices): AppRouters {
  const health = healthRouter(services);
  const apiReference = apiReferenceRouter(services);
  const publicLinks = publicLinksRouter(services);
  const resources = [
    filesRouter,
    fileContentRouter,
    foldersRouter,
    uploadsRouter,
    trashRouter,
    sharingRouter,
    thumbnailsRouter,
    changesRouter,
    pushSubscriptionsRouter,
    documentsRouter,
    contentRouter,
    suggestionsRouter,
    commentsRouter,
    attachmentsRouter,
    liveRouter,
    revisionsRouter,
    exportRouter,
    emailsRouter,
    adminWebhooksRouter,
  ].map((router) => router(services));
  return {
    health,
    apiReference,
    publicLinks,
    resources,
    served: [health, apiReference, publicLinks, ...resources],
  };
}

export function createApp(services: ApiServices): Koa {
  const { settings } = services;
  const routers = appRouters(services);
  // The routes that hold back "100 Continue" are found through the routers (api/middleware/upload-slots.ts).
  services.uploadSlots.deferContinueOn(routers.served);
  // X-Forwarded-Proto/Host/For are believed only from FOLIO_TRUST_PROXY hops; the client address is then the one the
  // outermost trusted proxy saw (Koa keeps the last N addresses of X-Forwarded-For), not whatever a client put first.
  const hops = settings.trustProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true; // errorMapping logs; Koa's default handler would print stacks to stderr.
  app.use(httpMetrics());
  app.use(jsonAnswersAsBytes());
  app.use(strictTransportSecurity());
  app.use(closeConnectionWhileDraining(services.draining));
  app.use(requestContext(services.running));
  if (tracingEnabled()) app.use(httpTracing());
  app.use(errorMapping());
  app.use(routers.health.routes());
  // The OpenAPI document and its reference page describe the API to anyone, as a published spec does.
  app.use(routers.apiReference.routes());
  // Public links (/s/<token>) are for anyone holding one: no credential, outside /v1.
  app.use(routers.publicLinks.routes());
  // The admin app answers under its own path with its own (cookie) sign-in; see docs/admin-app.md.
  const admin = settings.admin;
  app.use(
    adminApp({
      url: new URL(admin.url),
      limits: { idleMs: admin.sessionIdleMs, absoluteMs: admin.sessionMaxMs },
      db: services.db,
      runInTransaction: services.runInTransaction,
      sendMail: canSendMail() ? sendMail : undefined,
      webhooks: {
        masterKey: settings.masterKey,
        policy: targetPolicyFrom(settings.webhook),
        secretOverlapMs: settings.webhook.secretOverlapMs,
        retryDelaysMs: settings.webhook.retryDelaysMs,
      },
    }),
  );

  // The document editor app answers its own paths under FOLIO_DOCS_URL (a document's url); see docs/editor.md.
  app.use(
    editorApp({
      url: new URL(settings.docsUrl),
      db: services.db,
      limits: { idleMs: admin.sessionIdleMs, absoluteMs: admin.sessionMaxMs },
      documents: services.documents,
      runInTransaction: services.runInTransaction,
      liveHub: services.liveHub,
      liveStreams: services.liveStreams,
    }),
  );

  // Everything under /v1 needs a credential, so an unauthenticated caller learns nothing about routes.
  const authenticateV1 = authenticate(services);
  app.use((ctx, next) =>
    ctx.path === '/v1' || ctx.path.startsWith('/v1/') ? authenticateV1(ctx, next) : next(),
  );
  for (const router of routers.resources) app.use(router.routes());

  // Nothing answered: a path some route serves under another method is 405 with Allow (RFC 9110 § 15.5.6), anything
  // else 404. Decided here, once for every router: each router's own allowedMethods() runs only after the rest of
  // the chain, which throws this 404 first.
  app.use((ctx) => {
    const allowed = methodsServing(routers.served, ctx.path);
    if (allowed.length) throw methodNotAllowed(ctx.method, allowed);
    throw routeNotFound();
  });
  return app;
}

/** Every method some route serves at `path` (HEAD wherever GET is), in a stable order for the Allow header. */
export function methodsServing(routers: Router[], path: string): string[] {
  const methods = new Set<string>();
  for (const router of routers) {
    for (const layer of router.match(path, 'GET').path)
      for (const method of layer.methods) methods.add(method);
  }
  return [...methods].sort();
}
