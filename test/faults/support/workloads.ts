// The work the fault suite runs while it kills things: each workload prepares what it needs, runs as a client would
// (retrying what a fault interrupted), and checks its own outcome afterwards. docs/faults.md § Workloads.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import sharp from 'sharp';
import { expect } from 'vitest';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { temporalClient } from '../../../platform/temporal.js';
import { documentTrashChangedSignal } from '../../../workflows/documents.js';
import { documentPurgeWorkflowId } from '../../../workflows/ids.js';
import { makeFolder, makeUser, makeWorkspace, type TestUser } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { startReceiver, type Receiver } from '../../support/webhook-receivers.js';
import { draw, retrying, sleep } from './chaos.js';
import {
  callRetrying,
  chunkedUploadRetrying,
  FeedReader,
  fileName,
  readContent,
  replaceRetrying,
  simpleUploadRetrying,
  type Attempts,
} from './drive-client.js';
import { feedIsGapFree, NeverSettles, settles } from './invariants.js';
import { settleDeadlineMs } from './scale.js';

const MiB = 1024 * 1024;

export interface Workload {
  name: string;
  /** The client's work, through whatever faults are injected meanwhile. */
  run(): Promise<void>;
  /** The workload's own outcome, once the faults stopped and the stack's invariants hold. */
  check(): Promise<void>;
  /** Figures for the log and docs/faults.md. */
  summary(): Record<string, unknown>;
  /** Releases what it holds (listening sockets), whatever happened. */
  close?(): Promise<void>;
}

/** Runs task(0..count-1), `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

// --- Uploads and replacements ------------------------------------------------------------------------------------

/** `count` new files, simple or chunked (one in eight spans two 8 MiB chunks), each replaced up to twice. */
export async function uploadsWorkload(seed: number, count: number): Promise<Workload> {
  const size = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 300_000 }), weight: 7 },
    { arbitrary: fc.integer({ min: 8 * MiB + 1, max: 8 * MiB + 200_000 }), weight: 1 },
  );
  const plans = draw(
    fc.record({
      chunked: fc.boolean(),
      size,
      replacements: fc.array(fc.integer({ min: 1, max: 300_000 }), { maxLength: 2 }),
    }),
    seed,
    count,
  );
  const user = await makeUser();
  const reader = new FeedReader(user);
  const attempts: Attempts = { restarts: 0 };
  const finished = new Map<string, Buffer>();
  return {
    name: 'uploads',
    async run() {
      reader.start();
      await pool(count, 3, async (index) => {
        const plan = plans[index]!;
        let content = randomBytes(plan.size);
        const name = fileName(`upload-${index}`);
        // The simple route takes the whole file in its JSON body; a file of two chunks goes chunked.
        const chunked = plan.chunked || plan.size > 8 * MiB;
        const uuid = chunked
          ? await chunkedUploadRetrying(user, name, content, attempts)
          : await simpleUploadRetrying(user, name, content);
        for (const replacementSize of plan.replacements) {
          content = randomBytes(replacementSize);
          await replaceRetrying(user, uuid, content, attempts);
        }
        finished.set(uuid, content);
      });
      await reader.stop();
    },
    async check() {
      for (const [uuid, content] of finished)
        expect((await readContent(user, uuid)).equals(content), `content of ${uuid}`).toBe(true);
      // Exactly the files the client finished are there; every other upload it began was cleaned up.
      const completed = await db()('drive_items')
        .where({ workspace_uuid: user.workspaceUuid, upload_status: 'completed' })
        .pluck('uuid');
      expect(completed.sort()).toEqual([...finished.keys()].sort());
      expect(await feedIsGapFree(reader, user.workspaceUuid)).toEqual([]);
    },
    summary: () => ({
      files: count,
      replacements: plans.reduce((sum, plan) => sum + plan.replacements.length, 0),
      restarted: attempts.restarts,
      feedEntries: reader.seen.length,
    }),
  };
}

// --- A tree trashed, restored and deleted ------------------------------------------------------------------------

