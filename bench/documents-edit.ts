// Benchmark: server-side latency of a one-operation edit on documents of 10 KB, 100 KB and 1 MB of markdown, and
// revisions per second on one document under concurrent editors that send base_revision and retry on 409.
//
//   node --import tsx bench/documents-edit.ts
//
// Starts its own throw-away stack the way the integration tests do (a fresh PostgreSQL database, in-memory
// Temporal, MinIO, the API as its own process; no worker) and removes it afterwards. Server-side latency is the
// duration the API logs for each request (from the request's arrival to its last byte), so the client and the
// loopback are not counted. FOLIO_BENCH_EDITS (default 100) edits per size, FOLIO_BENCH_EDITORS (default 8)
// concurrent editors for FOLIO_BENCH_SECONDS (default 10) seconds; FOLIO_BENCH_SIZES (KB, default 10,100,1024) and
// FOLIO_BENCH_BUDGET (seconds of edits per size, default 300) bound the run. FOLIO_BENCH_CPU_PROF=<dir> profiles the
// API process (bench/cpu-profile.mjs) into that directory; the profile is written when the stack stops it.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import { percentile, sampleMarkdown, say } from './support.js';

const EDITS = Number(process.env.FOLIO_BENCH_EDITS ?? 100);
const EDITORS = Number(process.env.FOLIO_BENCH_EDITORS ?? 8);
const SECONDS = Number(process.env.FOLIO_BENCH_SECONDS ?? 10);
/** Document sizes in KB (FOLIO_BENCH_SIZES, default 10,100,1024). */
const SIZES = (process.env.FOLIO_BENCH_SIZES ?? '10,100,1024').split(',').map((kb) => ({
  label: Number(kb) >= 1024 ? `${Number(kb) / 1024} MB` : `${Number(kb)} KB`,
  bytes: Number(kb) * 1024,
}));
/** Seconds of measured edits per size at most (after at least 5), so a slow size still finishes. */
const BUDGET_S = Number(process.env.FOLIO_BENCH_BUDGET ?? 300);

interface Stack {
  apiUrl: string;
  databaseUrl: string;
  apiLog: string;
  stop(): Promise<void>;
}

async function ownStack(): Promise<Stack> {
  // The request log lines carry the server-side durations this benchmark reads.
  const profileDir = process.env.FOLIO_BENCH_CPU_PROF;
  const profile: Record<string, string> = profileDir ? { NODE_OPTIONS: `--import ${resolve('bench/cpu-profile.mjs')}`, FOLIO_CPU_PROF_DIR: profileDir } : {};
  const stack = await startEphemeralStack({ label: 'bench', worker: false, env: { FOLIO_LOG_LEVEL: 'info', ...profile } });
  return { ...stack, apiLog: join(stack.root, 'api.log') };
}

async function main() {
  const stack = await ownStack();
  try {
    const knex = createDb(stack.databaseUrl);
    const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 10 ** 12 });
    const user = await createUser(knex, { workspaceUuid: workspace.uuid, email: `bench-${randomBytes(4).toString('hex')}@example.test` });
    const { access_token: token } = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: ['docs.read', 'docs.write'],
      expiresInMs: 3_600_000,
    });
    await knex.destroy();

    const api = async (method: string, path: string, body?: unknown, requestId?: string) => {
      const response = await fetch(stack.apiUrl + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    say(`documents-edit benchmark: ${EDITS} one-operation edits per size; ${EDITORS} editors for ${SECONDS}s on one document`);
    for (const size of SIZES) {
      const created = await api('POST', '/v1/documents', { title: size.label });
      const markdown = sampleMarkdown(size.bytes);
      const set = await api('POST', `/v1/documents/${created.body.uuid}/content`, { operations: [{ type: 'set_document', markdown }] });
      if (set.status !== 200) throw new Error(`set_document answered ${set.status}: ${JSON.stringify(set.body).slice(0, 300)}`);
      const path = `/v1/documents/${created.body.uuid}/content`;
      let word = 'alpha';
      const client: number[] = [];
      const budgetEnds = performance.now() + BUDGET_S * 1000;
      for (let i = 0; i < EDITS + 5 && (i < 10 || performance.now() < budgetEnds); i++) {
        const next = word === 'alpha' ? 'beta' : 'alpha';
        const started = performance.now();
        // Warm-up edits are not tagged; measured ones carry a request id the log line repeats.
        const requestId = i >= 5 ? `bench-${size.bytes}-${i}` : undefined;
        const edit = await api('POST', path, { operations: [{ type: 'replace', find: `target ${word}`, with: `target ${next}` }] }, requestId);
        if (edit.status !== 200) throw new Error(`edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`);
        if (i >= 5) client.push(performance.now() - started);
        word = next;
      }
      // The API writes one log line per request when it ends; give the last one a moment to land.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const server = readFileSync(stack.apiLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg?: string; request_id?: string; duration_ms?: number })
        .filter((line) => line.msg === 'request' && line.request_id?.startsWith(`bench-${size.bytes}-`))
        .map((line) => line.duration_ms!)
        .sort((a, b) => a - b);
      client.sort((a, b) => a - b);
      const line = `${size.label.padEnd(7)} (${Buffer.byteLength(markdown)} bytes): server p50 ${percentile(server, 50)} ms, p99 ${percentile(server, 99)} ms (n=${server.length}); client p50 ${percentile(client, 50).toFixed(1)} ms, p99 ${percentile(client, 99).toFixed(1)} ms`;
      say(line);
    }

    // Concurrent editors on one 10 KB document: read, edit with base_revision, on 409 take current and retry.
    const shared = await api('POST', '/v1/documents', { title: 'contended' });
    const sharedPath = `/v1/documents/${shared.body.uuid}/content`;
    const lines = Array.from({ length: EDITORS }, (_, i) => `Editor ${i} count 0`);
    await api('POST', sharedPath, { operations: [{ type: 'set_document', markdown: `${sampleMarkdown(10 * 1024)}\n\n${lines.join('\n\n')}` }] });
    const start = (await api('GET', sharedPath)).body.revision as number;
    const deadline = performance.now() + SECONDS * 1000;
    let conflicts = 0;
    let applied = 0;
    await Promise.all(
      Array.from({ length: EDITORS }, async (_, editor) => {
        let count = 0;
        let revision = start;
        while (performance.now() < deadline) {
          const edit = await api('POST', sharedPath, {
            base_revision: revision,
            operations: [{ type: 'replace', find: `Editor ${editor} count ${count}`, with: `Editor ${editor} count ${count + 1}` }],
          });
          if (edit.status === 200) {
            count++;
            applied++;
            revision = edit.body.revision;
          } else if (edit.status === 409) {
            conflicts++;
            revision = edit.body.current.revision;
          } else {
            throw new Error(`contended edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`);
          }
        }
      }),
    );
    const end = (await api('GET', sharedPath)).body.revision as number;
    const elapsed = SECONDS;
    const line = `${EDITORS} concurrent editors, one 10 KB document, ${elapsed}s: ${end - start} revisions (${((end - start) / elapsed).toFixed(1)}/s), ${applied} applied, ${conflicts} conflicts retried`;
    say(line);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
