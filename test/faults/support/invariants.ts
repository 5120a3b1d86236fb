// What must hold after every fault run, read straight from PostgreSQL, MinIO and Temporal (docs/faults.md § Checks).
// Each check answers a list of violations, empty when it holds, so a failure names every broken row at once.
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { temporalClient } from '../../../platform/temporal.js';
import { WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID } from '../../../workflows/ids.js';
import { sleep } from './chaos.js';
import type { FeedReader } from './drive-client.js';

/** Rows younger than this may still be dispatched by the request that wrote them (activities/workflow-outbox.ts). */
const OUTBOX_SETTLE_MS = 30_000;

async function listKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const item of storage().listObjectsV2(bucket(), '', true)) if (item.name) keys.add(item.name);
  return keys;
}

async function listIncompleteUploads(): Promise<{ key: string; uploadId: string }[]> {
  const uploads: { key: string; uploadId: string }[] = [];
  for await (const upload of storage().listIncompleteUploads(bucket(), '', true))
    uploads.push({ key: upload.key, uploadId: upload.uploadId });
  return uploads;
}

/**
 * Every object has a row that holds it and every row that holds bytes has its object; no multipart upload is left
 * but a staged version's own. Staged versions and attachments awaiting upload may or may not have bytes yet.
 */
async function objectsMatchRows(): Promise<string[]> {
  const [objects, incomplete] = await Promise.all([listKeys(), listIncompleteUploads()]);
  const required = new Set<string>();
  const allowed = new Set<string>();
  const stagedUploads = new Set<string>();
  for (const row of await db()('drive_file_versions').select('storage_key', 'status', 'storage_upload_id')) {
    if (row.status === 'live' || row.status === 'retired') required.add(row.storage_key);
    if (row.status === 'staged') {
      allowed.add(row.storage_key);
      if (row.storage_upload_id) stagedUploads.add(`${row.storage_key} ${row.storage_upload_id}`);
    }
  }
  for (const row of await db()('drive_thumbnails').where({ status: 'ready' }).select('storage_key'))
    required.add(row.storage_key);
  for (const row of await db()('document_attachments').select('storage_key', 'upload_status')) {
    if (row.upload_status === 'completed') required.add(row.storage_key);
    else if (row.upload_status === 'awaiting_upload') allowed.add(row.storage_key);
  }
  for (const row of await db()('emails').select('storage_key')) required.add(row.storage_key);

  const violations: string[] = [];
  for (const key of objects)
    if (!required.has(key) && !allowed.has(key)) violations.push(`object without a row: ${key}`);
  for (const key of required) if (!objects.has(key)) violations.push(`row without its object: ${key}`);
  for (const upload of incomplete) {
    if (!stagedUploads.has(`${upload.key} ${upload.uploadId}`))
      violations.push(`multipart upload without a staged version: ${upload.key}`);
  }
  return violations;
}

/**
 * Each workspace's pool holds exactly the plaintext bytes of its staged, live and retired Drive versions, its
 * attachments completed or awaiting upload, and the bytes its documents' revision logs were charged.
 */
async function poolsMatchStoredBytes(): Promise<string[]> {
  const { rows } = await db().raw(`
    select w.uuid, w.storage_used_bytes::bigint as used,
      coalesce((select sum(plaintext_size_bytes) from drive_file_versions v where v.workspace_uuid = w.uuid and v.status in ('staged', 'live', 'retired')), 0)
      + coalesce((select sum(byte_size) from document_attachments a where a.workspace_uuid = w.uuid and a.upload_status in ('completed', 'awaiting_upload')), 0)
      + coalesce((select sum(r.charged_bytes) from document_revisions r join documents d on d.uuid = r.document_uuid where d.workspace_uuid = w.uuid), 0)
      as stored
    from workspaces w`);
  return rows
    .filter((row: { used: string; stored: string }) => BigInt(row.used) !== BigInt(row.stored))
    .map(
      (row: { uuid: string; used: string; stored: string }) =>
        `workspace ${row.uuid}: pool ${row.used} bytes, stored ${row.stored}`,
    );
}

/**
 * With no cascade running: an item is trashed exactly when it has a trashed_with, which is itself or a trashed
 * ancestor; no live item sits in a trashed folder; depths follow parents; nothing marked for deletion remains.
 */
