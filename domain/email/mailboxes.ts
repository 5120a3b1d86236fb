// Mailboxes of a workspace: their address, the members who may read their mail, and their filter rules.
import type { Knex } from 'knex';
import { notFound } from '../errors.js';
import { isUuid } from '../uuid.js';
import { addressTaken, invalidAddress, invalidRule, notWorkspaceMember } from './errors.js';

export interface Mailbox {
  uuid: string;
  workspace_uuid: string;
  address: string;
  members: string[];
  created_at: Date;
}

export type RuleField = 'from' | 'to' | 'subject';
export const RULE_FIELDS: RuleField[] = ['from', 'to', 'subject'];

/** "<field> contains <text>" (case-insensitive) → delete the message outright, or add a label. */
export interface MailboxRule {
  uuid: string;
  mailbox_uuid: string;
  field: RuleField;
  contains: string;
  action: 'delete' | 'label';
  label: string | null;
  created_at: Date;
}

/** What applying a rule reads of it. */
export type RuleToApply = Pick<MailboxRule, 'uuid' | 'field' | 'contains' | 'action' | 'label'>;

const ADDRESS = /^[^@\s]+@[^@\s]+$/;

export async function findMailbox(
  knex: Knex,
  uuid: string,
  options: { forUpdate?: boolean } = {},
): Promise<Mailbox> {
  if (!isUuid(uuid)) throw notFound('No such mailbox.');
  const query = knex('mailboxes').where({ uuid }).first();
  const row = options.forUpdate ? await query.forUpdate() : await query;
  if (!row) throw notFound('No such mailbox.');
  const members = await knex('mailbox_members')
    .where({ mailbox_uuid: uuid })
    .orderBy('created_at')
    .pluck('user_uuid');
  return {
    uuid: row.uuid,
    workspace_uuid: row.workspace_uuid,
    address: row.address,
    members,
    created_at: row.created_at,
  };
}

/**
 * What sorting arriving mail needs of its mailbox, in one query: its workspace and its rules in order. Mail arrives far
 * more often than anything else here reads a mailbox, so this is not findMailbox followed by listMailboxRules.
 */
export async function mailboxForArrival(
  knex: Knex,
  uuid: string,
): Promise<{ uuid: string; workspace_uuid: string; rules: RuleToApply[] }> {
  if (!isUuid(uuid)) throw notFound('No such mailbox.');
  const row = await knex('mailboxes as m')
    .where('m.uuid', uuid)
    .first(
      'm.uuid',
      'm.workspace_uuid',
      knex.raw(`coalesce((select json_agg(json_build_object('uuid', r.uuid, 'field', r.field, 'contains', r.contains, 'action', r.action, 'label', r.label)
                                          order by r.created_at, r.uuid)
                            from mailbox_rules r where r.mailbox_uuid = m.uuid), '[]') as rules`),
    );
  if (!row) throw notFound('No such mailbox.');
  return row;
}

/** A workspace's mailboxes by address, those containing `search` when given (the admin app's picker). */
export async function listWorkspaceMailboxes(
  knex: Knex,
  workspaceUuid: string,
  search = '',
): Promise<{ uuid: string; address: string }[]> {
  const query = knex('mailboxes')
    .where({ workspace_uuid: workspaceUuid })
    .orderBy('address')
    .select('uuid', 'address');
  if (search) query.whereRaw('strpos(address, lower(?)) > 0', [search]);
  return query;
}

/** The mailbox an SMTP recipient names, or undefined: the ingress answers 550 for it. */
export async function findMailboxByAddress(
  knex: Knex,
  address: string,
): Promise<{ uuid: string; workspace_uuid: string } | undefined> {
  return knex('mailboxes').where({ address: address.trim().toLowerCase() }).first('uuid', 'workspace_uuid');
}

async function requireWorkspaceMember(knex: Knex, workspaceUuid: string, userUuid: string): Promise<void> {
  const member =
    isUuid(userUuid) &&
    (await knex('workspace_members')
      .where({ workspace_uuid: workspaceUuid, user_uuid: userUuid })
      .first('user_uuid'));
  if (!member) throw notWorkspaceMember(userUuid);
}

