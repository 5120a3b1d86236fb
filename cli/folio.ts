// The folio CLI. Every command takes --json and then prints exactly one JSON object on stdout: its answer, or
// `{"error": {code, message, status}}` when it fails. The exit code tells the class of a failure (cli/errors.ts,
// docs/cli.md § Exit codes).
//
// Each command group lives in its own module, imported only when its command runs (issue 12): `folio drive …`
// never loads knex, Temporal or the server's configuration, and `folio --help` loads none of them. The table
// below is the one place a group's name, its module and its help line are written.
import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { describeError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

type Register = (program: Command, output: Output) => void;

interface Group {
  description: string;
  /** Groups that open the database check the server's environment first and close the pool at the end. */
  server: boolean;
  load: () => Promise<Register>;
}

const operator = async () => (await import('./operator.js')).registerOperatorCommands;
const mail = async () => (await import('./mail.js')).registerMailCommands;
const webhooks = async () => (await import('./webhooks.js')).registerWebhookCommands;

const GROUPS: Record<string, Group> = {
  migrate: { description: 'Apply pending database migrations.', server: true, load: operator },
  workspace: { description: 'Workspaces and their storage pools.', server: true, load: operator },
  user: { description: 'People.', server: true, load: operator },
  token: { description: 'User access tokens.', server: true, load: operator },
  apikey: {
    description: 'Workspace API keys (refused by Drive, Documents and Email routes, which act for a person).',
    server: true,
    load: operator,
  },
  share: {
    description:
      'Sharing of Drive files and folders and of documents: grants and public links (docs/drive-sharing.md).',
    server: true,
    load: operator,
  },
  admin: {
    description: 'The admin app: sign-in links and sessions (docs/admin-app.md).',
    server: true,
    load: async () => (await import('./admin.js')).registerAdminCommands,
  },
  mailbox: {
    description: 'Mailboxes of a workspace, their members and filter rules (docs/webhooks.md).',
    server: true,
    load: mail,
  },
  email: {
    description: 'Store messages from .eml files (inbound SMTP does the same for live mail).',
    server: true,
    load: mail,
  },
  webhook: {
    description: 'Webhook destinations of a workspace (docs/webhooks.md).',
    server: true,
    load: webhooks,
  },
  delivery: {
    description: 'Deliveries in flight, one per (destination, event): docs/webhooks-on-call.md.',
    server: true,
    load: webhooks,
  },
  'master-key': {
    description:
      'Master keys: rotate every wrapped key to the current one, and see how far it got (docs/operations.md).',
    server: true,
    load: async () => (await import('./master-key.js')).registerMasterKeyCommands,
  },
  'push-client': {
    description: 'Server-managed push clients for Drive push subscriptions (docs/drive-push.md).',
    server: true,
    load: async () => (await import('./push.js')).registerPushCommands,
  },
  drive: {
    description:
      'Your Drive over the API by path or uuid: ls, mkdir, put, get, cat, mv, rm, sync (docs/cli.md).',
    server: false,
    load: async () => (await import('./drive.js')).registerDriveCommands,
  },
  docs: {
    description: 'Documents over the API: get, edit (FOLIO_URL, FOLIO_TOKEN).',
    server: false,
    load: async () => (await import('./docs.js')).registerDocsCommands,
  },
};

/** The group a command line names: `folio <group> …`, or `folio help <group>`. */
function groupOf(argv: string[]): string | undefined {
  const name = argv[0] === 'help' ? argv[1] : argv[0];
  return name !== undefined && Object.hasOwn(GROUPS, name) ? name : undefined;
}

async function main(argv: string[]): Promise<void> {
  const program = new Command('folio')
    .description('Operate a Folio installation, and use its Drive and Documents.')
    .version(packageJson.version, '-V, --version', 'print the version')
    .showHelpAfterError()
    // Commander's own failures (an unknown option, a missing argument) come to the catch below as usage errors.
    .exitOverride();
  const name = groupOf(argv.slice(2));
  const group = name ? GROUPS[name]! : undefined;
  if (group) {
    if (group.server) await import('../platform/check-config.js');
    const register = await group.load();
    register(program, output);
    // A module registers every command of its group; each takes its help line from the table.
    for (const command of program.commands)
      command.description(GROUPS[command.name()]?.description ?? command.description());
  } else {
    for (const [groupName, { description }] of Object.entries(GROUPS))
      program.command(groupName).description(description);
  }
  try {
    await program.parseAsync(argv);
  } finally {
    if (group?.server) await (await import('../platform/database.js')).closeDb();
  }
}

main(process.argv).catch((error) => {
  const json = process.argv.includes('--json');
  if (error instanceof CommanderError) {
    // Help and --version end here too, with code 0; commander has printed what it had to (help, version, error).
    if (error.exitCode === 0) process.exit(0);
    if (json)
      process.stdout.write(
        JSON.stringify({
          error: { code: 'usage', message: error.message.replace(/^error: /, ''), status: null },
        }) + '\n',
      );
    process.exit(EXIT.usage);
  }
  const { exitCode, answer } = describeError(error);
  process.stderr.write(`folio: ${answer.error.message}\n`);
  if (json) process.stdout.write(JSON.stringify(answer) + '\n');
  process.exit(exitCode);
});
