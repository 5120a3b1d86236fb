// Trash retention: a trashed document is purged with everything it holds once the retention passes; a restore
// before then keeps it. The suite's retention is an hour, so no test races the clock: a test passes the retention
// by moving the trash time back and telling the purge workflow to look again.
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { FOLIO_RESOURCE_ID, FOLIO_WORKSPACE_ID } from '../../../workflows/registry.js';
import { documentTrashChangedSignal } from '../../../workflows/documents.js';
import { documentPurgeWorkflowId } from '../../../workflows/ids.js';
import {
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';
import { objectExists } from '../../support/storage.js';
import { killWorker, startWorkerAgain } from '../../support/worker.js';

afterAll(closeTemporalClient);

/** As if the document had been trashed longer ago than the retention. */
async function passRetention(documentUuid: string) {
  await db()('documents')
    .where({ uuid: documentUuid })
    .update({ trashed_at: db().raw(`now() - interval '2 hours'`) });
  await (
    await temporalClient()
  ).workflow
    .getHandle(documentPurgeWorkflowId(documentUuid))
    .signal(documentTrashChangedSignal);
}

const purgeResult = async (documentUuid: string) =>
  (await temporalClient()).workflow.getHandle(documentPurgeWorkflowId(documentUuid)).result();

/** A document with content, a comment, a suggestion, a grant and an attachment: everything a purge must take. */
async function fullDocument(owner: TestUser) {
  const colleague = await makeColleague(owner);
  const document = await makeDocument(owner, { title: 'Doomed', markdown: 'Some text to keep or lose.' });
  await shareDocument(document.uuid, colleague, 'editor');
  await call('POST', `/v1/documents/${document.uuid}/comments`, {
    token: owner.token,
    json: { body: 'note', on: 'text' },
  });
  await call('POST', `/v1/documents/${document.uuid}/suggestions`, {
    token: colleague.token,
    json: { operations: [{ type: 'delete', find: 'Some ' }] },
  });
  const attachment = await call('POST', `/v1/documents/${document.uuid}/attachments?filename=a.bin`, {
    token: owner.token,
    body: Buffer.from('attachment bytes'),
  });
  expect(attachment.status).toBe(201);
  const { storage_key } = await db()('document_attachments')
    .where({ uuid: attachment.body.uuid })
    .first('storage_key');
  return { document, storageKey: storage_key as string };
}

const rowCounts = async (documentUuid: string) => ({
  documents: Number((await db()('documents').where({ uuid: documentUuid }).count({ n: '*' }).first())!.n),
  revisions: Number(
    (await db()('document_revisions').where({ document_uuid: documentUuid }).count({ n: '*' }).first())!.n,
  ),
  threads: Number(
    (await db()('document_threads').where({ document_uuid: documentUuid }).count({ n: '*' }).first())!.n,
  ),
  attachments: Number(
    (await db()('document_attachments').where({ document_uuid: documentUuid }).count({ n: '*' }).first())!.n,
  ),
  grants: Number(
    (await db()('document_grants').where({ document_uuid: documentUuid }).count({ n: '*' }).first())!.n,
  ),
});

const usedBytes = async (workspaceUuid: string) =>
  Number(
    (await db()('workspaces').where({ uuid: workspaceUuid }).first('storage_used_bytes')).storage_used_bytes,
  );

describe('the Trash retention of documents', () => {
  it('purges a trashed document with its revisions, threads, grants and attachment bytes once the retention passes', async () => {
    const owner = await makeUser();
    const { document, storageKey } = await fullDocument(owner);
    // The attachment's 16 bytes, and the revision log's: the text set, the comment, the suggestion.
    const logBytes = Number(
      (await db()('document_revisions')
        .where({ document_uuid: document.uuid })
        .sum({ n: 'charged_bytes' })
        .first())!.n,
    );
    expect(logBytes).toBeGreaterThan(0);
    expect(await usedBytes(owner.workspaceUuid)).toBe(16 + logBytes);
    const trashed = await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    expect(trashed.status).toBe(200);

    const description = await (
      await temporalClient()
    ).workflow
      .getHandle(documentPurgeWorkflowId(document.uuid))
      .describe();
    expect(description.typedSearchAttributes.get(FOLIO_WORKSPACE_ID)).toBe(owner.workspaceUuid);
    expect(description.typedSearchAttributes.get(FOLIO_RESOURCE_ID)).toBe(document.uuid);

    await passRetention(document.uuid);
    expect(await purgeResult(document.uuid)).toEqual({ outcome: 'purged' });
    expect(await rowCounts(document.uuid)).toEqual({
      documents: 0,
      revisions: 0,
      threads: 0,
      attachments: 0,
      grants: 0,
    });
    expect(await objectExists(storageKey)).toBe(false);
    expect(await usedBytes(owner.workspaceUuid)).toBe(0);
    const gone = await call('GET', `/v1/documents/${document.uuid}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect((await call('GET', '/v1/documents/trash', { token: owner.token })).body.data).toEqual([]);
  });

  it('keeps a document restored before the retention passes, and ends its purge workflow', async () => {
    const owner = await makeUser();
    const { document, storageKey } = await fullDocument(owner);
    await call('POST', `/v1/documents/${document.uuid}`, { token: owner.token, json: { trashed: true } });
    const restored = await call('POST', `/v1/documents/${document.uuid}`, {
      token: owner.token,
      json: { trashed: false },
    });
    expect(restored.body.trashed_at).toBeNull();
    expect(await purgeResult(document.uuid)).toEqual({ outcome: 'restored' });
    expect(await rowCounts(document.uuid)).toMatchObject({
      documents: 1,
      threads: 2,
      attachments: 1,
      grants: 1,
    });
    expect(await objectExists(storageKey)).toBe(true);
    const content = await call('GET', `/v1/documents/${document.uuid}/content`, { token: owner.token });
    expect(content.body.threads).toHaveLength(2);
  });

  it('purges a document trashed again after a restore, counting the retention from the new trash', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Round trip' });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    await call('POST', `/v1/documents/${document.uuid}`, { token: owner.token, json: { trashed: false } });
    expect(await purgeResult(document.uuid)).toEqual({ outcome: 'restored' });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    await passRetention(document.uuid);
    expect(await purgeResult(document.uuid)).toEqual({ outcome: 'purged' });
    expect((await rowCounts(document.uuid)).documents).toBe(0);
  });

  it('hides a document past its retention even while no worker runs, and purges it once a worker is back', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Waiting' });
    killWorker();
    try {
      await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
      // Past the retention without waiting on the clock; with no worker, nothing reads the signal yet.
      await passRetention(document.uuid);
      const hidden = await call('GET', `/v1/documents/${document.uuid}`, { token: owner.token });
      expect(hidden.status).toBe(404);
      const restore = await call('POST', `/v1/documents/${document.uuid}`, {
        token: owner.token,
        json: { trashed: false },
      });
      expect(restore.status).toBe(404);
    } finally {
      startWorkerAgain();
    }
    expect(await purgeResult(document.uuid)).toEqual({ outcome: 'purged' });
    expect((await rowCounts(document.uuid)).documents).toBe(0);
  });
});
