// @folio/client as a consumer gets it (issue 25): `npm pack` of clients/typescript, the tarball installed into a fresh
// project beside TypeScript 5.x and @types/node 20 (the repository's own pinned copies, linked: the test sends nothing
// off this machine), a consumer script typechecked there by the consumer's own tsc (strict, skipLibCheck off, so the
// package's .d.ts are checked too; once more with lib DOM, as a bundled browser or Electron app has it) and run with
// plain Node against the suite's stack: a chunked upload with progress, the folder listed, the bytes downloaded, a
// document created and edited, a typed error, a webhook destination created, an email read and a delivery's signature
// checked.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiUrl, makeWorkspace } from '../../support/api.js';
import { rememberBearerToken } from '../../support/log-scan.js';
import { deliver, emlMessage, makeAdmin, makeMailbox } from '../../support/mail.js';
import { deliveryEnded, eventIdOf } from '../../support/sentinels.js';
import { receiverPool } from '../../support/webhook-receivers.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENT_DIR = join(ROOT, 'clients/typescript');
/**
 * The consumer's toolchain, pinned in the root package.json: the TypeScript 5 line (as the `typescript-5` alias, beside
 * the project's own TypeScript) and the types of Node 20, the client's oldest engine.
 */
const TYPESCRIPT = `file:${join(ROOT, 'node_modules/typescript-5')}`;
const TYPES_NODE = `file:${join(ROOT, 'node_modules/@types/node')}`;
const INSTALL_TIMEOUT_MS = 600_000;

const receiver = receiverPool();
let scratch: string;
let project: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'folio-consumer-'));
  project = join(scratch, 'project');
  await mkdir(project);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The consumer's tsconfig: what `tsc --init` gives a Node ESM project, strict, with the libraries' types checked. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  include: ['consumer.ts'],
};

/** The same consumer checked with the DOM library as well (nothing emitted: the Node build above is what runs). */
const TSCONFIG_DOM = {
  extends: './tsconfig.json',
  compilerOptions: { lib: ['ES2022', 'DOM'], noEmit: true },
};

/**
 * The consumer's script. `setup` works the Drive, Documents and the admin API and prints what the test needs to send
 * an email; `verify` checks the delivery the test captured and reads the email it names. The @ts-expect-error lines
 * are the types' own test: the compile fails if the package's types let any of them through (TS2578).
 */