async function trashIsConsistent(): Promise<string[]> {
  const running = await db()('drive_trash_operations')
    .where({ status: 'running' })
    .select('uuid', 'kind', 'root_uuid');
  const violations = running.map((op) => `cascade still running: ${op.kind} of ${op.root_uuid}`);
  const { rows } = await db().raw(`
    select i.uuid, i.trashed, i.trashed_with, i.deleted_at, i.depth, p.trashed as parent_trashed, p.depth as parent_depth,
      i.trashed_with is null or i.trashed_with = i.uuid or exists (
        with recursive up(uuid, parent_uuid) as (
          select uuid, parent_uuid from drive_items where uuid = i.parent_uuid
          union all select d.uuid, d.parent_uuid from drive_items d join up on d.uuid = up.parent_uuid)
        select 1 from up join drive_items g on g.uuid = up.uuid where g.uuid = i.trashed_with and g.trashed) as group_above
    from drive_items i left join drive_items p on p.uuid = i.parent_uuid
    where i.trashed <> (i.trashed_with is not null) or i.deleted_at is not null
       or (not i.trashed and p.trashed) or i.depth <> coalesce(p.depth + 1, 0)
       or (i.trashed_with is not null and i.trashed_with <> i.uuid)`);
  for (const row of rows) {
    if (row.trashed !== (row.trashed_with !== null))
      violations.push(`item ${row.uuid}: trashed ${row.trashed} with ${row.trashed_with}`);
    if (row.deleted_at) violations.push(`item ${row.uuid}: marked for deletion and still there`);
    if (!row.trashed && row.parent_trashed) violations.push(`item ${row.uuid}: live in a trashed folder`);
    if (row.parent_depth !== null ? row.depth !== row.parent_depth + 1 : row.depth !== 0)
      violations.push(`item ${row.uuid}: depth ${row.depth}`);
    if (!row.group_above)
      violations.push(`item ${row.uuid}: trashed with ${row.trashed_with}, which is no trashed ancestor`);
  }
  return violations;
}

/** No upload or replacement is left in flight once every client finished or gave up and the expiry passed. */
async function nothingInFlight(): Promise<string[]> {
  const uploading = await db()('drive_items').where({ upload_status: 'uploading' }).pluck('uuid');
  const staged = await db()('drive_file_versions').where({ status: 'staged' }).pluck('uuid');
  const outbox = await db()('workflow_outbox').pluck('workflow_id');
  return [
    ...uploading.map((uuid) => `file still uploading: ${uuid}`),
    ...staged.map((uuid) => `version still staged: ${uuid}`),
    ...outbox.map((id) => `workflow never started from the outbox: ${id}`),
  ];
}

/** Workflows that may stay open after the work: schedules' runs, a purge waiting out a trashed document's retention. */
async function mayStayOpen(type: string, workflowId: string): Promise<boolean> {
  if (
    type === 'workflowOutboxSweepWorkflow' ||
    type === 'tokenCleanupWorkflow' ||
    type === 'changeLogPruneWorkflow' ||
    type === 'webhookHistoryPurgeWorkflow'
  )
    return true;
  // A fan-out of Drive pushes ends after its idle window.
  if (type === 'drivePushWorkflow') return true;
  if (type === 'documentPurgeWorkflow') {
    const document = await db()('documents')
      .where({ uuid: workflowId.replace(/^document-purge:/, '') })
      .first('trashed_at');
    return Boolean(document?.trashed_at);
  }
  return false;
}

/** The open workflows that should have ended. */
async function workflowsLeftRunning(): Promise<string[]> {
  const client = await temporalClient();
  const open: string[] = [];
  for await (const execution of client.workflow.list({
    query: `ExecutionStatus = "Running" AND TaskQueue = "${process.env.FOLIO_TASK_QUEUE}"`,
  })) {
    if (!(await mayStayOpen(execution.type, execution.workflowId)))
      open.push(`${execution.type} ${execution.workflowId}`);
  }
  return open;
}

/**
 * Starts what the outbox still holds instead of waiting for the sweep's minute: triggers the sweep schedule once a
 * row is past the settle time. It does not wait for a younger row to come of age: rows of work still running (another
 * workload's, or the one a cascade was just started by) are in the outbox for their moment at any time, and waiting
 * out their 30 s held every `settles` loop that long whatever it waited for (the tree's trash "settled" in 31 s while
 * its cascade took under 5).
 */
async function forceOutboxSweep(): Promise<void> {
  const oldest = await db()('workflow_outbox').min('created_at as at').first();
  if (!oldest?.at || Date.now() - new Date(oldest.at).getTime() < OUTBOX_SETTLE_MS) return;
  await (await temporalClient()).schedule.getHandle(WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID).trigger();
}

/** Thrown by a `settles` check when what it waits for can no longer come: the wait ends at once, with the reason. */
export class NeverSettles extends Error {}

