// The document purge workflow keeps a bounded history: after a bounded number of passes it continues as new, and
// the new run still purges the document once its retention has passed.
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { documentTrashChangedSignal } from '../../../workflows/documents.js';
import { documentPurgeWorkflowId } from '../../../workflows/ids.js';
import { call, makeDocument, makeUser } from '../../support/api.js';

afterAll(closeTemporalClient);

describe('documentPurgeWorkflow', () => {
  it('continues as new after many passes and purges the document from the new run', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Trashed and signalled many times.' });
    expect((await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token })).status).toBe(
      200,
    );
    // Far from due, so every signal costs the workflow one more pass (a read and a new wait) and nothing else.
    await db()('documents')
      .where({ uuid: document.uuid })
      .update({ trashed_at: new Date(Date.now() + 3_600_000) });
    const handle = (await temporalClient()).workflow.getHandle(documentPurgeWorkflowId(document.uuid));
    const firstRun = (await handle.describe()).runId;

    // A hundred passes take seconds on a quiet machine and over 100 s at a load average of 35 (two of each process,
    // 2026-11-24); the deadline is a bound against a workflow that never continues, not a measure.
    // One signal at a time, each sent once the workflow waits again (no workflow task or activity pending): sent
    // faster than a loaded worker takes them, they would pile up to Temporal's limit of signals per run.
    const deadline = Date.now() + 250_000;
    for (;;) {
      const { runId, raw } = await handle.describe();
      if (runId !== firstRun) break;
      if (Date.now() > deadline) throw new Error('the purge workflow never continued as new');
      if (raw.pendingWorkflowTask || raw.pendingActivities?.length) {
        await new Promise((resolve) => setTimeout(resolve, 20)); // A poll interval, not an assertion.
        continue;
      }
      await handle.signal(documentTrashChangedSignal);
    }
    const first = (await temporalClient()).workflow.getHandle(
      documentPurgeWorkflowId(document.uuid),
      firstRun,
    );
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');

    await db()('documents')
      .where({ uuid: document.uuid })
      .update({ trashed_at: new Date(Date.now() - 3_600_000) });
    await handle.signal(documentTrashChangedSignal);
    expect(await handle.result()).toEqual({ outcome: 'purged' });
    expect(await db()('documents').where({ uuid: document.uuid }).first()).toBeUndefined();
  }, 300_000);
});