/** `count` items in their parents (version 1, no change rows), written straight to the table; answers their uuids. */
async function insertChildren(
  user: TestUser,
  parents: string[],
  kind: 'file' | 'folder',
  perParent: number,
  depth: number,
): Promise<string[]> {
  const { rows } = await db().raw(
    `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
     select ?, ?, ?, p.uuid, ? || n, ?, ?, ?, ? from unnest(?::uuid[]) as p(uuid), generate_series(1, ?) n returning uuid`,
    [
      user.workspaceUuid,
      user.uuid,
      kind,
      `${kind}-`,
      kind === 'file' ? 'application/octet-stream' : null,
      kind === 'file' ? 16 : null,
      kind === 'file' ? 'completed' : null,
      depth,
      `{${parents.join(',')}}`,
      perParent,
    ],
  );
  return rows.map((row: { uuid: string }) => row.uuid);
}

/**
 * A folder of about `count` descendants (10 folders of 9 folders of files), every file with a live version whose
 * object is in the bucket, trashed, restored and deleted through the API while the faults run. After each step every
 * descendant changed exactly once.
 */
export async function treeWorkload(count: number): Promise<Workload> {
  const user = await makeUser();
  const top = await makeFolder(user, 'Tree');
  const level1 = await insertChildren(user, [top], 'folder', 10, 1);
  const level2 = await insertChildren(user, level1, 'folder', 9, 2);
  const files = await insertChildren(
    user,
    level2,
    'file',
    Math.max(1, Math.round((count - 100) / level2.length)),
    3,
  );
  const descendants = [...level1, ...level2, ...files];
  await db().raw(
    `insert into drive_file_versions (uuid, file_uuid, workspace_uuid, status, wrapped_key, storage_key, content_type, plaintext_size_bytes, chunk_size_bytes, chunk_count)
     select f.uuid, f.uuid, ?, 'live', '\\x00'::bytea, 'drive/' || ? || '/' || f.uuid || '/' || f.uuid, 'application/octet-stream', 16, 65536, 1 from unnest(?::uuid[]) as f(uuid)`,
    [user.workspaceUuid, user.workspaceUuid, `{${files.join(',')}}`],
  );
  await db().raw(`update drive_items set live_version_uuid = uuid where uuid = any(?::uuid[])`, [
    `{${files.join(',')}}`,
  ]);
  await db()('workspaces')
    .where({ uuid: user.workspaceUuid })
    .update({ storage_used_bytes: files.length * 16 });
  await pool(files.length, 16, async (index) => {
    await storage().putObject(
      bucket(),
      `drive/${user.workspaceUuid}/${files[index]}/${files[index]}`,
      randomBytes(44),
    );
  });
  const steps: { step: string; settledMs: number }[] = [];
  const changesOf = async (afterSeq: number) =>
    db()('drive_changes')
      .where('seq', '>', afterSeq)
      .whereIn('item_uuid', [top, ...descendants])
      .select('item_uuid', 'change_type', 'item_version');
  const lastSeq = async () => Number((await db()('drive_changes').max('seq as seq').first())?.seq ?? 0);

  /** Sends the request (again while it got no answer), then waits for the cascade it started to complete. */
  async function cascade(step: string, method: string, path: string, body: unknown, accepted: number[]) {
    const before = await lastSeq();
    const started = Date.now();
    const response = await callRetrying(method, path, { token: user.token, json: body });
    expect(accepted, `${step} answered ${response.status} ${JSON.stringify(response.body)}`).toContain(
      response.status,
    );
    await settles(
      `the ${step} cascade`,
      async () => {
        const latest = await db()('drive_trash_operations')
          .where({ root_uuid: top })
          .orderBy('seq', 'desc')
          .first('kind', 'status');
        return latest?.kind === step && latest.status === 'completed'
          ? []
          : [`${step}: ${JSON.stringify(latest)}`];
      },
      settleDeadlineMs(),
    );
    steps.push({ step, settledMs: Date.now() - started });
    return changesOf(before);
  }

  return {
    name: 'tree',
    async run() {
      const trashed = await cascade('trash', 'POST', `/v1/drive/folders/${top}/trash`, undefined, [200]);
      const states = await db()('drive_items')
        .whereIn('uuid', descendants)
        .select('trashed', 'trashed_with', 'version');
      expect(states.every((item) => item.trashed && item.trashed_with === top && item.version === 2)).toBe(
        true,
      );
      expect(new Set(trashed.map((change) => change.item_uuid)).size).toBe(descendants.length + 1);
      expect(trashed).toHaveLength(descendants.length + 1);

      const restored = await cascade(
        'restore',
        'POST',
        `/v1/drive/folders/${top}`,
        { trashed: false },
        [200],
      );
      const back = await db()('drive_items')
        .whereIn('uuid', descendants)
        .select('trashed', 'trashed_with', 'version');
      expect(back.every((item) => !item.trashed && item.trashed_with === null && item.version === 3)).toBe(
        true,
      );
      expect(restored).toHaveLength(descendants.length + 1);
      expect(new Set(restored.map((change) => change.item_uuid)).size).toBe(descendants.length + 1);

      // A retried DELETE whose first try landed finds the folder gone.
      const deleted = await cascade('delete', 'DELETE', `/v1/drive/folders/${top}`, undefined, [204, 404]);
      expect(deleted.filter((change) => change.change_type === 'delete')).toHaveLength(
        descendants.length + 1,
      );
      expect(deleted).toHaveLength(descendants.length + 1);
    },
    async check() {
      expect(
        await db()('drive_items')
          .whereIn('uuid', [top, ...descendants])
          .count('* as n')
          .first(),
      ).toEqual({ n: '0' });
      expect(await db()('drive_file_versions').whereIn('file_uuid', files).count('* as n').first()).toEqual({
        n: '0',
      });
      expect(
        Number((await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).storage_used_bytes),
      ).toBe(0);
    },
    summary: () => ({ items: descendants.length + 1, files: files.length, steps }),
  };
}

