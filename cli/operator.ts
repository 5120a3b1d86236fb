// Operator commands that work on the database directly: migrate, workspaces, users, tokens, API keys, sharing.
import { Command, InvalidArgumentError, Option } from 'commander';
import { issueAccessToken, issueApiKey, revokeAccessToken } from '../domain/accounts/credentials.js';
import { isScope, SCOPES, type Scope } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace, setStorageLimit } from '../domain/accounts/workspaces.js';
import { setEarlyAccess, showUser } from '../domain/accounts/early-access.js';
import { createEditorSignInLink, editorSignInUrl } from '../domain/accounts/editor-sessions.js';
import { presentAccess, presentPublicLink } from '../api/presenters/drive-sharing.js';
import {
  GRANT_ROLES,
  acceptGrant,
  createPublicLink,
  grantAccess,
  removePublicLink,
  revokeGrant,
  type GrantPrincipal,
} from '../domain/drive/sharing.js';
import type { ItemKind } from '../domain/drive/rows.js';
import { grantDocumentAccess, revokeDocumentGrant } from '../domain/documents/grants.js';
import type { GrantRole } from '../domain/roles.js';
import { isUuid } from '../domain/uuid.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';
import type { Output } from './output.js';
import { everyApiProcessHeard } from '../platform/process-session.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new InvalidArgumentError('must be a positive integer');
  return number;
}

function scopeList(value: string): Scope[] {
  const scopes = value
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length || !scopes.length) {
    throw new InvalidArgumentError(
      `unknown scope ${unknown.join(', ') || '(none)'}; known: ${SCOPES.join(', ')}`,
    );
  }
  return scopes as Scope[];
}

