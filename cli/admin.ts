// Operator commands for the admin app (docs/admin-app.md): a one-time sign-in link for a workspace admin, and the
// sessions that links started (list, revoke).
import type { Command } from 'commander';
import { presentAdminSession } from '../api/presenters/admin-sessions.js';
import {
  createSignInLink,
  endSession,
  endUserSessions,
  listSessions,
  signInUrl,
} from '../domain/admin/sessions.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';

import type { Output } from './output.js';

export function registerAdminCommands(program: Command, output: Output): void {
  const admin = program.command('admin');

  admin
    .command('sign-in-link')
    .description('Print a one-time sign-in link for a workspace admin (valid 15 minutes, single use).')
    .requiredOption('--user <uuid or email>', 'the admin')
    .option('--workspace <uuid>', 'the workspace, when the user administers several')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const link = await createSignInLink(db(), { user: options.user, workspaceUuid: options.workspace });
      output(
        {
          url: signInUrl(config().admin.url, link.token),
          expires_at: link.expiresAt.toISOString(),
          user_uuid: link.userUuid,
          workspace_uuid: link.workspaceUuid,
          email: link.email,
        },
        options,
      );
    });

  const sessions = admin.command('sessions').description('Admin app sessions.');
  sessions
    .command('list')
    .description('Live sessions, newest first (--all: ended ones too, kept 30 days).')
    .option('--user <uuid or email>', "only this user's")
    .option('--all', 'include sessions that ended')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(
        {
          object: 'list',
          data: (await listSessions(db(), { user: options.user, all: options.all })).map(presentAdminSession),
        },
        options,
      );
    });
  sessions
    .command('revoke')
    .description(
      'End a session now (or every session of --user); the browser is signed out on its next request.',
    )
    .argument('[session]', 'session uuid')
    .option('--user <uuid>', 'end every live session of this user')
    .option('--json', 'print one JSON object')
    .action(async (session: string | undefined, options) => {
      if ((session === undefined) === (options.user === undefined))
        throw new Error('Name a session uuid or --user, not both.');
      const revoked =
        session !== undefined
          ? Number(await endSession(db(), session, 'revoked'))
          : await endUserSessions(db(), options.user);
      output({ revoked }, options);
    });
}