// --- Webhook deliveries ------------------------------------------------------------------------------------------

/**
 * `count` email.received events to three HTTPS receivers; the third fails the first attempt of half the events
 * (seeded). Every event reaches every receiver, and no receiver sees an attempt number twice for one event. `hosts`:
 * three loopback addresses no other test file listens on (each on port 443), so suites and files can run side by side.
 */
export async function webhooksWorkload(seed: number, count: number, hosts: string[]): Promise<Workload> {
  const receivers: Receiver[] = [];
  for (const host of hosts) receivers.push(await startReceiver(host));
  // Whether the third receiver fails an event's first attempt: a seeded coin per event, picked by the event id.
  const coins = draw(fc.boolean(), seed, 997);
  const failsFirst = (eventId: string) => coins[parseInt(eventId.slice(-6), 16) % coins.length]!;
  receivers[2]!.answer((_, request) => ({
    status:
      failsFirst(JSON.parse(request.raw.toString()).id) && request.headers['x-service-attempt'] === '1'
        ? 500
        : 200,
  }));
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destinations: { uuid: string; secret: string }[] = [];
  for (const target of receivers)
    destinations.push(await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]));
  const uuids = destinations.map((destination) => destination.uuid);
  /** The events stored, from the database: a store retried after its commit counts as an event too. */
  const eventIds = async () =>
    (await db()('webhook_events').where({ mailbox_uuid: mailbox.uuid }).pluck('uuid')).map(
      (uuid) => `whevt_${uuid}`,
    );
  let storeRetries = 0;
  return {
    name: 'webhooks',
    async run() {
      // Mail arrives as `folio email deliver` stores it, a few at a time; a store that failed (storage or the database
      // away) is tried again, as a mail server retries a temporary failure.
      await pool(count, 4, async () => {
        const raw = emlMessage({ messageId: `<${randomUUID()}@sender.example>` });
        for (let attempt = 1; ; attempt++) {
          try {
            const stored = await deliver(mailbox.uuid, raw);
            if (stored.outcome !== 'stored') throw new Error(`mail not stored: ${stored.outcome}`);
            return;
          } catch (error) {
            if (attempt >= 60) throw error;
            storeRetries++;
            await sleep(1_000);
          }
        }
      });
      await settles(
        'every delivery succeeded',
        async () => {
          // A disabled destination ends its deliveries for good: say why now rather than wait out the deadline.
          const disabled = await db()('webhook_destinations')
            .whereIn('uuid', uuids)
            .whereNot({ status: 'active' })
            .select('uuid', 'disabled_reason');
          if (disabled.length) {
            const failures = await db()('webhook_attempts')
              .whereIn('destination_uuid', uuids)
              .where({ outcome: 'failure' })
              .select('error_class', 'status_code')
              .count('* as n')
              .groupBy('error_class', 'status_code');
            throw new NeverSettles(
              `destinations disabled: ${JSON.stringify(disabled)}; failed attempts by class: ${JSON.stringify(failures)}`,
            );
          }
          const open = await db()('webhook_deliveries')
            .whereIn('destination_uuid', uuids)
            .whereNot({ state: 'succeeded' })
            .select('event_uuid', 'state');
          const missing =
            (await eventIds()).length * 3 -
            Number(
              (await db()('webhook_deliveries').whereIn('destination_uuid', uuids).count('* as n').first())!
                .n,
            );
          return [
            ...open.map((row) => `delivery of ${row.event_uuid}: ${row.state}`),
            ...(missing > 0 ? [`${missing} deliveries not created`] : []),
          ];
        },
        settleDeadlineMs(),
      );
    },
    async check() {
      {
        const events = await eventIds();
        expect(events.length).toBeGreaterThanOrEqual(count);
        for (const [index, target] of receivers.entries()) {
          const ids = new Set(target.requests.map((request) => JSON.parse(request.raw.toString()).id));
          expect(
            events.filter((id) => !ids.has(id)),
            `events receiver ${index} never got`,
          ).toEqual([]);
          const attempts = target.requests.map(
            (request) => `${JSON.parse(request.raw.toString()).id}#${request.headers['x-service-attempt']}`,
          );
          expect(
            attempts.filter((key, at) => attempts.indexOf(key) !== at),
            `attempt numbers repeated at receiver ${index}`,
          ).toEqual([]);
          const recorded = new Set(
            (await attemptsOf(destinations[index]!.uuid)).map((attempt) => `whdel_${attempt.uuid}`),
          );
          expect(
            target.requests.filter((request) => !recorded.has(request.headers['x-service-delivery-id']!))
              .length,
            `unrecorded attempts at ${index}`,
          ).toBe(0);
        }
        const attempts = await db()('webhook_attempts').whereIn(
          'destination_uuid',
          destinations.map((destination) => destination.uuid),
        );
        expect(attempts.filter((attempt) => attempt.outcome === 'pending')).toEqual([]);
        const byDelivery = new Map<string, number[]>();
        for (const attempt of attempts)
          byDelivery.set(`${attempt.destination_uuid}:${attempt.event_uuid}`, [
            ...(byDelivery.get(`${attempt.destination_uuid}:${attempt.event_uuid}`) ?? []),
            attempt.attempt,
          ]);
        expect(byDelivery.size).toBe(events.length * 3);
        for (const numbers of byDelivery.values())
          expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
        const statuses = await db()('webhook_destinations')
          .whereIn(
            'uuid',
            destinations.map((destination) => destination.uuid),
          )
          .pluck('status');
        expect(statuses).toEqual(['active', 'active', 'active']);
      }
    },
    async close() {
      for (const target of receivers) await target.close();
    },
    summary: () => ({
      events: count,
      storeRetries,
      requests: receivers.map((target) => target.requests.length),
    }),
  };
}