/**
 * Polls the check until it finds nothing, forcing the outbox sweep whenever a row waits in it; answers how long that
 * took, or fails with the violations still found at the deadline.
 */
export async function settles(
  what: string,
  check: () => Promise<string[]>,
  timeoutMs = 180_000,
): Promise<number> {
  const started = Date.now();
  let violations: string[] = [];
  let lastSweep = 0;
  while (Date.now() - started < timeoutMs) {
    try {
      violations = await check();
      if (violations.length === 0) return Date.now() - started;
      if (Date.now() - lastSweep > 5_000) {
        await forceOutboxSweep();
        lastSweep = Date.now();
      }
    } catch (error) {
      if (error instanceof NeverSettles) throw error;
      // The test's own connections go through the faults too (a dropped session, Temporal restarting): look again.
      violations = [`the check failed: ${String(error)}`];
    }
    await sleep(500);
  }
  throw new Error(
    `${what} did not hold within ${timeoutMs / 1000}s:\n  ${violations.slice(0, 40).join('\n  ')}${violations.length > 40 ? `\n  … ${violations.length - 40} more` : ''}`,
  );
}

/** Every storage and workflow invariant of docs/faults.md § Checks, waited for as `settles` does; answers the wait. */
export async function checkInvariants(timeoutMs = 180_000): Promise<number> {
  const waited = await settles(
    'no upload, version or outbox row in flight; no workflow left running',
    async () => [...(await nothingInFlight()), ...(await workflowsLeftRunning())],
    timeoutMs,
  );
  const violations = [
    ...(await objectsMatchRows()),
    ...(await poolsMatchStoredBytes()),
    ...(await trashIsConsistent()),
  ];
  if (violations.length) throw new Error(`invariants broken:\n  ${violations.slice(0, 60).join('\n  ')}`);
  return waited;
}

/**
 * A sync reader that started before its workspace changed was handed every change-log row of the workspace (no gap),
 * and its replica equals the workspace's items as they stand: every completed item at its version and trash state.
 * An entry carries the item as it is when the page is read (spec rule 4: a change whose version is held may be
 * skipped), so a row counts as handed over when the reader saw its item at that version or a later one, or saw it
 * deleted.
 */
export async function feedIsGapFree(reader: FeedReader, workspaceUuid: string): Promise<string[]> {
  const newestSeen = new Map<string, number>();
  const deletedSeen = new Set<string>();
  for (const entry of reader.seen) {
    if (entry.type === 'delete') deletedSeen.add(entry.uuid);
    else newestSeen.set(entry.uuid, Math.max(entry.version ?? 0, newestSeen.get(entry.uuid) ?? 0));
  }
  const violations: string[] = [];
  const changes = await db()('drive_changes')
    .where({ workspace_uuid: workspaceUuid })
    .orderBy('seq')
    .select('seq', 'item_uuid', 'change_type', 'item_version');
  for (const change of changes) {
    const handed =
      change.change_type === 'delete'
        ? deletedSeen.has(change.item_uuid)
        : deletedSeen.has(change.item_uuid) || (newestSeen.get(change.item_uuid) ?? 0) >= change.item_version;
    if (!handed)
      violations.push(
        `change ${change.seq} (${change.change_type} ${change.item_uuid} at version ${change.item_version}) never reached the reader`,
      );
  }
  // As the feed shows them: the presented version and the effective trash state (docs/drive-trash.md § Versions).
  const items = (await db()('drive_items as i')
    .joinRaw('cross join lateral drive_item_state(i.uuid) as s')
    .where({ 'i.workspace_uuid': workspaceUuid })
    .whereNot({ 'i.upload_status': 'uploading' })
    .orWhere({ 'i.workspace_uuid': workspaceUuid, 'i.kind': 'folder' })
    .select('i.uuid', db().raw('i.version + s.epochs - i.epoch_base as version'), 's.trashed')) as {
    uuid: string;
    version: number;
    trashed: boolean;
  }[];
  for (const item of items) {
    const held = reader.replica.get(item.uuid);
    if (!held) violations.push(`item ${item.uuid} missing from the reader's replica`);
    else if (held.version !== item.version || held.trashed !== item.trashed) {
      violations.push(
        `item ${item.uuid}: replica at version ${held.version} trashed ${held.trashed}, database at ${item.version} ${item.trashed}`,
      );
    }
  }
  const live = new Set(items.map((item) => item.uuid));
  for (const uuid of reader.replica.keys())
    if (!live.has(uuid)) violations.push(`replica holds ${uuid}, which is gone`);
  return violations;
}
