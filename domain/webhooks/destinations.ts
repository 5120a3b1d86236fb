// Webhook destinations of a workspace: URL (checked when saved), description, the mailboxes they subscribe to, the
// signing secret and its rotation, and the active / paused / disabled switch (spec/webhooks.md § States).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as z from 'zod';
import { invalidBody, notFound } from '../errors.js';
import { isUuid } from '../uuid.js';
import { invalidTransition, invalidWebhookUrl, unknownMailboxes } from './errors.js';
import { EMAIL_RECEIVED } from './events.js';
import { newSecret, secretText, unwrapSecret, wrapSecret } from './secrets.js';
import { judgeTarget, type TargetPolicy } from './target.js';

type DestinationStatus = 'active' | 'paused' | 'disabled';

export interface Destination {
  uuid: string;
  workspace_uuid: string;
  url: string;
  description: string;
  status: DestinationStatus;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_failures: number;
  mailboxes: string[];
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DestinationDeps {
  masterKey: Buffer;
  policy: TargetPolicy;
}

const URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 1000;
export const MAILBOXES_MAX = 1000;

/**
 * The shape of a destination's fields, whoever gives them: the JSON admin API validates its body with these schemas,
 * and createDestination / updateDestination check their input with them again, so the admin app's form and the CLI
 * meet the same limits (issue 22 row 6: the form once stored 60,000 characters the API refused). The URL's own rules
 * are checkUrl's, also run for every caller.
 */
export const DestinationFieldsSchema = z.object({
  url: z.string(),
  description: z.string().max(DESCRIPTION_MAX_LENGTH).optional(),
  mailboxes: z.array(z.string()).max(MAILBOXES_MAX).optional(),
});
export const DestinationChangesSchema = DestinationFieldsSchema.partial();

/** 400 invalid_body naming the refused fields, as the JSON API answers a body its schema refuses. */
function checkFields<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.')))];
  throw invalidBody(`Invalid fields: ${fields.join(', ')}.`, { fields });
}

/** The URL rules at save: static rules, then the host's addresses now (spec/webhooks.md § URL rules 1 and 2). */
async function checkUrl(policy: TargetPolicy, url: string): Promise<string> {
  if (url.length > URL_MAX_LENGTH) throw invalidWebhookUrl(`longer than ${URL_MAX_LENGTH} characters`);
  const verdict = await judgeTarget(url, policy);
  if (!verdict.allowed) throw invalidWebhookUrl(verdict.reason);
  return verdict.url.toString();
}