// --- A document purge --------------------------------------------------------------------------------------------

/** A document with text and `attachments` attachments, trashed and purged (retention passed by hand) under the faults. */
export async function documentPurgeWorkload(attachments: number): Promise<Workload> {
  const owner = await makeUser();
  const created = await callRetrying('POST', '/v1/documents', {
    token: owner.token,
    json: { title: 'Doomed' },
  });
  const documentUuid: string = created.body.uuid;
  await callRetrying('POST', `/v1/documents/${documentUuid}/content`, {
    token: owner.token,
    json: { operations: [{ type: 'set_document', markdown: 'Text to lose.' }] },
  });
  for (let index = 0; index < attachments; index++) {
    const response = await callRetrying(
      'POST',
      `/v1/documents/${documentUuid}/attachments?filename=a${index}.bin`,
      { token: owner.token, body: randomBytes(2_000 + index) },
    );
    expect(response.status).toBe(201);
  }
  let purgedAfterMs = 0;
  return {
    name: 'document purge',
    async run() {
      // Some of the other work first, so the purge meets the faults in full swing.
      await sleep(5_000);
      const trashed = await callRetrying('POST', `/v1/documents/${documentUuid}/trash`, {
        token: owner.token,
      });
      expect(trashed.status).toBe(200);
      const started = Date.now();
      await db()('documents')
        .where({ uuid: documentUuid })
        .update({ trashed_at: db().raw(`now() - interval '2 hours'`) });
      await retrying(async () => {
        await (
          await temporalClient()
        ).workflow
          .getHandle(documentPurgeWorkflowId(documentUuid))
          .signal(documentTrashChangedSignal);
        return { status: 200 };
      }, 'signal the purge').catch(() => undefined);
      await settles(
        'the document purged',
        async () =>
          (await db()('documents').where({ uuid: documentUuid }).first()) ? ['document still there'] : [],
        settleDeadlineMs(),
      );
      purgedAfterMs = Date.now() - started;
    },
    async check() {
      expect(
        await db()('document_attachments').where({ document_uuid: documentUuid }).count('* as n').first(),
      ).toEqual({ n: '0' });
      expect(
        await db()('document_revisions').where({ document_uuid: documentUuid }).count('* as n').first(),
      ).toEqual({ n: '0' });
      expect(
        Number((await db()('workspaces').where({ uuid: owner.workspaceUuid }).first()).storage_used_bytes),
      ).toBe(0);
    },
    summary: () => ({ attachments, purgedAfterMs }),
  };
}