const CONSUMER = String.raw`
import {
  ApiError,
  FolioClient,
  verifyWebhook,
  WebhookVerificationError,
  type DriveFile,
  type ErrorCode,
  type Progress,
} from '@folio/client';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is not set');
  return value;
}

const folio = new FolioClient({ baseUrl: env('FOLIO_URL'), token: env('FOLIO_TOKEN') });

async function setup(): Promise<Record<string, unknown>> {
  const bytes = new TextEncoder().encode('A line from a consumer of @folio/client.\n'.repeat(5_000));
  const progress: Progress[] = [];
  const file: DriveFile = await folio.upload(
    { name: 'consumer-' + process.pid + '.txt', contentType: 'text/plain', size: bytes.length, source: bytes },
    { onProgress: (step) => progress.push(step) },
  );
  const root = await folio.api.listFiles();
  const downloaded = await folio.download(file.uuid);
  const again = await folio.api.getFile({ path: { uuid: file.uuid } });

  const document = await folio.api.createDocument({ body: { title: 'Consumer notes' } });
  const first = await folio.api.editDocumentContent({
    path: { uuid: document.uuid },
    body: {
      operations: [{ type: 'set_document', markdown: '# Notes\n\nDraft one.\n' }],
      batch_id: 'consumer-' + document.uuid,
    },
  });
  await folio.api.editDocumentContent({
    path: { uuid: document.uuid },
    body: { operations: [{ type: 'replace', find: 'Draft one', with: 'Final' }], base_revision: first.revision },
  });
  const content = await folio.api.getDocumentContent({ path: { uuid: document.uuid } });

  let failure: { status: number; code: ErrorCode | undefined; requestId: string | undefined } | undefined;
  try {
    await folio.api.getFile({ path: { uuid: '00000000-0000-4000-8000-000000000000' } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    failure = { status: error.status, code: error.code, requestId: error.requestId };
  }

  const destination = await folio.api.createWebhookDestination({
    body: { url: env('RECEIVER_URL'), mailboxes: [env('MAILBOX_UUID')] },
  });
  return {
    uploaded: file.file_size_bytes,
    progress: progress.map((step) => step.bytesDone),
    listed: root.files.some((item) => item.uuid === file.uuid),
    downloaded: Buffer.from(downloaded).equals(Buffer.from(bytes)),
    name: again.name,
    markdown: content.markdown,
    revision: content.revision,
    failure,
    destination: destination.uuid,
    secret: destination.signing_secret,
  };
}

async function verify(): Promise<Record<string, unknown>> {
  const body = Buffer.from(env('DELIVERY_BODY'), 'base64');
  const event = verifyWebhook(body, env('DELIVERY_SIGNATURE'), env('SIGNING_SECRET'));
  let tampered = 'accepted';
  try {
    verifyWebhook(Buffer.concat([body, Buffer.from(' ')]), env('DELIVERY_SIGNATURE'), env('SIGNING_SECRET'));
  } catch (error) {
    tampered = error instanceof WebhookVerificationError ? 'refused' : String(error);
  }
  const email = await folio.api.getEmail({ path: { uuid: event.data.email_uuid } });
  const deliveries = await folio.api.listWebhookDeliveries({
    path: { uuid: env('DESTINATION_UUID') },
    query: { state: 'done' },
  });
  return { type: event.type, subject: email.subject, tampered, deliveries: deliveries.data.length };
}

// The types at work: each line below must be refused by tsc.
async function misuse(): Promise<void> {
  // @ts-expect-error a path parameter is required
  await folio.api.getFile({ path: {} });
  // @ts-expect-error a title is a string
  await folio.api.createDocument({ body: { title: 42 } });
  // @ts-expect-error not an error code of the API
  const code: ErrorCode = 'no_such_code';
  // @ts-expect-error not an operation type
  await folio.api.editDocumentContent({ path: { uuid: 'x' }, body: { operations: [{ type: 'rewrite' }] } });
  void code;
}
void misuse;

const phase = process.argv[2];
const answer = phase === 'setup' ? await setup() : phase === 'verify' ? await verify() : undefined;
if (!answer) throw new Error('usage: node out/consumer.js setup|verify');
console.log(JSON.stringify(answer));
`;

/** npm in the consumer's project, with the test's own cache and nothing from the repository's configuration. */
const npm = (args: string[], cwd: string) =>
  run(
    'npm',
    [...args, '--cache', join(scratch, 'npm-cache'), '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd,
      timeout: INSTALL_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    },
  );

