// The services under Folio fail mid-run: the Temporal dev server and MinIO are restarted (data kept) and PostgreSQL
// drops every connection of the stack's database (pg_terminate_backend). The system must recover with no operator
// action; a probe measures how long after the service came back a whole operation works again (docs/faults.md).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { restartMinio, restartTemporal } from '../../deploy/local/ephemeral-stack.js';
import { db } from '../../platform/database.js';
import { closeTemporalClient } from '../../platform/temporal.js';
import { makeUser, type TestUser } from '../support/api.js';
import { draw, seedFor, sleep } from './support/chaos.js';
import fc from 'fast-check';
import { callRetrying, fileName, readContent, simpleUploadRetrying } from './support/drive-client.js';
import { checkInvariants } from './support/invariants.js';
import { sized } from './support/scale.js';
import {
  closeAll,
  runAll,
  summaries,
  treeWorkload,
  uploadsWorkload,
  webhooksWorkload,
} from './support/workloads.js';

afterAll(closeTemporalClient);

/** Longest a whole operation may stay broken after its service is back (docs/faults.md § Recovery bounds). */
const RECOVERY_BOUND_MS = 120_000;

const root = () => process.env.FOLIO_TEST_ROOT!;

/** Ends every session of the stack's database but the one asking, as a failover or a restarted pooler would. */
async function terminateBackends(): Promise<number> {
  const client = new pg.Client({ connectionString: process.env.FOLIO_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await client.end();
  }
}

const FAULTS: { name: string; inject(): Promise<unknown> }[] = [
  {
    // On the cluster (FOLIO_TEST_CLUSTER=1) restartTemporal restarts its four services one after another.
    name:
      process.env.FOLIO_TEST_CLUSTER === '1' ? 'a Temporal cluster restart' : 'a Temporal dev server restart',
    inject: () => restartTemporal(root(), process.env),
  },
  { name: 'a MinIO restart', inject: () => restartMinio(root(), process.env) },
  { name: 'PostgreSQL dropping every connection', inject: terminateBackends },
];

/**
 * One operation through every part, waited for without forcing any sweep: a simple upload read back (API, PostgreSQL,
 * MinIO), then a folder trashed and its cascade completed (the outbox, Temporal, the worker).
 */
async function probe(user: TestUser): Promise<void> {
  const data = randomBytes(1_000);
  const uuid = await simpleUploadRetrying(user, fileName('probe'), data);
  expect((await readContent(user, uuid)).equals(data)).toBe(true);
  const folder = await callRetrying('POST', '/v1/drive/folders', {
    token: user.token,
    json: { name: fileName('probe-folder') },
  });
  expect(folder.status).toBe(201);
  expect(
    (await callRetrying('POST', `/v1/drive/folders/${folder.body.uuid}/trash`, { token: user.token })).status,
  ).toBe(200);
  const deadline = Date.now() + RECOVERY_BOUND_MS;
  for (;;) {
    const operation = await db()('drive_trash_operations')
      .where({ root_uuid: folder.body.uuid })
      .first('status')
      .catch(() => undefined);
    if (operation?.status === 'completed') return;
    if (Date.now() > deadline) throw new Error('the probe trash cascade did not complete');
    await sleep(200);
  }
}

describe('services failing under a running stack', () => {
  for (const [index, fault] of FAULTS.entries()) {
    it(`recovers by itself from ${fault.name}`, async () => {
      const seed = seedFor(`infrastructure-${index}`);
      const workloads = [
        await uploadsWorkload(seed, sized(12, 60)),
        await treeWorkload(sized(400, 4_000)),
        await webhooksWorkload(seed, sized(15, 100), ['127.0.0.204', '127.0.0.205', '127.0.0.206']),
      ];
      try {
        const work = runAll(workloads);
        // The fault comes at a seeded moment while the work is under way.
        await sleep(draw(fc.integer({ min: 2_000, max: 8_000 }), seed, 1)[0]!);
        const faultAt = Date.now();
        const detail = await fault.inject();
        const backAt = Date.now();
        const user = await makeUser().catch(async () => {
          await sleep(1_000);
          return makeUser();
        });
        await probe(user);
        const recoveredAt = Date.now();
        await work;
        const waited = await checkInvariants();
        for (const workload of workloads) await workload.check();
        console.log(
          `[faults] ${fault.name}${typeof detail === 'number' ? ` (${detail} sessions)` : ''}: service back after ${backAt - faultAt} ms, ` +
            `a whole operation worked again ${recoveredAt - backAt} ms later; invariants held ${waited} ms after the work; ${JSON.stringify(summaries(workloads))}`,
        );
        expect(recoveredAt - backAt).toBeLessThan(RECOVERY_BOUND_MS);
      } finally {
        await closeAll(workloads);
      }
    });
  }
});