export async function createMailbox(
  tx: Knex.Transaction,
  input: { workspaceUuid: string; address: string; members?: string[] },
): Promise<Mailbox> {
  const address = input.address.trim().toLowerCase();
  if (!ADDRESS.test(address)) throw invalidAddress(input.address);
  if (
    !isUuid(input.workspaceUuid) ||
    !(await tx('workspaces').where({ uuid: input.workspaceUuid }).first('uuid'))
  ) {
    throw notFound('No such workspace.');
  }
  if (await tx('mailboxes').where({ address }).first('uuid')) throw addressTaken(address);
  const [row] = await tx('mailboxes')
    .insert({ workspace_uuid: input.workspaceUuid, address })
    .returning('uuid');
  for (const userUuid of input.members ?? []) await addMailboxMember(tx, row.uuid, userUuid);
  return findMailbox(tx, row.uuid);
}

/** Adding a member twice is harmless. */
export async function addMailboxMember(
  tx: Knex.Transaction,
  mailboxUuid: string,
  userUuid: string,
): Promise<Mailbox> {
  const mailbox = await findMailbox(tx, mailboxUuid, { forUpdate: true });
  await requireWorkspaceMember(tx, mailbox.workspace_uuid, userUuid);
  await tx('mailbox_members')
    .insert({ mailbox_uuid: mailboxUuid, user_uuid: userUuid })
    .onConflict(['mailbox_uuid', 'user_uuid'])
    .ignore();
  return findMailbox(tx, mailboxUuid);
}

/** Removing someone who is not a member is harmless; they stop reading the mailbox's mail at once. */
export async function removeMailboxMember(
  tx: Knex.Transaction,
  mailboxUuid: string,
  userUuid: string,
): Promise<Mailbox> {
  await findMailbox(tx, mailboxUuid, { forUpdate: true });
  if (isUuid(userUuid))
    await tx('mailbox_members').where({ mailbox_uuid: mailboxUuid, user_uuid: userUuid }).delete();
  return findMailbox(tx, mailboxUuid);
}

export async function addMailboxRule(
  tx: Knex.Transaction,
  input: {
    mailboxUuid: string;
    field: RuleField;
    contains: string;
    action: 'delete' | 'label';
    label?: string;
  },
): Promise<MailboxRule> {
  await findMailbox(tx, input.mailboxUuid);
  if (!RULE_FIELDS.includes(input.field)) throw invalidRule(`field must be one of ${RULE_FIELDS.join(', ')}`);
  if (!input.contains.trim()) throw invalidRule('contains must not be empty');
  if (input.action === 'label' && !input.label?.trim()) throw invalidRule('a label rule needs --label');
  if (input.action === 'delete' && input.label !== undefined)
    throw invalidRule('a delete rule takes no label');
  const [row] = await tx('mailbox_rules')
    .insert({
      mailbox_uuid: input.mailboxUuid,
      field: input.field,
      contains: input.contains.trim(),
      action: input.action,
      label: input.label?.trim() ?? null,
    })
    .returning('*');
  return row;
}

export async function removeMailboxRule(tx: Knex.Transaction, ruleUuid: string): Promise<boolean> {
  return isUuid(ruleUuid) && (await tx('mailbox_rules').where({ uuid: ruleUuid }).delete()) > 0;
}

export async function listMailboxRules(knex: Knex, mailboxUuid: string): Promise<MailboxRule[]> {
  await findMailbox(knex, mailboxUuid);
  return knex('mailbox_rules').where({ mailbox_uuid: mailboxUuid }).orderBy('created_at');
}

export interface RuleVerdict {
  /** The first delete rule that matched: the message is discarded. */
  deletedBy: string | null;
  /** Labels added by the label rules that matched, in rule order. */
  labels: string[];
}

/** Applies the rules in order: the first matching delete rule discards the message; label rules add labels. */
export function applyRules(
  rules: RuleToApply[],
  message: { from: string[]; to: string[]; subject: string | null },
): RuleVerdict {
  const labels: string[] = [];
  for (const rule of rules) {
    const haystack = rule.field === 'subject' ? [message.subject ?? ''] : message[rule.field];
    const matched = haystack.some((text) => text.toLowerCase().includes(rule.contains.toLowerCase()));
    if (!matched) continue;
    if (rule.action === 'delete') return { deletedBy: rule.uuid, labels: [] };
    if (rule.label && !labels.includes(rule.label)) labels.push(rule.label);
  }
  return { deletedBy: null, labels };
}
