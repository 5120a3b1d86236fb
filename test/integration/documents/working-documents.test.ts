// The API's cache of parsed documents with more than one process writing: this test process writes through the same
// domain code the API runs (it is another process, with a cache of its own), and every answer of the API must be
// the document as it now stands, never the state the API parsed before. See docs/documents-model.md § The
// working-document cache.
import { describe, expect, it } from 'vitest';
import type { WorkingDocument } from '../../../domain/document-engine/index.js';
import { createComment } from '../../../domain/documents/comments.js';
import { writeOperations } from '../../../domain/documents/content.js';
import type { DocumentsDeps } from '../../../domain/documents/deps.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { S3ObjectStore } from '../../../platform/object-store.js';
import { bucket, storage } from '../../../platform/storage.js';
import { WorkingDocumentCache } from '../../../platform/working-document-cache.js';
import { call, makeDocument, makeUser, type TestUser } from '../../support/api.js';
import { readContent } from '../../support/documents.js';

const edit = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/content`, { token: user.token, json: body });

/** What the other process's Documents code is handed: a cache of its own, which hears nothing of the API's writes. */
const elsewhere: DocumentsDeps = {
  settings: config(),
  workingDocuments: new WorkingDocumentCache<WorkingDocument>(),
  attachmentObjects: new S3ObjectStore(storage(), bucket()),
  masterKey: config().masterKey,
};

/** An edit made by another process: this one, through the domain code, in its own transaction. */
const editElsewhere = (user: TestUser, uuid: string, operations: unknown[]) =>
  db().transaction((tx) =>
    writeOperations(
      tx,
      elsewhere,
      { userUuid: user.uuid, workspaceUuid: user.workspaceUuid },
      uuid,
      { mode: 'edit', operations: operations as never },
      (view) => ({ ...view }),
    ),
  );

const stateVersion = async (uuid: string) =>
  String((await db()('documents').where({ uuid }).first('state_version')).state_version);

describe('the working-document cache with another process writing', () => {
  it('answers reads, edits and 409s from the document as another process left it, never from the state it parsed before', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Alpha one.\n\nBeta two.\n\nGamma three.' });
    // The API parses the document and keeps it.
    expect((await readContent(owner, document.uuid)).body.markdown).toBe(
      'Alpha one.\n\nBeta two.\n\nGamma three.',
    );
    expect(
      (await edit(owner, document.uuid, { operations: [{ type: 'replace', find: 'one', with: 'first' }] }))
        .body.revision,
    ).toBe(3);

    const elsewhere = await editElsewhere(owner, document.uuid, [
      { type: 'replace', find: 'two', with: 'second' },
    ]);
    expect(elsewhere.body.revision).toBe(4);

    const read = await readContent(owner, document.uuid);
    expect(read.body).toMatchObject({
      revision: 4,
      markdown: 'Alpha first.\n\nBeta second.\n\nGamma three.',
    });
    const stale = await edit(owner, document.uuid, {
      base_revision: 3,
      operations: [{ type: 'replace', find: 'three', with: 'third' }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({
      revision: 4,
      markdown: 'Alpha first.\n\nBeta second.\n\nGamma three.',
    });

    await editElsewhere(owner, document.uuid, [{ type: 'replace', find: 'Alpha', with: 'Aleph' }]);
    const next = await edit(owner, document.uuid, {
      base_revision: 5,
      operations: [{ type: 'replace', find: 'three', with: 'third' }],
    });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({
      revision: 6,
      markdown: 'Aleph first.\n\nBeta second.\n\nGamma third.',
    });
  });

  it('places a comment another process anchored at the same revision, and edits around it', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Keep this sentence.\n\nChange this one.' });
    expect((await readContent(owner, document.uuid)).body.threads).toEqual([]);
    const before = await stateVersion(document.uuid);

    // A comment changes the state (its anchor) without a new revision: the version moves, the revision does not.
    const thread = await db().transaction((tx) =>
      createComment(
        tx,
        elsewhere,
        { userUuid: owner.uuid, workspaceUuid: owner.workspaceUuid },
        document.uuid,
        { body: 'Why?', target: { on: 'this sentence' } },
      ),
    );
    expect(await stateVersion(document.uuid)).not.toBe(before);

    const read = await readContent(owner, document.uuid);
    expect(read.body.revision).toBe(2);
    expect(read.body.threads).toHaveLength(1);
    expect(read.body.threads[0]).toMatchObject({
      uuid: thread.uuid,
      placement: 'attached',
      quote: 'this sentence',
    });

    // An edit on the API keeps the anchor it did not parse itself.
    const edited = await edit(owner, document.uuid, {
      base_revision: 2,
      operations: [{ type: 'replace', find: 'Change this one', with: 'Changed' }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.markdown).toBe('Keep this sentence.\n\nChanged.');
    expect(edited.body.threads[0]).toMatchObject({
      uuid: thread.uuid,
      placement: 'attached',
      quote: 'this sentence',
    });
  });

  it('gives a document a new state version for every change of its log, and never the same one twice', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Text.' });
    const seen = new Set([await stateVersion(document.uuid)]);
    for (const word of ['More', 'Most']) {
      await edit(owner, document.uuid, { operations: [{ type: 'replace', find: 'Text', with: word }] });
      seen.add(await stateVersion(document.uuid));
      await edit(owner, document.uuid, { operations: [{ type: 'replace', find: word, with: 'Text' }] });
      seen.add(await stateVersion(document.uuid));
    }
    expect(seen.size).toBe(5);
    // A write that rolls back takes a version that is never handed out again.
    const rolledBack = await db()
      .transaction(async (tx) => {
        await writeOperations(
          tx,
          elsewhere,
          { userUuid: owner.uuid, workspaceUuid: owner.workspaceUuid },
          document.uuid,
          { mode: 'edit', operations: [{ type: 'replace', find: 'Text', with: 'Lost' }] as never },
          (view) => ({ ...view }),
        );
        const version = String(
          (await tx('documents').where({ uuid: document.uuid }).first('state_version')).state_version,
        );
        throw Object.assign(new Error('roll back'), { version });
      })
      .catch((error: { version: string }) => error.version);
    expect(seen.has(rolledBack)).toBe(false);
    await edit(owner, document.uuid, { operations: [{ type: 'replace', find: 'Text', with: 'Kept' }] });
    const after = await stateVersion(document.uuid);
    expect(after).not.toBe(rolledBack);
    expect((await readContent(owner, document.uuid)).body.markdown).toBe('Kept.');
  });
});
