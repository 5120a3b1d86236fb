// The webhook pages: destinations, add / edit, one destination with its switch, secret and history. Each action is
// a form POST answered by a redirect (303) to the page that shows its result; the rules are the domain's, as for the
// JSON admin API (api/routes/admin/webhooks.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../../domain/errors.js';
import { listWorkspaceMailboxes } from '../../../domain/email/mailboxes.js';
import {
  attemptUuidOfDeliveryId,
  dailyStats,
  deliveryId,
  lastFinishedAttempts,
  listAttempts,
  listDeliveries,
  resendDelivery,
} from '../../../domain/webhooks/deliveries.js';
import { eventUuidOf, sendTestEvent } from '../../../domain/webhooks/events.js';
import { attemptsOf, retrySchedule } from '../../../domain/webhooks/schedule.js';
import {
  changeDestinationStatus,
  createDestination,
  DESCRIPTION_MAX_LENGTH,
  findDestination,
  listDestinations,
  listSecretReveals,
  MAILBOXES_MAX,
  revealSigningSecrets,
  rotateSigningSecret,
  updateDestination,
  type Destination,
  type StatusChange,
} from '../../../domain/webhooks/destinations.js';
import { pageContext, type AdminAppSettings } from '../session.js';
import {
  activityFragment,
  destinationPage,
  OUTCOME_FILTERS,
  type DestinationView,
  type HistoryFilters,
  type OutcomeFilter,
} from '../views/destination.js';
import {
  destinationFormPage,
  destinationsPage,
  NOTICES,
  type DestinationFormValues,
  type Notice,
} from '../views/destinations.js';
import { forbiddenPage } from '../views/sign-in.js';

const ATTEMPTS_PER_PAGE = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC day as the date input sends it (YYYY-MM-DD), or undefined for anything else (2026-02-30 included). */
function utcDay(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const day = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? undefined : day;
}

/**
 * The history's filters from the query string: an outcome, a range of UTC days (both ends included) and the page
 * cursor. A value the form could not have sent is refused with a reason, and the page answers 400 (docs/admin-app.md).
 */