// --- A thumbnail burst -------------------------------------------------------------------------------------------

/**
 * `count` PNG images uploaded at once: each one's render ends (a thumbnail stored and has_preview true, or the
 * failure recorded and no preview), whatever the faults did to the renders.
 */
export async function thumbnailsWorkload(count: number): Promise<Workload> {
  const user = await makeUser();
  const uuids: string[] = [];
  return {
    name: 'thumbnails',
    async run() {
      await pool(count, 4, async (index) => {
        const image = await sharp({
          create: {
            width: 400 + index,
            height: 300,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 40 },
          },
        })
          .png()
          .toBuffer();
        uuids.push(await simpleUploadRetrying(user, `image-${index}.png`, image, 'image/png'));
      });
      await settles(
        'every render ended',
        async () => {
          const ended = Number(
            (await db()('drive_thumbnails').whereIn('file_uuid', uuids).count('* as n').first())!.n,
          );
          return ended === uuids.length ? [] : [`${uuids.length - ended} renders not ended`];
        },
        settleDeadlineMs(),
      );
    },
    async check() {
      const rows = await db()('drive_thumbnails as t')
        .join('drive_items as i', 'i.uuid', 't.file_uuid')
        .whereIn('t.file_uuid', uuids)
        .select('t.status', 'i.has_preview');
      expect(rows).toHaveLength(count);
      expect(rows.filter((row) => (row.status === 'ready') !== row.has_preview)).toEqual([]);
    },
    summary: () => ({ images: count }),
  };
}

/** Runs the workloads together; fails with the first failure, after every one ended. */
export async function runAll(workloads: Workload[]): Promise<void> {
  const started = Date.now();
  const outcomes = await Promise.allSettled(
    workloads.map(async (workload) => {
      await workload.run();
      console.log(`[faults] ${workload.name} done after ${Math.round((Date.now() - started) / 1000)} s`);
    }),
  );
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}

/** Closes what the workloads hold. */
export async function closeAll(workloads: Workload[]): Promise<void> {
  for (const workload of workloads) await workload.close?.();
}

/** The summaries of the workloads, for the log. */
export const summaries = (workloads: Workload[]) =>
  Object.fromEntries(workloads.map((workload) => [workload.name, workload.summary()]));
