// Operator commands for mail in: mailboxes, their members and filter rules, and storing a message from a file.
import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { presentMailbox, presentMailboxRule, presentStoreResult } from '../api/presenters/email.js';
import {
  addMailboxMember,
  addMailboxRule,
  createMailbox,
  findMailbox,
  listMailboxRules,
  removeMailboxMember,
  removeMailboxRule,
  RULE_FIELDS,
  type RuleField,
} from '../domain/email/mailboxes.js';
import { storeEmail, type EmailKind } from '../domain/email/messages.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';
import { S3ObjectStore } from '../platform/object-store.js';
import { bucket, ensureBucket, storage } from '../platform/storage.js';
import { closeTemporalClient } from '../platform/temporal.js';
import { workflowClient } from '../workflows/client.js';

import type { Output } from './output.js';

function ruleField(value: string): RuleField {
  if (!(RULE_FIELDS as string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${RULE_FIELDS.join(', ')}`);
  return value as RuleField;
}

/** Stores the file's message; a delivered one starts its webhook deliveries after the commit. */
async function storeFromFile(options: { mailbox: string; eml: string; spam?: boolean }, kind: EmailKind) {
  const settings = config();
  await ensureBucket();
  try {
    return await storeEmail(
      {
        db: db(),
        store: new S3ObjectStore(storage(), bucket()),
        masterKey: settings.masterKey,
        maxBytes: settings.smtp.maxBytes,
        runInTransaction: workflowClient().runInTransaction(db()),
      },
      { mailboxUuid: options.mailbox, raw: await readFile(options.eml), kind, markedSpam: options.spam },
    );
  } finally {
    await closeTemporalClient();
  }
}

export function registerMailCommands(program: Command, output: Output): void {
  const mailbox = program.command('mailbox');
  mailbox
    .command('create')
    .description('Create a mailbox with an address; members may read its mail.')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .requiredOption('--address <address>', 'the address mail arrives for')
    .option('--member <uuid...>', 'users of the workspace who read the mailbox')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const created = await db().transaction((tx) =>
        createMailbox(tx, {
          workspaceUuid: options.workspace,
          address: options.address,
          members: options.member,
        }),
      );
      output({ uuid: created.uuid }, options);
    });
  mailbox
    .command('show')
    .description('Show a mailbox and its members.')
    .argument('<mailbox>', 'mailbox uuid')
    .option('--json', 'print one JSON object')
    .action(async (mailboxUuid: string, options) =>
      output(presentMailbox(await findMailbox(db(), mailboxUuid)), options),
    );
  mailbox
    .command('add-member')
    .description('Let a user of the workspace read the mailbox.')
    .argument('<mailbox>', 'mailbox uuid')
    .argument('<user>', 'user uuid')
    .option('--json', 'print one JSON object')
    .action(async (mailboxUuid: string, userUuid: string, options) =>
      output(
        presentMailbox(await db().transaction((tx) => addMailboxMember(tx, mailboxUuid, userUuid))),
        options,
      ),
    );
  mailbox
    .command('remove-member')
    .description('Stop a user reading the mailbox.')
    .argument('<mailbox>', 'mailbox uuid')
    .argument('<user>', 'user uuid')
    .option('--json', 'print one JSON object')
    .action(async (mailboxUuid: string, userUuid: string, options) =>
      output(
        presentMailbox(await db().transaction((tx) => removeMailboxMember(tx, mailboxUuid, userUuid))),
        options,
      ),
    );
  mailbox
    .command('add-rule')
    .description(
      'Add a filter rule: when FIELD contains TEXT (case-insensitive), delete the message outright or label it.',
    )
    .argument('<mailbox>', 'mailbox uuid')
    .requiredOption('--field <field>', RULE_FIELDS.join(', '), ruleField)
    .requiredOption('--contains <text>', 'text to look for')
    .option('--delete', 'discard the message: it is not stored and fires no webhook')
    .option('--label <label>', 'add this label')
    .option('--json', 'print one JSON object')
    .action(async (mailboxUuid: string, options) => {
      if (Boolean(options.delete) === (options.label !== undefined))
        throw new Error('Give exactly one action: --delete or --label LABEL.');
      const rule = await db().transaction((tx) =>
        addMailboxRule(tx, {
          mailboxUuid,
          field: options.field,
          contains: options.contains,
          action: options.delete ? 'delete' : 'label',
          label: options.label,
        }),
      );
      output(presentMailboxRule(rule), options);
    });
  mailbox
    .command('rules')
    .description("List a mailbox's filter rules in the order they apply.")
    .argument('<mailbox>', 'mailbox uuid')
    .option('--json', 'print one JSON object')
    .action(async (mailboxUuid: string, options) =>
      output({ data: (await listMailboxRules(db(), mailboxUuid)).map(presentMailboxRule) }, options),
    );
  mailbox
    .command('remove-rule')
    .description('Remove a filter rule.')
    .argument('<rule>', 'rule uuid')
    .option('--json', 'print one JSON object')
    .action(async (ruleUuid: string, options) =>
      output({ removed: await db().transaction((tx) => removeMailboxRule(tx, ruleUuid)) }, options),
    );

  const email = program.command('email');
  email
    .command('deliver')
    .description(
      'Deliver a message to a mailbox as if it arrived over SMTP; fires email.received unless spam or deleted by a rule.',
    )
    .requiredOption('--mailbox <uuid>', 'mailbox uuid')
    .requiredOption('--eml <file>', 'the RFC 5322 message')
    .option('--spam', 'the upstream filter classified it as spam (as X-Spam-Flag: YES does)')
    .option('--json', 'print one JSON object')
    .action(async (options) =>
      output(presentStoreResult(await storeFromFile(options, 'delivered')), options),
    );
  email
    .command('import')
    .description(
      'Copy a message into a mailbox (a migration): stored, never fires a webhook, no rules applied.',
    )
    .requiredOption('--mailbox <uuid>', 'mailbox uuid')
    .requiredOption('--eml <file>', 'the RFC 5322 message')
    .option('--json', 'print one JSON object')
    .action(async (options) => output(presentStoreResult(await storeFromFile(options, 'imported')), options));
  email
    .command('draft')
    .description(
      'Save a draft in a mailbox, as a mail client would: stored with the draft label, never fires a webhook.',
    )
    .requiredOption('--mailbox <uuid>', 'mailbox uuid')
    .requiredOption('--eml <file>', 'the RFC 5322 message')
    .option('--json', 'print one JSON object')
    .action(async (options) => output(presentStoreResult(await storeFromFile(options, 'draft')), options));
}