function historyFilters(query: Record<string, string | string[] | undefined>): {
  filters: HistoryFilters;
  range: { outcome?: 'success' | 'failure' | 'pending'; from?: Date; until?: Date; after?: string };
  cursor?: string;
  error?: string;
} {
  const one = (name: string) => {
    const value = query[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  const filters: HistoryFilters = {};
  const range: ReturnType<typeof historyFilters>['range'] = {};
  const outcome = one('outcome');
  if (outcome) {
    if (!Object.hasOwn(OUTCOME_FILTERS, outcome))
      return { filters, range, error: 'Choose an outcome from the list.' };
    filters.outcome = outcome as OutcomeFilter;
    range.outcome = OUTCOME_FILTERS[filters.outcome].outcome;
  }
  for (const end of ['from', 'to'] as const) {
    const text = one(end);
    if (!text) continue;
    filters[end] = text;
    const day = utcDay(text);
    if (!day) return { filters, range, error: 'Write dates as YYYY-MM-DD.' };
    if (end === 'from') range.from = day;
    else range.until = new Date(day.getTime() + DAY_MS);
  }
  if (range.from && range.until && range.from >= range.until)
    return { filters, range, error: 'The start date is after the end date.' };
  const cursor = one('before');
  if (cursor) {
    range.after = attemptUuidOfDeliveryId(cursor);
    if (!range.after)
      return { filters, range, error: 'This page link is not valid: start from the newest attempts.' };
  }
  return { filters, range, cursor: cursor || undefined };
}
const noticeOf = (value: unknown): Notice | undefined =>
  typeof value === 'string' && value in NOTICES ? (value as Notice) : undefined;

function sessionOf(ctx: Context) {
  const session = ctx.state.adminSession;
  if (!session) throw new Error('requireSession runs first');
  return session;
}

/** The form's fields, whatever the browser sent: one checkbox arrives as a string, several as an array. */
function formValues(body: unknown): DestinationFormValues {
  const fields = (body ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const mailboxes = Array.isArray(fields.mailboxes)
    ? fields.mailboxes
    : fields.mailboxes === undefined
      ? []
      : [fields.mailboxes];
  return {
    url: text(fields.url),
    description: text(fields.description),
    mailboxes: mailboxes.filter((value): value is string => typeof value === 'string'),
  };
}

const FIELD_LIMITS: Record<string, { description?: string; mailboxes?: string }> = {
  description: {
    description: `This description is too long: at most ${DESCRIPTION_MAX_LENGTH.toLocaleString('en')} characters.`,
  },
  mailboxes: { mailboxes: `Choose at most ${MAILBOXES_MAX.toLocaleString('en')} mailboxes.` },
};

/** The domain's refusal, said next to the field it is about. */
function formErrors(error: unknown): {
  url?: string;
  description?: string;
  mailboxes?: string;
  form?: string;
} {
  if (!(error instanceof AppError)) throw error;
  if (error.code === 'invalid_url') return { url: `This URL is refused: ${String(error.extras.reason)}.` };
  if (error.code === 'unknown_mailboxes')
    return { mailboxes: 'Some of these mailboxes are no longer in this workspace.' };
  // The fields' shape, refused by the schemas the JSON API validates with (domain/webhooks/destinations.ts).
  if (error.code === 'invalid_body' && Array.isArray(error.extras.fields)) {
    const said = Object.assign(
      {},
      ...error.extras.fields.map((field) => FIELD_LIMITS[String(field).split('.')[0]!] ?? {}),
    );
    if (Object.keys(said).length) return said;
  }
  if (error.status >= 500) throw error;
  return { form: error.description };
}

export function webhookPagesRouter(settings: AdminAppSettings): Router {
  const router = new Router({ sensitive: true });
  const { db, runInTransaction, webhooks } = settings;
  const destinationDeps = { masterKey: webhooks.masterKey, policy: webhooks.policy };
  const mailboxes = (ctx: Context) => listWorkspaceMailboxes(db, sessionOf(ctx).workspaceUuid);
  const addresses = async (ctx: Context) =>
    new Map((await mailboxes(ctx)).map((mailbox) => [mailbox.uuid, mailbox.address]));

  /** The destination of the session's workspace named in the path; anything else is the same not-found page. */
  async function destinationIn(ctx: Context): Promise<Destination | undefined> {
    const uuid = ctx.params.uuid!;
    try {
      return await findDestination(db, uuid, sessionOf(ctx).workspaceUuid);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        ctx.status = 404;
        ctx.body = forbiddenPage(pageContext(ctx, settings)).text;
        return undefined;
      }
      throw error;
    }
  }

  /** The destination's history as the query string narrows it: filters, page, and the waiting deliveries' times. */
  async function historyView(ctx: Context, destination: Destination) {
    const { filters, range, cursor, error } = historyFilters(ctx.query);
    const attempts = error
      ? []
      : await listAttempts(db, destination.uuid, { limit: ATTEMPTS_PER_PAGE, ...range });
    const last = attempts.length === ATTEMPTS_PER_PAGE ? attempts[attempts.length - 1] : undefined;
    const waiting = await listDeliveries(db, { destinationUuid: destination.uuid, state: 'waiting' });
    const nextAttemptAt = new Map(
      waiting
        .filter((delivery) => delivery.next_attempt_at !== null)
        .map((delivery) => [
          `${delivery.event_uuid}/${delivery.round}`,
          { attempt: delivery.attempts, at: delivery.next_attempt_at! },
        ]),
    );
    if (error) ctx.status = 400;
    return {
      destination,
      stats: await dailyStats(db, destination.uuid, 7),
      attempts,
      attemptsPerDelivery: attemptsOf(retrySchedule(webhooks.retryDelaysMs)),
      nextAttemptAt,
      filters,
      filterError: error,
      cursor,
      nextCursor: last ? deliveryId(last.uuid) : null,
    };
  }

  async function renderDestination(
    ctx: Context,
    destination: Destination,
    extra: Partial<DestinationView> = {},
  ) {
    const history = await historyView(ctx, destination);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = destinationPage(pageContext(ctx, settings), {
      ...history,
      mailboxAddress: await addresses(ctx),
      reveals: await listSecretReveals(db, destination.uuid),
      notice: noticeOf(ctx.query.notice),
      ...extra,
    }).text;
  }

  const redirectTo = (ctx: Context, path: string, notice?: Notice) => {
    ctx.status = 303;
    ctx.redirect(`${settings.url.pathname.replace(/\/$/, '')}${path}${notice ? `?notice=${notice}` : ''}`);
  };

  router.get('/', (ctx) => redirectTo(ctx, '/webhooks'));

  router.get('/webhooks', async (ctx) => {
    const destinations = await listDestinations(db, sessionOf(ctx).workspaceUuid);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = destinationsPage(pageContext(ctx, settings), {
      destinations,
      lastAttempts: await lastFinishedAttempts(
        db,
        destinations.map((destination) => destination.uuid),
      ),
      mailboxAddress: await addresses(ctx),
      notice: noticeOf(ctx.query.notice),
    }).text;
  });

  router.get('/webhooks/new', async (ctx) => {
    ctx.body = destinationFormPage(pageContext(ctx, settings), {
      mode: 'new',
      values: { url: '', description: '', mailboxes: [] },
      errors: {},
      mailboxes: await mailboxes(ctx),
    }).text;
  });

  router.post('/webhooks', async (ctx) => {
    const values = formValues(ctx.request.body);
    const workspaceUuid = sessionOf(ctx).workspaceUuid;
    try {
      const created = await db.transaction((tx) =>
        createDestination(tx, destinationDeps, { workspaceUuid, ...values }),
      );
      redirectTo(ctx, `/webhooks/${created.destination.uuid}`, 'created');
    } catch (error) {
      // The form again, with the refusal next to its field: a page that rendered fine, so 200 (as Django's forms do).
      ctx.body = destinationFormPage(pageContext(ctx, settings), {
        mode: 'new',
        values,
        errors: formErrors(error),
        mailboxes: await mailboxes(ctx),
      }).text;
    }
  });

  router.get('/webhooks/:uuid', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (destination) await renderDestination(ctx, destination);
  });

  // The live parts of a destination's page, fetched again by its script while the tab is visible (admin.js).
  router.get('/webhooks/:uuid/activity', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const history = await historyView(ctx, destination);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = activityFragment(pageContext(ctx, settings), {
      ...history,
      mailboxAddress: new Map(),
      reveals: [],
    }).text;
  });

  router.get('/webhooks/:uuid/edit', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    ctx.body = destinationFormPage(pageContext(ctx, settings), {
      mode: 'edit',
      destinationUuid: destination.uuid,
      values: {
        url: destination.url,
        description: destination.description,
        mailboxes: destination.mailboxes,
      },
      errors: {},
      mailboxes: await mailboxes(ctx),
    }).text;
  });

  router.post('/webhooks/:uuid/edit', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const values = formValues(ctx.request.body);
    const target = { uuid: destination.uuid, workspaceUuid: destination.workspace_uuid };
    try {
      await db.transaction((tx) => updateDestination(tx, destinationDeps, target, values));
      redirectTo(ctx, `/webhooks/${destination.uuid}`, 'saved');
    } catch (error) {
      const page = {
        mode: 'edit' as const,
        destinationUuid: destination.uuid,
        values,
        errors: formErrors(error),
        mailboxes: await mailboxes(ctx),
      };
      ctx.body = destinationFormPage(pageContext(ctx, settings), page).text;
    }
  });

  const changes: Record<StatusChange, Notice> = { pause: 'paused', resume: 'resumed', enable: 'enabled' };
  for (const [change, notice] of Object.entries(changes) as [StatusChange, Notice][]) {
    router.post(`/webhooks/:uuid/${change}`, async (ctx) => {
      const destination = await destinationIn(ctx);
      if (!destination) return;
      const target = { uuid: destination.uuid, workspaceUuid: destination.workspace_uuid };
      try {
        await db.transaction((tx) => changeDestinationStatus(tx, target, change));
      } catch (error) {
        // A switch already in the wanted state (a double click, two tabs) shows the page as it is.
        if (!(error instanceof AppError && error.code === 'invalid_state')) throw error;
      }
      redirectTo(ctx, `/webhooks/${destination.uuid}`, notice);
    });
  }

  // A POST, so that each reveal is a deliberate act with a CSRF token, recorded with who and when.
  router.post('/webhooks/:uuid/secret', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const by = { userUuid: sessionOf(ctx).userUuid, via: 'admin_app' as const };
    const secrets = await revealSigningSecrets(
      db,
      webhooks.masterKey,
      { uuid: destination.uuid, workspaceUuid: destination.workspace_uuid },
      by,
    );
    await renderDestination(ctx, destination, { secrets });
  });

  router.post('/webhooks/:uuid/rotate-secret', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const deps = { masterKey: webhooks.masterKey, overlapMs: webhooks.secretOverlapMs };
    await db.transaction((tx) =>
      rotateSigningSecret(tx, deps, { uuid: destination.uuid, workspaceUuid: destination.workspace_uuid }),
    );
    redirectTo(ctx, `/webhooks/${destination.uuid}`, 'rotated');
  });

  // Extensions (docs/extensions.md § Webhooks). A refusal (not active, in flight, never sent) is said on the page.
  const refusedOr = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return false;
      throw error;
    }
  };

  router.post('/webhooks/:uuid/test', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const sent = await refusedOr(() => runInTransaction((unit) => sendTestEvent(unit, destination.uuid)));
    redirectTo(ctx, `/webhooks/${destination.uuid}`, sent ? 'test_sent' : 'test_refused');
  });

  router.post('/webhooks/:uuid/events/:event/resend', async (ctx) => {
    const destination = await destinationIn(ctx);
    if (!destination) return;
    const eventUuid = eventUuidOf(ctx.params.event ?? '');
    const sent =
      eventUuid !== undefined &&
      (await refusedOr(() =>
        runInTransaction((unit) => resendDelivery(unit, { destinationUuid: destination.uuid, eventUuid })),
      ));
    redirectTo(ctx, `/webhooks/${destination.uuid}`, sent ? 'resent' : 'resend_refused');
  });

  return router;
}