/** A destination of the workspace (any workspace when none is given: the operator CLI), or 404. */
export async function findDestination(
  knex: Knex,
  uuid: string,
  workspaceUuid?: string,
  options: { forUpdate?: boolean } = {},
): Promise<Destination> {
  if (!isUuid(uuid)) throw notFound('No such webhook destination.');
  const query = knex('webhook_destinations').where({ uuid }).first();
  if (workspaceUuid) query.where({ workspace_uuid: workspaceUuid });
  const row = options.forUpdate ? await query.forUpdate() : await query;
  if (!row) throw notFound('No such webhook destination.');
  const mailboxes = await knex('webhook_subscriptions')
    .where({ destination_uuid: uuid })
    .orderBy('created_at')
    .orderBy('mailbox_uuid')
    .pluck('mailbox_uuid');
  return {
    uuid: row.uuid,
    workspace_uuid: row.workspace_uuid,
    url: row.url,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    consecutive_failures: row.consecutive_failures,
    mailboxes,
    previous_secret_expires_at:
      row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
        ? row.previous_secret_expires_at
        : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function listDestinations(knex: Knex, workspaceUuid: string): Promise<Destination[]> {
  const uuids: string[] = await knex('webhook_destinations')
    .where({ workspace_uuid: workspaceUuid })
    .orderBy('created_at')
    .pluck('uuid');
  return Promise.all(uuids.map((uuid) => findDestination(knex, uuid, workspaceUuid)));
}

/** One subscription per mailbox; each must be a mailbox of the destination's workspace. */
async function setSubscriptions(
  tx: Knex.Transaction,
  destination: { uuid: string; workspace_uuid: string },
  mailboxes: string[],
): Promise<void> {
  const wanted = [...new Set(mailboxes.map((uuid) => uuid.toLowerCase()))];
  const bad = wanted.filter((uuid) => !isUuid(uuid));
  const known: string[] = bad.length
    ? []
    : await tx('mailboxes')
        .where({ workspace_uuid: destination.workspace_uuid })
        .whereIn('uuid', wanted)
        .pluck('uuid');
  const unknown = wanted.filter((uuid) => !known.includes(uuid));
  if (unknown.length) throw unknownMailboxes(unknown);
  await tx('webhook_subscriptions')
    .where({ destination_uuid: destination.uuid })
    .whereNotIn('mailbox_uuid', wanted)
    .delete();
  if (wanted.length) {
    await tx('webhook_subscriptions')
      .insert(
        wanted.map((mailboxUuid) => ({
          workspace_uuid: destination.workspace_uuid,
          destination_uuid: destination.uuid,
          mailbox_uuid: mailboxUuid,
          event_type: EMAIL_RECEIVED,
        })),
      )
      .onConflict(['destination_uuid', 'mailbox_uuid', 'event_type'])
      .ignore();
  }
}

/** A new active destination with a fresh signing secret, answered once here in clear. */
export async function createDestination(
  tx: Knex.Transaction,
  deps: DestinationDeps,
  input: { workspaceUuid: string; url: string; description?: string; mailboxes?: string[] },
): Promise<{ destination: Destination; signingSecret: string }> {
  const fields = checkFields(DestinationFieldsSchema, input);
  if (
    !isUuid(input.workspaceUuid) ||
    !(await tx('workspaces').where({ uuid: input.workspaceUuid }).first('uuid'))
  )
    throw notFound('No such workspace.');
  const url = await checkUrl(deps.policy, fields.url);
  const uuid = randomUUID();
  const secret = newSecret();
  await tx('webhook_destinations').insert({
    uuid,
    workspace_uuid: input.workspaceUuid,
    url,
    description: fields.description ?? '',
    secret_wrapped: wrapSecret(deps.masterKey, uuid, secret),
  });
  await setSubscriptions(tx, { uuid, workspace_uuid: input.workspaceUuid }, fields.mailboxes ?? []);
  return { destination: await findDestination(tx, uuid), signingSecret: secretText(secret) };
}

/** Changes the URL (checked again), the description or the subscribed mailboxes; what is not given stays. */
export async function updateDestination(
  tx: Knex.Transaction,
  deps: DestinationDeps,
  target: { uuid: string; workspaceUuid?: string },
  changes: { url?: string; description?: string; mailboxes?: string[] },
): Promise<Destination> {
  checkFields(DestinationChangesSchema, changes);
  const destination = await findDestination(tx, target.uuid, target.workspaceUuid, { forUpdate: true });
  const update: Record<string, unknown> = { updated_at: tx.fn.now() };
  if (changes.url !== undefined) update.url = await checkUrl(deps.policy, changes.url);
  if (changes.description !== undefined) update.description = changes.description;
  await tx('webhook_destinations').where({ uuid: destination.uuid }).update(update);
  if (changes.mailboxes !== undefined) await setSubscriptions(tx, destination, changes.mailboxes);
  return findDestination(tx, destination.uuid);
}

export type StatusChange = 'pause' | 'resume' | 'enable';

/**
 * pause: active → paused. resume: paused → active. enable: disabled → active, with the counter reset and the reason
 * cleared. The same change twice is harmless; any other pair is 409 invalid_state. Events of the time in between
 * were never queued, so nothing is replayed.
 */
export async function changeDestinationStatus(
  tx: Knex.Transaction,
  target: { uuid: string; workspaceUuid?: string },
  change: StatusChange,
): Promise<Destination> {
  const destination = await findDestination(tx, target.uuid, target.workspaceUuid, { forUpdate: true });
  const [from, to]: [DestinationStatus, DestinationStatus] =
    change === 'pause'
      ? ['active', 'paused']
      : change === 'resume'
        ? ['paused', 'active']
        : ['disabled', 'active'];
  if (destination.status === to) return destination;
  if (destination.status !== from)
    throw invalidTransition(`A ${destination.status} destination cannot ${change}; it must be ${from}.`);
  const update: Record<string, unknown> = { status: to, updated_at: tx.fn.now() };
  if (change === 'enable')
    Object.assign(update, { disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
  await tx('webhook_destinations').where({ uuid: destination.uuid }).update(update);
  return findDestination(tx, destination.uuid);
}

/**
 * A new signing secret; the current one becomes the previous one and keeps signing (a second v1=) for `overlapMs`
 * (24 hours). Rotating again within the overlap drops the oldest. Answers the new secret once, in clear.
 */
export async function rotateSigningSecret(
  tx: Knex.Transaction,
  deps: { masterKey: Buffer; overlapMs: number },
  target: { uuid: string; workspaceUuid?: string },
): Promise<{ destination: Destination; signingSecret: string }> {
  const destination = await findDestination(tx, target.uuid, target.workspaceUuid, { forUpdate: true });
  const row = await tx('webhook_destinations').where({ uuid: destination.uuid }).first('secret_wrapped');
  const secret = newSecret();
  await tx('webhook_destinations')
    .where({ uuid: destination.uuid })
    .update({
      secret_wrapped: wrapSecret(deps.masterKey, destination.uuid, secret),
      previous_secret_wrapped: row.secret_wrapped,
      previous_secret_expires_at: tx.raw(`now() + (? * interval '1 millisecond')`, [deps.overlapMs]),
      updated_at: tx.fn.now(),
    });
  return { destination: await findDestination(tx, destination.uuid), signingSecret: secretText(secret) };
}

export type RevealedVia = 'admin_app' | 'api' | 'cli';

/**
 * The secrets in clear, for a workspace admin's reveal: the current one, and the previous one while it still signs.
 * Every reveal is recorded with who and how (the destination page lists them).
 */
export async function revealSigningSecrets(
  knex: Knex,
  masterKey: Buffer,
  target: { uuid: string; workspaceUuid?: string },
  by: { userUuid: string | null; via: RevealedVia },
): Promise<{ signingSecret: string; previousSigningSecret: string | null; previousExpiresAt: Date | null }> {
  const destination = await findDestination(knex, target.uuid, target.workspaceUuid);
  await knex('webhook_secret_reveals').insert({
    destination_uuid: destination.uuid,
    user_uuid: by.userUuid,
    via: by.via,
  });
  const row = await knex('webhook_destinations')
    .where({ uuid: destination.uuid })
    .first('secret_wrapped', 'previous_secret_wrapped');
  const previous = destination.previous_secret_expires_at && row.previous_secret_wrapped;
  return {
    signingSecret: unwrapSecret(masterKey, destination.uuid, row.secret_wrapped),
    previousSigningSecret: previous
      ? unwrapSecret(masterKey, destination.uuid, row.previous_secret_wrapped)
      : null,
    previousExpiresAt: previous ? destination.previous_secret_expires_at : null,
  };
}

export interface SecretReveal {
  user_uuid: string | null;
  email: string | null;
  via: RevealedVia;
  revealed_at: Date;
}

/** The most recent reveals of a destination's secret, newest first. */
export async function listSecretReveals(
  knex: Knex,
  destinationUuid: string,
  limit = 10,
): Promise<SecretReveal[]> {
  return knex('webhook_secret_reveals as r')
    .leftJoin('users as u', 'u.uuid', 'r.user_uuid')
    .where('r.destination_uuid', destinationUuid)
    .orderBy('r.id', 'desc')
    .limit(limit)
    .select('r.user_uuid', 'u.email', 'r.via', 'r.revealed_at');
}
