// Simple and chunked uploads with replacements while the worker, the API or both are SIGKILLed at seeded moments.
// Afterwards every upload the client finished downloads to exactly what it sent, everything else was cleaned up,
// and the storage, pool, feed and workflow invariants hold (docs/faults.md).
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../platform/database.js';
import { closeTemporalClient } from '../../platform/temporal.js';
import { makeUser } from '../support/api.js';
import { Chaos, draw, faultCounters, seedFor, tally } from './support/chaos.js';
import { chunkedUploadRetrying, FeedReader, fileName, readContent, replaceRetrying, simpleUploadRetrying, type Attempts } from './support/drive-client.js';
import { checkInvariants, feedIsGapFree } from './support/invariants.js';
import { sized } from './support/scale.js';

afterAll(closeTemporalClient);

const MiB = 1024 * 1024;

/** Runs task(0..count-1), `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) await task(next++);
  }));
}

describe('uploads under SIGKILL', () => {
  it('keeps every finished upload and replacement byte for byte and cleans up every lost one', async () => {
    const seed = seedFor('uploads');
    const count = sized(40, 200);
    // Most files are small; one in eight spans two 8 MiB chunks. Replacements are chunked, as the spec has it.
    const size = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 300_000 }), weight: 7 }, { arbitrary: fc.integer({ min: 8 * MiB + 1, max: 8 * MiB + 200_000 }), weight: 1 });
    const plans = draw(fc.record({ chunked: fc.boolean(), size, replacements: fc.array(fc.integer({ min: 1, max: 300_000 }), { maxLength: 2 }) }), seed, count);
    const user = await makeUser();
    const reader = new FeedReader(user).start();
    const attempts: Attempts = { restarts: 0 };
    const finished = new Map<string, Buffer>();

    const chaos = new Chaos(seed).start();
    await pool(count, 4, async (index) => {
      const plan = plans[index]!;
      let content = randomBytes(plan.size);
      const name = fileName(`upload-${index}`);
      // Simple uploads are capped for the route's JSON body; a large planned size goes chunked.
      const uuid = plan.chunked || plan.size > 8 * MiB ? await chunkedUploadRetrying(user, name, content, attempts) : await simpleUploadRetrying(user, name, content);
      for (const replacementSize of plan.replacements) {
        content = randomBytes(replacementSize);
        await replaceRetrying(user, uuid, content, attempts);
      }
      finished.set(uuid, content);
    });
    const kills = await chaos.stop();
    await reader.stop();
    console.log(`[faults] uploads: ${count} files, kills ${JSON.stringify(tally(kills))}, restarts ${attempts.restarts}, ${JSON.stringify(faultCounters)}`);
    expect(kills.length).toBeGreaterThan(0);

    for (const [uuid, content] of finished) expect((await readContent(user, uuid)).equals(content), `content of ${uuid}`).toBe(true);
    const waited = await checkInvariants();
    console.log(`[faults] uploads: invariants held after ${waited} ms`);
    // Exactly the files the client finished are there; every other upload it began was cleaned up.
    const completed = await db()('drive_items').where({ workspace_uuid: user.workspaceUuid, upload_status: 'completed' }).pluck('uuid');
    expect(completed.sort()).toEqual([...finished.keys()].sort());
    expect(await feedIsGapFree(reader, user.workspaceUuid)).toEqual([]);
  });
});
