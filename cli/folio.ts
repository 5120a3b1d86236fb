// The operator CLI. Every command takes --json and then prints exactly one JSON object on stdout.
import '../platform/check-config.js';
import { Command, InvalidArgumentError } from 'commander';
import { issueAccessToken, issueApiKey, revokeAccessToken } from '../domain/accounts/credentials.js';
import { isScope, SCOPES, type Scope } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace, setStorageLimit } from '../domain/accounts/workspaces.js';
import { migrateLatest } from '../db/migrate.js';
import { config } from '../platform/config.js';
import { closeDb, db } from '../platform/database.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

function scopeList(value: string): Scope[] {
  const scopes = value.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length || !scopes.length) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none)'}; known: ${SCOPES.join(', ')}`);
  }
  return scopes as Scope[];
}

/** Prints the result as one JSON object with --json, else as readable lines. */
function output(result: object, options: { json?: boolean }) {
  if (options.json) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}

export function buildProgram(): Command {
  const program = new Command('folio').description('Operate a Folio installation.').showHelpAfterError();

  program
    .command('migrate')
    .description('Apply pending database migrations.')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output({ applied: await migrateLatest(db()) }, options);
    });

  const workspace = program.command('workspace').description('Workspaces and their storage pools.');
  workspace
    .command('create')
    .description('Create a workspace.')
    .requiredOption('--name <name>', 'workspace name')
    .option('--storage-limit <bytes>', 'storage pool in bytes (default FOLIO_DEFAULT_STORAGE_LIMIT)', positiveInteger)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(await createWorkspace(db(), { name: options.name, storageLimitBytes: options.storageLimit ?? config().defaultStorageLimit }), options);
    });
  workspace
    .command('set-storage-limit')
    .description("Change a workspace's storage pool.")
    .argument('<workspace>', 'workspace uuid')
    .argument('<bytes>', 'new pool size in bytes', positiveInteger)
    .option('--json', 'print one JSON object')
    .action(async (workspaceUuid: string, bytes: number, options) => {
      if (!(await setStorageLimit(db(), workspaceUuid, bytes))) throw new Error(`No workspace ${workspaceUuid}`);
      output({ uuid: workspaceUuid, storage_limit_bytes: bytes }, options);
    });

  program
    .command('user')
    .description('People.')
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

  const token = program.command('token').description('User access tokens.');
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
        await issueAccessToken(db(), { userUuid: options.user, workspaceUuid: options.workspace, scopes: options.scopes, expiresInMs }),
        options,
      );
    });
  token
    .command('revoke')
    .description('Revoke an access token.')
    .argument('<token>', 'the access token')
    .option('--json', 'print one JSON object')
    .action(async (secret: string, options) => {
      output({ revoked: await revokeAccessToken(db(), secret) }, options);
    });

  program
    .command('apikey')
    .description('Workspace API keys (refused by Drive, Documents and Email routes, which act for a person).')
    .command('issue')
    .description('Issue a workspace API key.')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      output(await issueApiKey(db(), options.workspace), options);
    });

  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .then(closeDb)
  .catch(async (error) => {
    process.stderr.write(`folio: ${error instanceof Error ? error.message : String(error)}\n`);
    await closeDb();
    process.exit(1);
  });