describe('@folio/client as an installed package', () => {
  it(
    'packs to compiled JavaScript and declarations, installs beside TypeScript 5 and @types/node 20, and typechecks a strict consumer, with and without lib DOM',
    { timeout: INSTALL_TIMEOUT_MS * 2 },
    async () => {
      // prepack builds dist/ with tsc, postpack removes it again.
      await npm(['pack', '--pack-destination', scratch], CLIENT_DIR);
      const [tarball] = (await readdir(scratch)).filter((name) => name.endsWith('.tgz'));
      expect(tarball).toBe('folio-client-0.1.0.tgz');
      const { stdout: listing } = await run('tar', ['-tzf', join(scratch, tarball!)]);
      const files = listing.trim().split('\n').sort();
      // What a consumer needs and nothing else: compiled modules, their declarations, the README, package.json.
      expect(files).toContain('package/dist/index.js');
      expect(files).toContain('package/dist/index.d.ts');
      expect(files).toContain('package/dist/operations.d.ts');
      expect(
        files.filter((name) => !/^package\/(dist\/[\w-]+\.(js|d\.ts)|README\.md|package\.json)$/.test(name)),
      ).toEqual([]);

      await writeFile(
        join(project, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
      await writeFile(join(project, 'consumer.ts'), CONSUMER);
      // --offline: everything comes from this machine (the tarball, and the toolchain linked from node_modules).
      await npm(
        ['install', '--offline', '--save-exact', TYPESCRIPT, TYPES_NODE, join(scratch, tarball!)],
        project,
      );
      const tsc = join(project, 'node_modules/typescript/bin/tsc');
      const { stdout: version } = await run(process.execPath, [tsc, '--version'], { cwd: project });
      expect(version.trim()).toBe('Version 5.9.3');
      const compile = (config: string) =>
        run(process.execPath, [tsc, '-p', config], { cwd: project }).then(
          () => '',
          (error: { stdout?: string }) => error.stdout ?? String(error),
        );
      expect(await compile('tsconfig.json')).toBe('');
      // A consumer that also has the DOM's types (a bundled app, Electron): fetch, Headers, BodyInit and the like are
      // then declared by both lib.dom and @types/node, and the package's declarations must agree with both.
      await writeFile(join(project, 'tsconfig.dom.json'), JSON.stringify(TSCONFIG_DOM, null, 2));
      expect(await compile('tsconfig.dom.json')).toBe('');
    },
  );

  it('runs with plain Node against the stack: Drive, Documents, a typed error, a destination, an email and its signed delivery', async () => {
    const target = await receiver('127.0.0.2');
    const workspace = await makeWorkspace();
    const admin = await makeAdmin(workspace);
    rememberBearerToken(admin.token);
    const mailbox = await makeMailbox(workspace.uuid, [admin.uuid]);
    const env = {
      ...process.env,
      FOLIO_URL: apiUrl(),
      FOLIO_TOKEN: admin.token,
      RECEIVER_URL: target.url(),
      MAILBOX_UUID: mailbox.uuid,
    };
    const consumer = async (phase: string, extra: Record<string, string> = {}) => {
      const { stdout } = await run(process.execPath, ['out/consumer.js', phase], {
        cwd: project,
        env: { ...env, ...extra },
      });
      return JSON.parse(stdout) as Record<string, any>;
    };

    const setup = await consumer('setup');
    expect(setup).toMatchObject({
      uploaded: 205_000,
      listed: true,
      downloaded: true,
      markdown: '# Notes\n\nFinal.',
      failure: { status: 404, code: 'not_found' },
    });
    expect(setup.name).toMatch(/^consumer-\d+\.txt$/);
    expect(setup.progress.at(-1)).toBe(205_000);
    expect(setup.failure.requestId).toMatch(/\S/);
    expect(setup.secret).toMatch(/\S{16,}/);

    const subject = `For the consumer ${Date.now()}`;
    const stored = await deliver(mailbox.uuid, emlMessage({ subject }));
    if (stored.outcome !== 'stored') throw new Error(`the email was not stored: ${stored.outcome}`);
    const [request] = await target.waitFor(1);
    // The delivery's workflow ended: its row is final before the consumer lists the destination's deliveries.
    await deliveryEnded(setup.destination, eventIdOf(stored));
    const verified = await consumer('verify', {
      DELIVERY_BODY: request!.raw.toString('base64'),
      DELIVERY_SIGNATURE: request!.headers['x-service-signature']!,
      SIGNING_SECRET: setup.secret,
      DESTINATION_UUID: setup.destination,
    });
    expect(verified).toEqual({ type: 'email.received', subject, tampered: 'refused', deliveries: 1 });

    // The same delivery with another secret is refused by the consumer's check.
    await expect(
      consumer('verify', {
        DELIVERY_BODY: request!.raw.toString('base64'),
        DELIVERY_SIGNATURE: request!.headers['x-service-signature']!,
        SIGNING_SECRET: `${setup.secret}x`,
        DESTINATION_UUID: setup.destination,
      }),
    ).rejects.toThrow(/no signature matches/);
  });
});
