// The revision log (docs/documents-api.md § Revisions, edits and batches): each revision stores what changed, with a
// snapshot once the diffs since the last one add up to the state; any revision reads back through readRevisionState;
// the log's bytes count in the workspace's storage pool, so a full pool refuses an edit, a suggestion or a comment.
import { describe, expect, it } from 'vitest';
import { renderMarkdown, type DocumentState } from '../../../domain/document-engine/index.js';
import { readRevisionState, sameJson } from '../../../domain/documents/revision-log.js';
import { db } from '../../../platform/database.js';
import {
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';

const edit = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/content`, { token: user.token, json: body });
const suggest = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/suggestions`, { token: user.token, json: body });
const comment = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/comments`, { token: user.token, json: body });
const read = (user: TestUser, uuid: string) =>
  call('GET', `/v1/documents/${uuid}/content`, { token: user.token });

const usedBytes = async (workspaceUuid: string) =>
  Number(
    (await db()('workspaces').where({ uuid: workspaceUuid }).first('storage_used_bytes')).storage_used_bytes,
  );
const logBytes = async (documentUuid: string) =>
  Number(
    (await db()('document_revisions')
      .where({ document_uuid: documentUuid })
      .sum({ n: 'charged_bytes' })
      .first())!.n,
  );
const logRows = (documentUuid: string) =>
  db()('document_revisions').where({ document_uuid: documentUuid }).orderBy('revision');
/** The current state: the log's current revision (db/migrations/018 keeps it nowhere else). */
const currentState = async (documentUuid: string) => {
  const { revision } = await db()('documents').where({ uuid: documentUuid }).first('revision');
  return (await readRevisionState(db(), documentUuid, revision as number)) as DocumentState;
};

/** About 200 KB of markdown: 2,000 distinct paragraphs of 100 characters. */
const bigMarkdown = () =>
  Array.from({ length: 2000 }, (_, i) =>
    `Paragraph ${String(i).padStart(4, '0')} ${'lorem ipsum '.repeat(7)}end.`.padEnd(100, '.'),
  ).join('\n\n');

describe('the revision log', () => {
  it('grows storage by about the size of the change, not of the document, for each small edit and suggestion of a 200 KB document', async () => {
    const owner = await makeUser();
    const commenter = await makeColleague(owner);
    const markdown = bigMarkdown();
    expect(Buffer.byteLength(markdown)).toBeGreaterThan(200_000);
    const document = await makeDocument(owner, { markdown });
    await shareDocument(document.uuid, commenter, 'commenter');
    const stateBytes = Buffer.byteLength(JSON.stringify(await currentState(document.uuid)));
    // Setting the text is one large change, counted once.
    expect(await usedBytes(owner.workspaceUuid)).toBe(await logBytes(document.uuid));
    expect(await usedBytes(owner.workspaceUuid)).toBeGreaterThan(200_000);

    const growth: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = await usedBytes(owner.workspaceUuid);
      const paragraph = `Paragraph ${String(i * 300).padStart(4, '0')}`;
      const response =
        i % 2 === 0
          ? await edit(owner, document.uuid, {
              operations: [{ type: 'replace', find: paragraph, with: `${paragraph} (edited)` }],
            })
          : await suggest(commenter, document.uuid, {
              operations: [{ type: 'replace', find: paragraph, with: `${paragraph} (suggested)` }],
            });
      expect(response.status).toBe(i % 2 === 0 ? 200 : 201);
      growth.push((await usedBytes(owner.workspaceUuid)) - before);
    }
    for (const bytes of growth) {
      // One paragraph's JSON (about 200 bytes) plus, for a suggestion, its thread anchor: not the 200 KB document.
      expect(bytes).toBeGreaterThan(0);
      expect(bytes).toBeLessThan(1_000);
      expect(bytes).toBeLessThan(stateBytes / 200);
    }
    expect(await usedBytes(owner.workspaceUuid)).toBe(await logBytes(document.uuid));
    const rows = await logRows(document.uuid).select('revision', db().raw('state is not null as snapshot'));
    // Setting the whole text (revision 2) was stored as a snapshot; the small changes after it as diffs.
    expect(rows.filter((row) => row.snapshot).map((row) => row.revision)).toEqual([1, 2]);
  });

  it('reads every revision back across snapshot boundaries, comments made in place included', async () => {
    const owner = await makeUser();
    // About 1 KB of text: a one-paragraph diff is a tenth of the state, so snapshots come every ten or so revisions.
    const filler = Array.from(
      { length: 12 },
      (_, i) => `Filler paragraph ${i} with enough words to weigh something.`,
    ).join('\n\n');
    const text = (counter: number) => `Intro.\n\n${filler}\n\nCounter ${counter}.`;
    const document = await makeDocument(owner, { markdown: text(0) });
    const last = 56;
    let commentedAt = 0;
    for (let revision = 3; revision <= last; revision++) {
      const response = await edit(owner, document.uuid, {
        operations: [{ type: 'replace', find: `Counter ${revision - 3}.`, with: `Counter ${revision - 2}.` }],
      });
      expect(response.body.revision).toBe(revision);
      if (revision === 30) {
        // A comment changes the state, not the revision: revision 30 reads with it.
        expect((await comment(owner, document.uuid, { body: 'Why?', on: 'Intro' })).status).toBe(201);
        commentedAt = revision;
      }
    }
    const rows = await logRows(document.uuid).select(
      'revision',
      'snapshot_revision',
      db().raw('state is not null as snapshot'),
    );
    expect(rows.map((row) => row.revision)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    const snapshots = rows.filter((row) => row.snapshot).map((row) => row.revision);
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((row) => !row.snapshot).length).toBeGreaterThan(last / 2);
    // Each row names the nearest snapshot at or before it.
    for (const row of rows)
      expect(row.snapshot_revision).toBe(
        Math.max(...snapshots.filter((revision) => revision <= row.revision)),
      );

    expect(renderMarkdown((await readRevisionState(db(), document.uuid, 1))!)).toBe('');
    for (let revision = 2; revision <= last; revision++) {
      const state = (await readRevisionState(db(), document.uuid, revision))!;
      expect(renderMarkdown(state), `revision ${revision}`).toBe(text(revision - 2));
      expect(state.threads.length, `revision ${revision}`).toBe(revision < commentedAt ? 0 : 1);
    }
    // The current revision reads as the document's state; a revision it never had reads as nothing.
    expect(
      sameJson(await readRevisionState(db(), document.uuid, last), await currentState(document.uuid)),
    ).toBe(true);
    expect(await readRevisionState(db(), document.uuid, last + 1)).toBeUndefined();
    expect((await read(owner, document.uuid)).body.markdown).toBe(text(last - 2));
  });

  it('refuses an edit, a suggestion, an accept and a comment that would pass the workspace storage pool with 422 storage_limit_exceeded, changing nothing; deleting still works', async () => {
    const owner = await makeUser();
    const commenter = await makeColleague(owner);
    const document = await makeDocument(owner, { markdown: 'First paragraph.\n\nSecond paragraph.' });
    await shareDocument(document.uuid, commenter, 'commenter');
    const suggestion = (
      await suggest(commenter, document.uuid, {
        operations: [{ type: 'replace', find: 'Second', with: 'Other' }],
      })
    ).body.suggestions[0];
    const note = (await comment(commenter, document.uuid, { body: 'A note.', on: 'First' })).body.uuid;
    const used = await usedBytes(owner.workspaceUuid);
    expect(used).toBe(await logBytes(document.uuid));
    // Room for a few bytes, not for one paragraph's change.
    await db()('workspaces')
      .where({ uuid: owner.workspaceUuid })
      .update({ storage_limit_bytes: used + 20 });
    const before = (await read(owner, document.uuid)).body;
    const rowsBefore = await logRows(document.uuid).select('revision', 'delta', 'charged_bytes');
    const stateBefore = await currentState(document.uuid);

    const refusals = [
      await edit(owner, document.uuid, { operations: [{ type: 'replace', find: 'First', with: 'Edited' }] }),
      await suggest(commenter, document.uuid, {
        operations: [{ type: 'replace', find: 'paragraph', occurrence: 1, with: 'line' }],
      }),
      await call('POST', `/v1/documents/${document.uuid}/suggestions/${suggestion}/accept`, {
        token: owner.token,
      }),
      await comment(commenter, document.uuid, { body: 'Another note.', on: 'paragraph', occurrence: 2 }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'storage_limit_exceeded',
        error_description: expect.any(String),
      });
    }
    expect((await read(owner, document.uuid)).body).toEqual(before);
    expect(await logRows(document.uuid).select('revision', 'delta', 'charged_bytes')).toEqual(rowsBefore);
    expect(sameJson(await currentState(document.uuid), stateBefore)).toBe(true);
    expect(await usedBytes(owner.workspaceUuid)).toBe(used);
    expect(await db()('document_threads').where({ document_uuid: document.uuid }).count({ n: '*' })).toEqual([
      { n: '2' },
    ]);

    // Taking things out is recorded but not charged, so a full workspace can clean up.
    expect(
      (await call('DELETE', `/v1/documents/${document.uuid}/comments/${note}`, { token: commenter.token }))
        .status,
    ).toBe(204);
    const removed = await call('DELETE', `/v1/documents/${document.uuid}/suggestions/${suggestion}`, {
      token: commenter.token,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      revision: before.revision + 1,
      markdown: 'First paragraph.\n\nSecond paragraph.',
      threads: [],
    });
    expect(await usedBytes(owner.workspaceUuid)).toBe(used);
    expect(
      sameJson(
        await readRevisionState(db(), document.uuid, before.revision + 1),
        await currentState(document.uuid),
      ),
    ).toBe(true);
    expect(
      (await readRevisionState(db(), document.uuid, before.revision))!.threads.map((thread) => thread.kind),
    ).toEqual(['suggestion']);

    // With room again, the edit lands and is counted.
    await db()('workspaces')
      .where({ uuid: owner.workspaceUuid })
      .update({ storage_limit_bytes: 10 * 1024 ** 3 });
    const edited = await edit(owner, document.uuid, {
      operations: [{ type: 'replace', find: 'First', with: 'Edited' }],
    });
    expect(edited.status).toBe(200);
    expect(await usedBytes(owner.workspaceUuid)).toBeGreaterThan(used);
    expect(await usedBytes(owner.workspaceUuid)).toBe(await logBytes(document.uuid));
  });
});

describe('the migration to stored deltas (012_document_revision_deltas)', () => {
  it('keeps every full-state row as a snapshot, charges nothing, and records a state that comments changed in place', async () => {
    const migration = await import('../../../db/migrations/012_document_revision_deltas.js');
    // 012 reads documents.state, which 018 (the current state kept only in the log) takes away: undone first, redone last.
    const stateInLog = await import('../../../db/migrations/018_document_state_version.js');
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Alpha.\n\nBeta.' });
    await edit(owner, document.uuid, { operations: [{ type: 'replace', find: 'Beta', with: 'Gamma' }] });
    const committed = (await readRevisionState(db(), document.uuid, 3))!;
    expect((await comment(owner, document.uuid, { body: 'Note', on: 'Alpha' })).status).toBe(201);
    const expected = [1, 2, 3].map((revision) => readRevisionState(db(), document.uuid, revision));
    const states = await Promise.all(expected);

    // Back to the old layout, as an older release left it: full states, and the last row as committed, without the
    // comment that changed documents.state in place afterwards (018's down restored that column from the log).
    await stateInLog.down(db());
    await migration.down(db());
    try {
      const legacy = await logRows(document.uuid).select('revision', 'state');
      expect(legacy.map((row) => sameJson(row.state, states[row.revision - 1]))).toEqual([true, true, true]);
      await db()('document_revisions')
        .where({ document_uuid: document.uuid, revision: 3 })
        .update({ state: JSON.stringify(committed) });
    } finally {
      await migration.up(db());
      await stateInLog.up(db());
    }

    const rows = await logRows(document.uuid).select(
      'revision',
      db().raw('state is not null as snapshot'),
      'snapshot_revision',
      'chain_bytes',
      'charged_bytes',
      db().raw('jsonb_array_length(delta) as steps'),
    );
    expect(rows).toEqual([
      { revision: 1, snapshot: true, snapshot_revision: 1, chain_bytes: '0', charged_bytes: '0', steps: 0 },
      { revision: 2, snapshot: true, snapshot_revision: 2, chain_bytes: '0', charged_bytes: '0', steps: 0 },
      // The comment, recorded as one step holding documents.state as 018's down wrote it.
      { revision: 3, snapshot: true, snapshot_revision: 3, chain_bytes: '0', charged_bytes: '0', steps: 1 },
    ]);
    for (const revision of [1, 2, 3])
      expect(sameJson(await readRevisionState(db(), document.uuid, revision), states[revision - 1])).toBe(
        true,
      );

    // Editing on: the next revision is a diff against the current state, and reads back whole.
    const used = await usedBytes(owner.workspaceUuid);
    const next = await edit(owner, document.uuid, {
      operations: [{ type: 'replace', find: 'Gamma', with: 'Delta' }],
    });
    expect(next.body.revision).toBe(4);
    const fourth = (await readRevisionState(db(), document.uuid, 4))!;
    expect(renderMarkdown(fourth)).toBe('Alpha.\n\nDelta.');
    expect(fourth.threads).toHaveLength(1);
    expect(sameJson(fourth, await currentState(document.uuid))).toBe(true);
    expect(await usedBytes(owner.workspaceUuid)).toBe(used + (await logBytes(document.uuid)));
  });
});