// Not .choices(): operators (and the sharing tests) read "must be one of …", which commander's own message is not.
function grantRole(value: string): GrantRole {
  if (!(GRANT_ROLES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${GRANT_ROLES.join(', ')}`);
  return value as GrantRole;
}

/** Exactly one of --file, --folder (and, for grants, --document) names what is shared. */
function shareTarget(options: { file?: string; folder?: string; document?: string }): {
  kind: ItemKind | 'document';
  uuid: string;
} {
  const given = (['file', 'folder', 'document'] as const).filter((key) => options[key] !== undefined);
  if (given.length !== 1)
    throw new Error('Name exactly one item: --file ID or --folder ID (or, for a grant, --document ID).');
  return { kind: given[0]!, uuid: options[given[0]!]! };
}

function driveTarget(options: { file?: string; folder?: string }): { kind: ItemKind; uuid: string } {
  const target = shareTarget(options);
  if (target.kind === 'document') throw new Error('A public link is for a --file or a --folder.');
  return { kind: target.kind, uuid: target.uuid };
}

/** A link's token is sealed under the master key, and shown with the address links live under. */
const publicLinkKeys = () => ({ publicUrl: config().publicUrl, masterKey: config().masterKey });

const isDocumentGrant = async (uuid: string) =>
  isUuid(uuid) && Boolean(await db()('document_grants').where({ uuid }).first('uuid'));

function sharePrincipal(options: { user?: string; workspace?: string }): GrantPrincipal {
  if ((options.user === undefined) === (options.workspace === undefined))
    throw new Error('Name exactly one principal: --user U or --workspace WS.');
  return options.user !== undefined
    ? { type: 'user', userUuid: options.user }
    : { type: 'workspace', workspaceUuid: options.workspace! };
}

export function registerOperatorCommands(program: Command, output: Output): void {
  program
    .command('migrate')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      // Imported here: every migration module loads with it, and no other command needs them.
      const { migrateLatest } = await import('../db/migrate.js');
      output({ applied: await migrateLatest(db()) }, options);
    });

  const workspace = program.command('workspace');
  workspace
    .command('create')
    .description('Create a workspace.')
    .requiredOption('--name <name>', 'workspace name')
    .option(
      '--storage-limit <bytes>',
      'storage pool in bytes (default FOLIO_DEFAULT_STORAGE_LIMIT)',
      positiveInteger,
    )
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(
        await createWorkspace(db(), {
          name: options.name,
          storageLimitBytes: options.storageLimit ?? config().defaultStorageLimit,
        }),
        options,
      );
    });
  workspace
    .command('set-storage-limit')
    .description("Change a workspace's storage pool.")
    .argument('<workspace>', 'workspace uuid')
    .argument('<bytes>', 'new pool size in bytes', positiveInteger)
    .option('--json', 'print one JSON object')
    .action(async (workspaceUuid: string, bytes: number, options) => {
      if (!(await setStorageLimit(db(), workspaceUuid, bytes)))
        throw new Error(`No workspace ${workspaceUuid}`);
      output({ uuid: workspaceUuid, storage_limit_bytes: bytes }, options);
    });

  const user = program.command('user');
  user
    .command('create')
    .description('Create a user in a workspace (an existing email is added to the workspace).')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .requiredOption('--email <email>', 'email address')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--admin', 'workspace administrator')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(
        await createUser(db(), {
          workspaceUuid: options.workspace,
          email: options.email,
          firstName: options.firstName,
          lastName: options.lastName,
          admin: Boolean(options.admin),
        }),
        options,
      );
    });

  user
    .command('show')
    .description("A user's account: names, workspaces, and whether the editor app is open to them.")
    .requiredOption('--user <uuid or email>', 'the user')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(await showUser(db(), options.user), options);
    });
  user
    .command('early-access')
    .description('Open the document editor app (in preview) to a user, or close it (docs/editor.md).')
    .requiredOption('--user <uuid or email>', 'the user')
    .addOption(new Option('--on', 'give early access').conflicts('off'))
    .addOption(new Option('--off', 'take early access away').conflicts('on'))
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      if (!options.on && !options.off) throw new Error('Say --on or --off.');
      output(await setEarlyAccess(db(), options.user, Boolean(options.on)), options);
    });
  user
    .command('sign-in-link')
    .description('Print a one-time sign-in link to the document editor app (valid 15 minutes, single use).')
    .requiredOption('--user <uuid or email>', 'the user')
    .option('--document <uuid>', 'open this document once signed in')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      if (options.document !== undefined && !isUuid(options.document))
        throw new Error('--document must be a document uuid.');
      const link = await createEditorSignInLink(db(), options.user);
      output(
        {
          url: editorSignInUrl(config().docsUrl, link.token, options.document),
          expires_at: link.expiresAt.toISOString(),
          user_uuid: link.userUuid,
          email: link.email,
        },
        options,
      );
    });

  const token = program.command('token');
  token
    .command('issue')
    .description('Issue an access token for a user in a workspace.')
    .requiredOption('--user <uuid>', 'user uuid')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(',')}`, scopeList)
    .option('--expires-in <seconds>', 'lifetime in seconds (default FOLIO_TOKEN_TTL)', positiveInteger)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const expiresInMs = options.expiresIn ? options.expiresIn * 1000 : config().tokenTtlMs;
      output(
        await issueAccessToken(db(), {
          userUuid: options.user,
          workspaceUuid: options.workspace,
          scopes: options.scopes,
          expiresInMs,
        }),
        options,
      );
    });
  token
    .command('revoke')
    .description(
      'Revoke an access token: returns once every running API process has forgotten it (at most 5 seconds), so its next request is refused.',
    )
    .argument('<token>', 'the access token')
    .option('--json', 'print one JSON object')
    .action(async (secret: string, options) => {
      output({ revoked: await revokeAccessToken(db(), secret, everyApiProcessHeard) }, options);
    });

  program
    .command('apikey')
    .command('issue')
    .description('Issue a workspace API key.')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(await issueApiKey(db(), options.workspace), options);
    });

  const share = program.command('share');
  share
    .command('grant')
    .description(
      'Give a user, or every member of the workspace, a role on a file, a folder (and its subtree) or a document.',
    )
    .option('--file <uuid>', 'file uuid')
    .option('--folder <uuid>', 'folder uuid')
    .option('--document <uuid>', 'document uuid')
    .option('--user <uuid>', "a user of the item's workspace")
    .option('--workspace <uuid>', "the item's workspace: every member")
    .requiredOption('--role <role>', GRANT_ROLES.join(', '), grantRole)
    .addOption(
      new Option('--status <status>', 'pending (no access until accepted) or accepted')
        .choices(['pending', 'accepted'])
        .default('accepted'),
    )
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const target = shareTarget(options);
      const principal = sharePrincipal(options);
      if (target.kind === 'document') {
        // Documents keep their own grants (domain/documents/grants.ts).
        const documentGrant = await grantDocumentAccess(db(), {
          documentUuid: target.uuid,
          ...(principal.type === 'user'
            ? { principalUserUuid: principal.userUuid }
            : { principalWorkspaceUuid: principal.workspaceUuid }),
          role: options.role,
          status: options.status,
        });
        output({ uuid: documentGrant.uuid }, options);
        return;
      }
      const kind = target.kind;
      const grant = await db().transaction((tx) =>
        grantAccess(tx, {
          itemUuid: target.uuid,
          kind,
          principal,
          role: options.role,
          status: options.status,
        }),
      );
      output({ uuid: grant.uuid }, options);
    });
  share
    .command('accept')
    .description('Accept a pending grant: it starts giving access.')
    .argument('<grant>', 'grant uuid')
    .option('--json', 'print one JSON object')
    .action(async (grantUuid: string, options) => {
      if (await isDocumentGrant(grantUuid)) {
        throw new Error(
          'share accept is for file and folder grants; run share grant --document … --status accepted again for a document.',
        );
      }
      output(presentAccess(await db().transaction((tx) => acceptGrant(tx, grantUuid))), options);
    });
  share
    .command('revoke')
    .description('Revoke a grant: it stops giving access at once. Revoking twice is harmless.')
    .argument('<grant>', 'grant uuid')
    .option('--json', 'print one JSON object')
    .action(async (grantUuid: string, options) => {
      if (await isDocumentGrant(grantUuid)) {
        await revokeDocumentGrant(db(), grantUuid);
        output({ uuid: grantUuid, status: 'revoked' }, options);
        return;
      }
      output(presentAccess(await db().transaction((tx) => revokeGrant(tx, grantUuid))), options);
    });
  share
    .command('link')
    .description("Create the item's public link (or show the one it has).")
    .option('--file <uuid>', 'file uuid')
    .option('--folder <uuid>', 'folder uuid')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const target = driveTarget(options);
      const link = await db().transaction((tx) =>
        createPublicLink(tx, { itemUuid: target.uuid, kind: target.kind }, publicLinkKeys()),
      );
      output(presentPublicLink(link), options);
    });
  share
    .command('unlink')
    .description("Remove the item's public link: its url stops working at once. A new link gets a new url.")
    .option('--file <uuid>', 'file uuid')
    .option('--folder <uuid>', 'folder uuid')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const target = driveTarget(options);
      const removed = await db().transaction((tx) =>
        removePublicLink(tx, { itemUuid: target.uuid, kind: target.kind }, publicLinkKeys()),
      );
      output({ removed: removed ? presentPublicLink(removed) : null }, options);
    });
}
